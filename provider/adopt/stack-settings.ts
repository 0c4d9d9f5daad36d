/**
 * The API key, address, retries and pace `import-file` uses, found where the plugin finds them (provider/config.ts):
 * the stack's config (`rimuhosting:apiKey`, `rimuhosting:baseUrl`, `rimuhosting:retryLimit`,
 * `rimuhosting:requestsPerSecond`) first, then the environment (`RIMUHOSTING_APIKEY`, `RIMUHOSTING_BASEURL`,
 * RIMUHOSTING_RETRYLIMIT, RIMUHOSTING_REQUESTSPERSECOND), then the live API and the client's defaults. The command runs outside the engine, so the stack's config is read the
 * way a user reads it, with `pulumi config`, which decrypts the secret key; only inside a Pulumi project (a
 * Pulumi.yaml here or above), and only when that works: without a stack or a `pulumi` on PATH, the environment is
 * what there is. A stack named with `--stack` is different: the user asked for its key, so when its config cannot be
 * read (a typo in its name, no project here) the command fails naming it (StackSettingsError) rather than quietly
 * using the environment's key, which may be another account's.
 */
import { spawnSync } from "node:child_process";
import {
  CONFIG_KEYS,
  CONFIG_NAMESPACE,
  ENV_VARS,
  RETRY_ENV_VARS,
  resolveConfig,
  type ConfigSource,
  type ResolvedConfig,
} from "../config.js";
import { RETRY_SETTINGS, readRetrySettings, type ReadRetrySettings } from "../impl/engine/retry-settings.js";
import { settingName } from "../impl/engine/settings-source.js";
import { inPulumiProject } from "../impl/ownership/backend-states.js";

/** The settings, and where the address was found, for messages. */
export interface FoundSettings {
  config: ResolvedConfig;
  /** Where the address was found: `rimuhosting:baseUrl`, `RIMUHOSTING_BASEURL`, or `the default`. */
  baseUrlSource: string;
  /** The retries and pace, as the plugin reads them (retry-settings.ts), and what is wrong with them. */
  retry: ReadRetrySettings;
  /** Each setting as the user wrote it: the stack config's key, or the variable it was read from. */
  name: (key: string) => string;
}

/** What a stack's config says: the address and key, and the retries' and pace's text. */
interface StackValues extends ConfigSource {
  retry: Partial<Record<(typeof RETRY_SETTINGS)[number], string>>;
}

/** `pulumi config --json --show-secrets` prints `{"<key>": {"value": "…", "secret": bool}}`. */
function valueOf(config: Record<string, unknown>, key: string): string | undefined {
  const entry = config[key] as { value?: unknown } | undefined;
  return typeof entry?.value === "string" ? entry.value : undefined;
}

/** The config of the stack given with `--stack` could not be read: its message names the stack and why. */
export class StackSettingsError extends Error {}

/** Why `pulumi config` failed, in a line: its own first error line, or the spawn's error. */
export function failureOf(result: ReturnType<typeof spawnSync>): string {
  if (result.error) return result.error.message;
  const said = String(result.stderr ?? "")
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "");
  return said ?? `it exited with ${result.status ?? result.signal}`;
}

/**
 * The stack's rimuhosting settings, or undefined when there is no stack to read them from; throws
 * StackSettingsError when `stack` was given and its config cannot be read.
 */
function stackConfig(
  cwd: string,
  stack: string | undefined,
  env: NodeJS.ProcessEnv,
): StackValues | undefined {
  const fail = (why: string): undefined => {
    if (stack === undefined) return undefined;
    throw new StackSettingsError(
      `--stack ${stack}: cannot read that stack's config (\`pulumi config --stack ${stack}\`: ${why}), so ` +
        `there is no API key to use. Check the stack's name (\`pulumi stack ls\`) and run in its project's ` +
        `directory, or leave out --stack to use RIMUHOSTING_APIKEY.`,
    );
  };
  if (!inPulumiProject(cwd)) return fail("no Pulumi project (Pulumi.yaml) in this directory or above");
  const args = ["config", "--json", "--show-secrets", ...(stack !== undefined ? ["--stack", stack] : [])];
  const result = spawnSync("pulumi", args, { cwd, env, encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) return fail(failureOf(result));
  try {
    const config = JSON.parse(result.stdout) as Record<string, unknown>;
    const retry: StackValues["retry"] = {};
    for (const key of RETRY_SETTINGS) retry[key] = valueOf(config, `${CONFIG_NAMESPACE}:${key}`);
    return {
      apiKey: valueOf(config, CONFIG_KEYS.apiKey),
      baseUrl: valueOf(config, CONFIG_KEYS.baseUrl),
      retry,
    };
  } catch {
    return fail("it printed no JSON");
  }
}

/**
 * The settings to call RimuHosting with, from the stack's config over the environment; throws StackSettingsError
 * when `stack` is given and its config cannot be read.
 */
export function findSettings(
  opts: { cwd?: string; stack?: string | undefined; env?: NodeJS.ProcessEnv } = {},
): FoundSettings {
  const env = opts.env ?? process.env;
  const fromStack = stackConfig(opts.cwd ?? process.cwd(), opts.stack, env) ?? { retry: {} };
  const config = resolveConfig(fromStack, env);
  const given = (value: string | undefined) => value !== undefined && value.trim() !== "";
  const baseUrlSource = given(fromStack.baseUrl)
    ? CONFIG_KEYS.baseUrl
    : given(env[ENV_VARS.baseUrl])
      ? ENV_VARS.baseUrl
      : "the default";
  const fromEnvironment = new Set<string>();
  const retry = retryOf(fromStack.retry, env, fromEnvironment);
  return { config, baseUrlSource, retry, name: (key) => settingName(key, undefined, fromEnvironment) };
}

/**
 * The retries and pace: each from the stack's config, else from its variable (empty text is unset), as the plugin
 * reads them; a message about one read from the environment names the variable (settings-source.ts).
 */
function retryOf(
  fromStack: StackValues["retry"],
  env: NodeJS.ProcessEnv,
  /** Filled with the keys read from their variables. */
  fromEnvironment: Set<string>,
): ReadRetrySettings {
  const value = (key: (typeof RETRY_SETTINGS)[number]): string | undefined => {
    if (fromStack[key] !== undefined) return fromStack[key];
    const variable = env[RETRY_ENV_VARS[key]];
    if (variable === undefined || variable.trim() === "") return undefined;
    fromEnvironment.add(key);
    return variable;
  };
  const values = new Map(RETRY_SETTINGS.map((key) => [key, value(key)] as const));
  return readRetrySettings((key) => values.get(key), undefined, fromEnvironment);
}
