/**
 * Where this process's provider settings were written, so every message about a setting names what the user
 * set: the stack config (`rimuhosting:apiKey`: the dynamic `Vps`, a program's data sources, and the native
 * plugin's default provider) or an explicit provider's argument (`provider 'alice': apiKey`, native plugin only;
 * the engine runs one plugin process per provider, so a process has one source).
 */
import {
  CONFIG_KEYS,
  CONFIG_NAMESPACE,
  ENV_VARS,
  SETTING_ENV_VARS,
  missingApiKeyMessage,
} from "../../config.js";

export type SettingKey = keyof typeof CONFIG_KEYS;

/**
 * Per process: the explicit provider whose arguments this process runs with; undefined: the stack config. The
 * engine runs one plugin process per provider (the native plugin's Configure sets it), and the dynamic host serves
 * the stack config alone. The error catalogue's advice names settings where it is (errors.ts).
 */
let explicitProvider: string | undefined;

/**
 * The names the engine gives its default providers: `default`, or `default_` and the requested version's parts
 * (`default_1_2_3`, then any pre-release, build and download URL, each after a `_`). The engine's own
 * IsDefaultProvider only asks whether a name starts with `default`, which would take a provider the program names
 * `default-eu` for a default one; the names it builds never have anything but `_` after `default`. (An explicit
 * provider named `default_…` cannot be told from a default one by its name.)
 */
const DEFAULT_PROVIDER_NAME = /^default(_|$)/;

/**
 * The explicit provider named by a provider URN (`urn:pulumi:<stack>::<project>::pulumi:providers:rimuhosting::<name>`),
 * or undefined for a default provider (DEFAULT_PROVIDER_NAME) or no URN.
 */
export function explicitProviderOf(urn: string | undefined): string | undefined {
  const name = urn?.split("::").slice(3).join("::");
  return name && !DEFAULT_PROVIDER_NAME.test(name) ? name : undefined;
}

/**
 * Per process: the keys this process's configure() took from the environment (SETTING_ENV_VARS), so messages name
 * the variable. A command of its own passes the keys it read instead (readRetrySettings, settingName).
 */
let fromEnvironment: ReadonlySet<string> = new Set();

/** From now on, messages name the arguments of the explicit provider `name` (undefined: the stack config). */
export function useSettingsOf(name: string | undefined): void {
  explicitProvider = name;
}

/** From now on, messages name the variable of each key in `keys` (budget, retries), where its value was read. */
export function useEnvironmentFor(keys: ReadonlySet<string>): void {
  fromEnvironment = keys;
}

const envVarOf = (key: string): string | undefined =>
  (SETTING_ENV_VARS as Record<string, string | undefined>)[key];

/** The keys read from their variables by the settings of `provider`: this process's, when they are its provider's. */
const environmentOf = (provider: string | undefined): ReadonlySet<string> =>
  provider === explicitProvider ? fromEnvironment : new Set();

/**
 * The setting as the user wrote it: `rimuhosting:apiKey`, `provider 'alice': apiKey`, or the variable a key
 * was read from (`RIMUHOSTING_MONTHLYBUDGETUSD`) when the settings took it from the environment (`environment`:
 * the keys read so; by default this process's provider's).
 */
export function settingName(
  key: string,
  provider: string | undefined = explicitProvider,
  environment: ReadonlySet<string> = environmentOf(provider),
): string {
  const variable = envVarOf(key);
  if (variable !== undefined && environment.has(key)) return variable;
  return provider === undefined ? `${CONFIG_NAMESPACE}:${key}` : `provider '${provider}': ${key}`;
}

/** Where a setting was written, for "fix it in …": settingsPlace(), or the environment for a variable read. */
export function settingPlace(
  key: string,
  provider: string | undefined = explicitProvider,
  environment: ReadonlySet<string> = environmentOf(provider),
): string {
  if (settingName(key, provider, environment) !== envVarOf(key)) return settingsPlace(provider);
  const unset =
    provider === undefined
      ? `${CONFIG_NAMESPACE}:${key} is`
      : `provider '${provider}' has no ${key} argument`;
  return `the environment (the variable is read when ${unset} not set)`;
}

/** How to set it, as advice after a comma: where it is written, and the environment variable read when it is not. */
export function howToSet(key: SettingKey, provider: string | undefined = explicitProvider): string {
  if (provider !== undefined)
    return `set the ${key} argument of provider '${provider}' in the program (when it is left out, ${ENV_VARS[key]} is read)`;
  const secret = key === "apiKey" ? " --secret" : "";
  return `set it with \`pulumi config set${secret} ${CONFIG_KEYS[key]} <${key === "apiKey" ? "key" : "url"}>\` (or ${ENV_VARS[key]})`;
}

/** Where the settings are written: `the stack config`, or `the arguments of provider 'alice' in the program`. */
export function settingsPlace(provider: string | undefined = explicitProvider): string {
  return provider === undefined
    ? "the stack config"
    : `the arguments of provider '${provider}' in the program`;
}

/**
 * The client's refusal of a setting's value (`invalid client configuration: baseUrl must be …`, which never
 * carries the value), said of the setting as the user wrote it, with how to set it.
 */
export function settingRefused(key: SettingKey, clientMessage: string, provider = explicitProvider): string {
  const problem = clientMessage
    .replace(/^(\[[A-Z_]+\]\s*)?invalid client configuration:\s*/, "")
    .replace(new RegExp(`^${key}\\s+`), "")
    .replace(/[.\s]+$/, "");
  return `${settingName(key, provider)} ${problem}; ${howToSet(key, provider)}.`;
}

/** No API key anywhere: what needs one (`what`), and where to set it. */
export function missingApiKey(what: string, provider = explicitProvider): string {
  if (provider === undefined) return missingApiKeyMessage(what);
  return `${what} needs a RimuHosting API key, and provider '${provider}' has none: ${howToSet("apiKey", provider)}.`;
}

/**
 * A setting that arrived as something other than text. Seen through the CLI: a YAML program reads a value made
 * only of digits, as RimuHosting's API keys are, as a number (which keeps only 16 of a key's 32 digits). The
 * message never shows the value.
 */
export function notText(key: SettingKey, value: unknown, provider = explicitProvider): string {
  const kind =
    typeof value === "number"
      ? "a number"
      : Array.isArray(value)
        ? "a list"
        : typeof value === "object"
          ? "an object"
          : `a ${typeof value}`;
  const what = `${settingName(key, provider)} arrived as ${kind}, not as text`;
  if (provider === undefined)
    return `${what}: set it as text, ${howToSet(key, provider).replace(/^set it /, "")} (without --type).`;
  if (typeof value === "number") return `${what}${digitsReadAsNumber(key, key === "apiKey")}`;
  return `${what}. Give it as a quoted string: ${quoted(key, key === "apiKey")}.`;
}

/**
 * Why a value arrived as a number and how to quote it, after the sentence that says so: a YAML program reads a
 * value made only of digits (RimuHosting's API keys, a digits-only password) as a number, which keeps at most 16 of
 * its digits. `secret`: the config value is set with --secret. Never shows the value.
 */
export function digitsReadAsNumber(key: string, secret: boolean): string {
  return (
    `: a YAML program reads a value made only of digits as a number, and a long one loses digits that way. ` +
    `Quote it: ${quoted(key, secret)}.`
  );
}

/** Where to put the quotes: in the program, or in the config value the program reads. */
function quoted(key: string, secret: boolean): string {
  return (
    `\`${key}: "<value>"\` in the program, or, for a config value the program reads, ` +
    `\`pulumi config set${secret ? " --secret" : ""} <name> '"<value>"'\``
  );
}
