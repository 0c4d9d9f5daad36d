/**
 * The provider's own configuration: `apiKey` (secret) and `baseUrl`, from the stack config
 * (`rimuhosting:apiKey`, the default provider) or an explicit provider's inputs, falling back to
 * RIMUHOSTING_APIKEY / RIMUHOSTING_BASEURL as the dynamic provider does (provider/config.ts resolves them); and
 * the budget's `monthlyBudgetUsd`, `maxMonthlyIncreaseUsd` and `budgetEnforcement` (impl/budget/budget.ts) and the
 * client's `retryLimit` and `requestsPerSecond` (impl/engine/retry-settings.ts), from the same places, then their
 * environment variables (provider/config.ts, SETTING_ENV_VARS).
 *
 * The engine starts one plugin process per provider (the default one and each explicit `Provider`), and
 * Configure is called once per process, so the run the process serves (impl's RunContext, configured by
 * runtime-config.ts) holds exactly one account: several explicit providers are several processes
 * (docs/native-plugin.md).
 */
import { resolveClientConfig } from "../client/config.js";
import { RimuConfigError } from "../client/errors.js";
import { CONFIG_NAMESPACE } from "../config.js";
import { configure } from "../impl/lifecycle/runtime-config.js";
import { currentRun } from "../impl/engine/run-context.js";
import {
  explicitProviderOf,
  notText,
  settingName,
  settingRefused,
  useSettingsOf,
} from "../impl/engine/settings-source.js";
import { asSecret } from "../impl/inputs/secret-values.js";
import { BUDGET_SETTINGS, readBudget } from "../impl/budget/budget.js";
import { RETRY_SETTINGS, readRetrySettings } from "../impl/engine/retry-settings.js";
import { containsUnknown } from "../impl/inputs/unknowns.js";
import { plain, type Bag } from "./protocol.js";

/** The client's settings: text, checked by the client's own rules. */
const CLIENT_SETTINGS = ["apiKey", "baseUrl"] as const;

/** The settings a provider takes, by their key (stack config `rimuhosting:<key>`, provider input `<key>`). */
export const PROVIDER_SETTINGS = [...CLIENT_SETTINGS, ...BUDGET_SETTINGS, ...RETRY_SETTINGS] as const;
type Setting = (typeof PROVIDER_SETTINGS)[number];

/** Keys the engine itself adds to a provider's inputs. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

export interface ConfigFailure {
  property: string;
  reason: string;
}

/**
 * A setting as given: text, or a number for a budget's or the retries' amount (kept a number, never turned into
 * text: `String(1e-7)` is `1e-7`, which the one parser refuses where CheckConfig took the number, and `String(-0)` is
 * `0`); undefined when unset (empty counts as unset, as in provider/config.ts).
 */
function settingOf(bag: Bag, key: Setting): string | number | undefined {
  const value = plain(bag[key]);
  if (typeof value === "number" && !(CLIENT_SETTINGS as readonly string[]).includes(key)) return value;
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/**
 * CheckConfig: each setting is checked as the client would check it (the client's own rules, so a bad
 * `baseUrl` fails the preview, not the first API call), the API key is kept secret, and a key this provider
 * does not know is reported (a typo such as `rimuhosting:apikey` would otherwise be ignored silently). `urn` is
 * the provider's: the messages name an explicit provider's argument, or the default provider's stack setting.
 *
 * No failure names its property: the engine prints a property's failure with the property's value
 * (`property apiKey value {&{{3.8475619203847564e+31}}}`), secret or not. The reason names the setting itself.
 */
export function checkConfig(urn: string, news: Bag): { inputs: Bag; failures: ConfigFailure[] } {
  const provider = explicitProviderOf(urn);
  const reasons: string[] = [];
  const inputs: Bag = { ...news };
  for (const key of Object.keys(news)) {
    if (ENGINE_KEYS.has(key) || (PROVIDER_SETTINGS as readonly string[]).includes(key)) continue;
    reasons.push(
      `${settingName(key, provider)} is not a setting of this provider; the settings are ` +
        `${PROVIDER_SETTINGS.map((k) => settingName(k, provider)).join(", ")}. Remove it, or correct its name.`,
    );
  }
  for (const key of CLIENT_SETTINGS) {
    const value = plain(news[key]);
    if (value === undefined || value === null || containsUnknown(value)) continue;
    if (typeof value !== "string") {
      reasons.push(notText(key, value, provider));
      // Not kept as given: a number is not the key, and the engine must not store its digits anywhere.
      delete inputs[key];
      continue;
    }
    if (value.trim() === "") continue;
    try {
      resolveClientConfig({ [key]: value.trim() });
    } catch (error) {
      reasons.push(settingRefused(key, error instanceof Error ? error.message : "", provider));
    }
  }
  // The budget's settings (impl/budget/budget.ts), by the same rules as the Vps's check applies them.
  const settingValue = (key: string) => {
    const value = plain(news[key]);
    return containsUnknown(value) ? undefined : value;
  };
  reasons.push(...readBudget(settingValue, provider).problems);
  // The retries and pace (retry-settings.ts): the client's own rules, said of the setting as written.
  reasons.push(...readRetrySettings(settingValue, provider).problems);
  if (inputs.apiKey !== undefined && inputs.apiKey !== null && !containsUnknown(inputs.apiKey))
    inputs.apiKey = asSecret(plain(inputs.apiKey));
  return {
    inputs,
    failures: reasons.map((reason) => ({ property: "", reason: `[${RimuConfigError.code}] ${reason}` })),
  };
}

/** DiffConfig: a changed setting updates the provider in place; it never replaces the VPSs it manages. */
export function diffConfig(olds: Bag, news: Bag): { changed: Setting[] } {
  return {
    changed: PROVIDER_SETTINGS.filter((key) => settingOf(olds, key) !== settingOf(news, key)),
  };
}

/**
 * Configure: hands the settings to impl (runtime-config.ts) as the dynamic host's configure() does, and tells
 * impl which provider they belong to (messages then name its arguments). `args` are the provider's inputs; old
 * engines send only `variables` (`rimuhosting:config:apiKey`) and no URN.
 */
export async function configureProvider(
  urn: string | undefined,
  args: Bag | undefined,
  variables: Map<string, string>,
): Promise<void> {
  useSettingsOf(explicitProviderOf(urn));
  const settings: Partial<Record<Setting, string | number>> = {};
  for (const key of PROVIDER_SETTINGS) {
    const value = args ? settingOf(args, key) : variables.get(`${CONFIG_NAMESPACE}:config:${key}`);
    if (value !== undefined) settings[key] = value;
  }
  // Configure is an engine call: the settings are the run's this process serves.
  await configure(currentRun(), {
    config: {
      get: (key) => settings[key.replace(`${CONFIG_NAMESPACE}:`, "") as Setting],
    },
  });
}
