/**
 * The client's retries and pace as provider settings (docs/installation-configuration.md, "Retries and pace"):
 * `retryLimit` (retries per request after a 429, a 5xx or a dropped connection, as the retry policy allows) and
 * `requestsPerSecond` (the pace of every request, retries too), from the stack config `rimuhosting:<key>` or an
 * explicit provider's argument, else RIMUHOSTING_RETRYLIMIT / RIMUHOSTING_REQUESTSPERSECOND (RETRY_ENV_VARS). Left
 * out, the client's defaults apply (3 retries, no pace).
 *
 * What a valid value is belongs to the client (its ClientConfig schema): a value is handed to it, and a refusal is
 * said of the setting as the user wrote it (settings-source.ts). Text must be a plain decimal number (`5`, `2.5`).
 */
import { resolveClientConfig } from "../../client/config.js";
import { settingName, settingPlace } from "./settings-source.js";
import { givenValue } from "../cost/setting.js";

export const RETRY_SETTINGS = ["retryLimit", "requestsPerSecond"] as const;
export type RetrySetting = (typeof RETRY_SETTINGS)[number];

export interface RetrySettings {
  retryLimit?: number;
  requestsPerSecond?: number;
}

/** The settings as read, and what is wrong with them (each a sentence naming the setting and where to fix it). */
export interface ReadRetrySettings {
  settings: RetrySettings;
  problems: string[];
}

/** Each setting as the client option that takes it. */
const CLIENT_OPTION: Record<RetrySetting, (value: number) => Record<string, unknown>> = {
  retryLimit: (value) => ({ retry: { limit: value } }),
  requestsPerSecond: (value) => ({ requestsPerSecond: value }),
};

/**
 * The client options that give a client these retries and pace of its own (a command outside the engine, such as
 * `import-file`; the provider's clients share one pace, runtime-config.ts).
 */
export function clientOptionsOf(settings: RetrySettings): Record<string, unknown> {
  return Object.assign(
    {},
    ...RETRY_SETTINGS.flatMap((key) =>
      settings[key] === undefined ? [] : [CLIENT_OPTION[key](settings[key])],
    ),
  ) as Record<string, unknown>;
}

const EXAMPLE: Record<RetrySetting, string> = { retryLimit: "5", requestsPerSecond: "5" };

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

const given = givenValue;

/** A number as given (a number, or plain decimal text), else NaN; negative zero, as the text `-0`, is refused. */
function numberOf(value: unknown): number {
  if (typeof value === "number") return Object.is(value, -0) ? NaN : value;
  return typeof value === "string" && PLAIN_DECIMAL.test(value.trim()) ? Number(value.trim()) : NaN;
}

/**
 * Reads the settings through `get` (the value of `<key>` as given: text from the stack config or the environment, a
 * number or text from a provider's arguments). `provider`: the explicit provider they belong to, undefined for the
 * stack config; `environment`: the keys `get` read from their variables (messages name the variable), by default
 * those this process's configure() read so (settings-source.ts).
 */
export function readRetrySettings(
  get: (key: RetrySetting) => unknown,
  provider?: string,
  environment?: ReadonlySet<string>,
): ReadRetrySettings {
  const settings: RetrySettings = {};
  const problems: string[] = [];
  for (const key of RETRY_SETTINGS) {
    const value = get(key);
    if (value === undefined || value === null) continue;
    const fix = `: fix it in ${settingPlace(key, provider, environment)}, or remove it for the default.`;
    const number = numberOf(value);
    if (Number.isNaN(number)) {
      problems.push(
        `${settingName(key, provider, environment)} must be a number, such as ${EXAMPLE[key]}${given(value)}${fix}`,
      );
      continue;
    }
    try {
      resolveClientConfig(CLIENT_OPTION[key](number));
      settings[key] = number;
    } catch (error) {
      // The client's words: `invalid client configuration: retry.limit must be at most 20 retries`.
      const problem = (error instanceof Error ? error.message : "")
        .replace(/^(\[[A-Z_]+\]\s*)?invalid client configuration:\s*\S+\s*/, "")
        .replace(/[.\s]+$/, "");
      problems.push(`${settingName(key, provider, environment)} ${problem}${given(value)}${fix}`);
    }
  }
  return { settings, problems };
}
