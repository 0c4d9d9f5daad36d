/**
 * The provider's own configuration: `apiKey` (secret) and `baseUrl`, from the stack config
 * (`rimuhosting:apiKey`, the default provider) or an explicit provider's inputs, falling back to
 * RIMUHOSTING_APIKEY / RIMUHOSTING_BASEURL as the dynamic provider does (provider/config.ts resolves them).
 *
 * The engine starts one plugin process per provider (the default one and each explicit `Provider`), and
 * Configure is called once per process, so impl's per-process configuration (runtime-config.ts) holds
 * exactly one account: several explicit providers are several processes (docs/native-plugin.md).
 */
import { resolveClientConfig } from "../client/config.js";
import { RimuConfigError } from "../client/errors.js";
import { CONFIG_NAMESPACE } from "../config.js";
import { configure } from "../impl/runtime-config.js";
import { asSecret } from "../impl/secret-values.js";
import { containsUnknown } from "../impl/unknowns.js";
import { plain, type Bag } from "./protocol.js";

/** The settings a provider takes, by their key (stack config `rimuhosting:<key>`, provider input `<key>`). */
export const PROVIDER_SETTINGS = ["apiKey", "baseUrl"] as const;
type Setting = (typeof PROVIDER_SETTINGS)[number];

/** Keys the engine itself adds to a provider's inputs. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

export interface ConfigFailure {
  property: string;
  reason: string;
}

/** A setting as given: a string, or undefined when unset (empty counts as unset, as in provider/config.ts). */
function settingOf(bag: Bag, key: Setting): string | undefined {
  const value = plain(bag[key]);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/**
 * CheckConfig: each setting is checked as the client would check it (the client's own rules, so a bad
 * `baseUrl` fails the preview, not the first API call), the API key is kept secret, and a key this provider
 * does not know is reported (a typo such as `rimuhosting:apikey` would otherwise be ignored silently).
 */
export function checkConfig(news: Bag): { inputs: Bag; failures: ConfigFailure[] } {
  const failures: ConfigFailure[] = [];
  const inputs: Bag = { ...news };
  for (const key of Object.keys(news)) {
    if (ENGINE_KEYS.has(key) || (PROVIDER_SETTINGS as readonly string[]).includes(key)) continue;
    failures.push({
      property: key,
      reason:
        `[${RimuConfigError.code}] ${CONFIG_NAMESPACE}:${key} is not a setting of this provider; ` +
        `the settings are ${PROVIDER_SETTINGS.map((k) => `${CONFIG_NAMESPACE}:${k}`).join(" and ")}. ` +
        `Remove it, or correct its name.`,
    });
  }
  for (const key of PROVIDER_SETTINGS) {
    const value = plain(news[key]);
    if (value === undefined || value === null || containsUnknown(value)) continue;
    if (typeof value !== "string") {
      // Seen through the CLI: a YAML program reads a config value made of digits (as RimuHosting's keys are)
      // as a number, and a 32-digit key is no longer the key.
      const hint =
        typeof value === "number"
          ? " It arrived as a number: a YAML program reads a config value made only of digits as a number. " +
            `Set it quoted, e.g. \`pulumi config set --secret <name> '"<digits>"'\`.`
          : "";
      failures.push({ property: key, reason: `[${RimuConfigError.code}] ${key} must be a string.${hint}` });
      continue;
    }
    if (value.trim() === "") continue;
    try {
      resolveClientConfig({ [key]: value.trim() });
    } catch (error) {
      const text = error instanceof Error ? error.message.replace(/invalid client configuration: /, "") : "";
      failures.push({
        property: key,
        reason: `${text}. Fix ${CONFIG_NAMESPACE}:${key} (or the explicit provider's ${key} input).`,
      });
    }
  }
  if (news.apiKey !== undefined && news.apiKey !== null && !containsUnknown(news.apiKey))
    inputs.apiKey = asSecret(plain(news.apiKey));
  return { inputs, failures };
}

/** DiffConfig: a changed setting updates the provider in place; it never replaces the VPSs it manages. */
export function diffConfig(olds: Bag, news: Bag): { changed: Setting[] } {
  return {
    changed: PROVIDER_SETTINGS.filter((key) => settingOf(olds, key) !== settingOf(news, key)),
  };
}

/**
 * Configure: hands the settings to impl (runtime-config.ts) as the dynamic host's configure() does. `args`
 * are the provider's inputs; old engines send only `variables` (`rimuhosting:config:apiKey`).
 */
export async function configureProvider(
  args: Bag | undefined,
  variables: Map<string, string>,
): Promise<void> {
  const settings: Partial<Record<Setting, string>> = {};
  for (const key of PROVIDER_SETTINGS) {
    const value = args ? settingOf(args, key) : variables.get(`${CONFIG_NAMESPACE}:config:${key}`);
    if (value !== undefined) settings[key] = value;
  }
  await configure({
    config: {
      get: (key) => settings[key.replace(`${CONFIG_NAMESPACE}:`, "") as Setting],
    },
  });
}
