/**
 * Where the provider's settings come from, in one place: stack config (`rimuhosting:apiKey`,
 * `rimuhosting:baseUrl`) first, then the environment (`RIMUHOSTING_APIKEY`, `RIMUHOSTING_BASEURL`),
 * then defaults. The environment is read at call time, never captured.
 *
 * Used by both sides: the dynamic provider (impl, fed by configure()) and the data sources (fed by
 * `new pulumi.Config("rimuhosting")` in the program). Nothing here imports @pulumi/pulumi.
 */
import { DEFAULT_BASE_URL } from "./client/defaults.js";

/** Stack config namespace of this package. */
export const CONFIG_NAMESPACE = "rimuhosting";
/** Fully qualified stack config keys. */
export const CONFIG_KEYS = { apiKey: "rimuhosting:apiKey", baseUrl: "rimuhosting:baseUrl" } as const;
/** Environment variables read when the stack config has no value (the names RimuHosting's own clients use). */
export const ENV_VARS = { apiKey: "RIMUHOSTING_APIKEY", baseUrl: "RIMUHOSTING_BASEURL" } as const;
/**
 * The budget's settings read the same way (docs/cost.md): the stack config or an explicit provider's argument
 * first, then these variables. Named as the others are: RIMUHOSTING_ and the key in capitals.
 */
export const BUDGET_ENV_VARS = {
  monthlyBudgetUsd: "RIMUHOSTING_MONTHLYBUDGETUSD",
  maxMonthlyIncreaseUsd: "RIMUHOSTING_MAXMONTHLYINCREASEUSD",
  budgetEnforcement: "RIMUHOSTING_BUDGETENFORCEMENT",
} as const;
/**
 * The client's retries and pace as provider settings (impl/engine/retry-settings.ts, docs/installation-configuration.md),
 * read the same way as the budget's: the stack config or an explicit provider's argument first, then these.
 */
export const RETRY_ENV_VARS = {
  retryLimit: "RIMUHOSTING_RETRYLIMIT",
  requestsPerSecond: "RIMUHOSTING_REQUESTSPERSECOND",
} as const;
/** Every setting read from the environment when it is not configured, and its variable. */
export const SETTING_ENV_VARS = { ...BUDGET_ENV_VARS, ...RETRY_ENV_VARS } as const;
/**
 * How long the provider waits for RimuHosting to answer a read, in ms (the client's timeouts.readMs; default
 * 30000). A preview's reads that get no answer at all in that time fail it (provider/impl/account/read-failures.ts).
 */
export const READ_TIMEOUT_ENV_VAR = "RIMUHOSTING_READ_TIMEOUT_MS";
/** The live API (defined by the client). Tests and examples point `baseUrl` at the emulator instead. */
export { DEFAULT_BASE_URL };

/** Settings as given by one source; empty strings count as unset. */
export interface ConfigSource {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
}

/** The settings the provider runs with. `apiKey` may be absent: unauthenticated catalog calls still work. */
export interface ResolvedConfig {
  apiKey?: string;
  baseUrl: string;
}

const present = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== "" ? value.trim() : undefined;

/** Stack config over environment over defaults. */
export function resolveConfig(stack: ConfigSource, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const apiKey = present(stack.apiKey) ?? present(env[ENV_VARS.apiKey]);
  const baseUrl = present(stack.baseUrl) ?? present(env[ENV_VARS.baseUrl]) ?? DEFAULT_BASE_URL;
  return apiKey === undefined ? { baseUrl } : { apiKey, baseUrl };
}

/** The message for a missing API key: what is missing and the two ways to fix it. */
export function missingApiKeyMessage(what: string): string {
  return (
    `${what} needs a RimuHosting API key, and none is configured. ` +
    `Set it with \`pulumi config set ${CONFIG_KEYS.apiKey} <key> --secret\` ` +
    `(or the ${ENV_VARS.apiKey} environment variable). ` +
    `To work against the local emulator instead, run \`npx rimuhosting-emulator\` (without Node.js: ` +
    `\`pulumi plugin run --kind resource rimuhosting -- emulator\`) and set ` +
    `\`pulumi config set ${CONFIG_KEYS.baseUrl} <the URL it prints>\` and its demo key.`
  );
}
