/**
 * The provider's configuration at run time: configure() reads the settings once and gives them to the run
 * (engine/run-context.ts), which every caller here is handed; the clients, one HTTP agent each, are the process's.
 *
 * configure() runs in the dynamic-provider host, which loads this package with require(), so nothing of it lives in
 * the serialized provider (nothing is captured, nothing lands in `__provider`). The environment is read at call time
 * as the fallback of the API key and base URL.
 */
import { createHash, randomUUID } from "node:crypto";
import { accountViewFor, resetAccountViews, type AccountView } from "../account/account-view.js";
import {
  beginRun,
  beginRunOfSameCommand,
  runState,
  UNCONFIGURED,
  type RunContext,
  type RunTuning,
} from "../engine/run-context.js";
import { createClient, type RimuClient, type ClientConfig } from "../../client/index.js";
import { RimuConfigError } from "../../client/errors.js";
import { DEFAULT_TIMEOUTS } from "../../client/config.js";
import { createPacer, type Pacer } from "../../client/pacer.js";
import {
  duration,
  limitName,
  timeLimitOf,
  type EngineRequest,
  type TimeLimit,
} from "../engine/time-limits.js";
import {
  CONFIG_KEYS,
  CONFIG_NAMESPACE,
  READ_TIMEOUT_ENV_VAR,
  SETTING_ENV_VARS,
  resolveConfig,
} from "../../config.js";
import { readBudget } from "../budget/budget.js";
import { readRetrySettings, type ReadRetrySettings } from "../engine/retry-settings.js";
import { assertEngineAlive, watchDynamicHostEngine } from "../engine/engine-watch.js";
import {
  missingApiKey,
  settingRefused,
  useEnvironmentFor,
  useSettingsOf,
} from "../engine/settings-source.js";

/**
 * The part of the dynamic-provider ConfigureRequest this package reads: text from the dynamic host; the native
 * plugin hands an explicit provider's budget and retries arguments as the numbers they arrived as (provider-config.ts),
 * read by the same parsers as text.
 */
export interface ConfigureRequestLike {
  config: { get(key: string): string | number | undefined };
}

/** A setting that must be text (the API key, the base URL): text as given, else unset (CheckConfig refused it). */
const textOf = (value: string | number | undefined): string | undefined =>
  typeof value === "string" ? value : undefined;

/**
 * The process's HTTP clients, one keep-alive agent each, by a digest of what a run passes (its account, time limit,
 * retries and pace): per process on purpose, as connections are, so the runs of a process (tests) and the operations
 * of one run reuse their connections. Never a run's state: a client holds no answer, only connections.
 */
const clients = new Map<string, RimuClient>();

/**
 * Called once per provider text by the host, with the whole stack config. The engine hands the dynamic host
 * every config value as text (a value stored with `pulumi config set --type float` arrives as `3.8e+31`), so a
 * key is never a number here, unlike on the native path (provider/native/provider-config.ts).
 */
export async function configure(run: RunContext, req: ConfigureRequestLike): Promise<void> {
  // The budget's and the retries' settings (budget.ts, retry-settings.ts): the stack config's, or the native plugin's
  // provider arguments as text, then the environment, as apiKey and baseUrl are read (config.ts).
  const settings = settingsWithEnvironmentOf(req);
  const retry = readRetrySettings(settings);
  run.settings = {
    stackConfig: {
      apiKey: textOf(req.config.get(CONFIG_KEYS.apiKey)),
      baseUrl: textOf(req.config.get(CONFIG_KEYS.baseUrl)),
    },
    budget: readBudget(settings),
    retry,
    pacer: pacerOf(retry),
  };
  // In the dynamic host: stop when the engine dies (engine-watch.ts; the native plugin starts its own watch).
  watchDynamicHostEngine();
}

/**
 * The retries and pace of the data sources of a TypeScript program (provider/data-sources/program-client.ts), which
 * run in the program's process, where configure() never runs: `req` holds the program's stack config. Their clients
 * take the retries and pace from it, else from the environment, read as configure() reads them for the Vps. The
 * program's data sources of one account and settings share one client (cachedClient), so they keep one pace.
 */
export function programRetrySettings(req: ConfigureRequestLike): ReadRetrySettings {
  return readRetrySettings(settingsWithEnvironmentOf(req));
}

/**
 * The settings read from the environment when they are not configured (SETTING_ENV_VARS: the budget's, the
 * retries'): each key from the config, else from its variable (empty text there counts as unset, as for
 * RIMUHOSTING_APIKEY). Messages then name the variable of a key read from it.
 */
function settingsWithEnvironmentOf(
  req: ConfigureRequestLike,
): (key: SettingKey) => string | number | undefined {
  const values = new Map<SettingKey, string | number | undefined>();
  const fromEnvironment = new Set<SettingKey>();
  for (const key of Object.keys(SETTING_ENV_VARS) as SettingKey[]) {
    const configured = req.config.get(`${CONFIG_NAMESPACE}:${key}`);
    const variable = process.env[SETTING_ENV_VARS[key]];
    if (configured === undefined && variable !== undefined && variable.trim() !== "") {
      values.set(key, variable);
      fromEnvironment.add(key);
    } else values.set(key, configured);
  }
  useEnvironmentFor(fromEnvironment);
  return (key) => values.get(key);
}

type SettingKey = keyof typeof SETTING_ENV_VARS;

/** The pace of `read`'s requestsPerSecond, for every client of one configuration; undefined: none. */
function pacerOf(read: ReadRetrySettings): Pacer | undefined {
  const rps = read.settings.requestsPerSecond;
  return rps === undefined ? undefined : createPacer(rps);
}

/**
 * Forgets what one run learnt (everything run-context.ts holds) but keeps the configuration: what a new provider
 * host process starts from (tests, to stand for the next run). Of a new `pulumi` command unless `sameCommand`:
 * then it stands for another provider process of the same command (an explicit provider beside the default one,
 * or the update of `pulumi up` after its preview), which shares the command's plan (account/shared-plan.ts).
 */
export function forgetRun(opts: { sameCommand?: boolean } = {}): void {
  if (opts.sameCommand) beginRunOfSameCommand();
  else beginRun(`test command ${randomUUID()}`);
}

/** Starts a run nothing configured, and closes cached clients (tests). */
export function resetConfiguration(): void {
  useSettingsOf(undefined);
  useEnvironmentFor(new Set());
  beginRun().settings = UNCONFIGURED;
  closeClients();
}

/**
 * The client for an operation. One client (one keep-alive agent) per configuration: the cache key is a
 * hash of the base URL, the key and the time limit, so the key itself is never held as a map key.
 * `what` names the caller in the missing-key message. `limit`: the operation's (time-limits.ts; none: the
 * client's defaults). `silentReads: false` for the reads that only look (check()'s shared reads, the data
 * sources): see cachedClient().
 */
export function clientFor(
  run: RunContext,
  what: string,
  limit?: TimeLimit,
  opts: { silentReads?: false } = {},
): RimuClient {
  const resolved = resolveConfig(run.settings.stackConfig);
  if (resolved.apiKey === undefined) throw new RimuConfigError(missingApiKey(what));
  return cachedClient(
    { apiKey: resolved.apiKey, baseUrl: resolved.baseUrl, limit, ...opts },
    { ...run.settings, tuning: run.tuning, digests: run.get(DIGESTS) },
  );
}

/**
 * The time limit of a read the engine gave a timeout (customTimeouts.read); undefined without one: the reads then
 * keep the test seam's, RIMUHOSTING_READ_TIMEOUT_MS or the client's 30 s, as every read does.
 */
export function readLimit(engine?: EngineRequest): TimeLimit | undefined {
  const limit = timeLimitOf("read", undefined, engine);
  return limit.source === "customTimeouts" ? limit : undefined;
}

/**
 * `run`'s shared reads of the configured account (account-view.ts): one view per base URL and API key, kept for
 * the run. Throws the missing-key error like clientFor(). What a preview reads comes from here.
 */
export function accountView(run: RunContext, what: string): AccountView {
  return accountViewFor(run, configuredAccountKey(run, what), () =>
    clientFor(run, what, undefined, { silentReads: false }),
  );
}

/** A hash of the configured account's base URL and API key (never the key): what names it in shared files. */
export function configuredAccountKey(run: RunContext, what: string): string {
  const resolved = resolveConfig(run.settings.stackConfig);
  if (resolved.apiKey === undefined) throw new RimuConfigError(missingApiKey(what));
  return sha256Of(`${resolved.baseUrl}\n${resolved.apiKey}`, run.get(DIGESTS));
}

/** The last few texts a run hashed (sha256Of) and their digests; texts that hold the key are never map keys. */
interface Digests {
  recent: readonly { text: string; digest: string }[];
}
const DIGESTS = runState("the digests of the run's last few settings' texts", (): Digests => ({
  recent: [],
}));

/**
 * The sha256 of `text` in hex, remembered in `memo` (a run's) for the last few texts: every check, diff and change
 * of a run asks for the same few (its account's, its clients'), 0.4 ms each under load in a 150-VPS update
 * (docs/benchmarks.md).
 */
function sha256Of(text: string, memo?: Digests): string {
  const known = memo?.recent.find((d) => d.text === text);
  if (known) return known.digest;
  const digest = createHash("sha256").update(text).digest("hex");
  if (memo) memo.recent = [{ text, digest }, ...memo.recent].slice(0, 8);
  return digest;
}

/** The base URL `run` talks to (the catalogue cache is keyed by it). */
export function configuredBaseUrl(run: RunContext): string {
  return resolveConfig(run.settings.stackConfig).baseUrl;
}

/** Whether `run` has an API key (check() fails early in a preview when none is). */
export function hasApiKey(run: RunContext): boolean {
  return resolveConfig(run.settings.stackConfig).apiKey !== undefined;
}

/**
 * Tests: the read timeout of `run`'s clients (the fault matrix's "client timeout" on reads). `run`'s views hold
 * clients of the old timeout, so they are forgotten too (testing.ts passes the run it serves).
 */
export function setReadTimeout(run: RunContext, ms: number | undefined): void {
  run.tuning = { ...run.tuning, readTimeoutMs: ms };
  closeClients();
  resetAccountViews(run);
}

/**
 * Tests: the wait between retries of `run`'s clients (the model test's faults: a retry costs no wall time). Only
 * clients made after it take it: set it before the first call.
 */
export function setRetryDelay(run: RunContext, ms: number | undefined): void {
  run.tuning = { ...run.tuning, retryDelayMs: ms };
  closeClients();
}

function closeClients(): void {
  for (const client of clients.values()) client.close();
  clients.clear();
}

/**
 * A cached client for explicit settings (the data sources pass the program's config). Its read timeout is the
 * test seam's, else RIMUHOSTING_READ_TIMEOUT_MS, else the client's 30 s. `silentReads: false` (the reads that only
 * look: a preview's checks, the data sources): a read that gets not even the first byte of an answer within it is
 * not sent again, so a service that accepts connections and never answers fails a preview after one wait, naming
 * the base URL (read-failures.ts), instead of after four waits per read, with warnings.
 */
export function cachedClient(
  settings: {
    apiKey?: string;
    baseUrl: string;
    limit?: TimeLimit;
    silentReads?: false;
  },
  configured: {
    /** The retries and pace (retry-settings.ts). */
    retry: ReadRetrySettings;
    /** The pace the caller's clients share (a run's); none: the client's own, made with it. */
    pacer?: Pacer | undefined;
    /** What a test tuned of the run the client serves (none: a program's data sources, a real run). */
    tuning?: RunTuning;
    /** The run's digests of its texts (sha256Of). */
    digests?: Digests;
  },
): RimuClient {
  const { retry, tuning = {} } = configured;
  // A bad retryLimit or requestsPerSecond fails every call that needs a client, naming the setting (retry-settings.ts).
  if (retry.problems.length > 0) throw new RimuConfigError(retry.problems.join(" "));
  const { limit } = settings;
  const reads = limit?.operation === "read";
  const mutationMs = limit && !reads ? limit.ms : undefined;
  const readMs = reads ? limit.ms : (tuning.readTimeoutMs ?? readTimeoutFromEnv());
  const retryDelayMs = tuning.retryDelayMs;
  const { retryLimit, requestsPerSecond } = retry.settings;
  const cacheKey = sha256Of(
    `${settings.baseUrl}\n${settings.apiKey ?? ""}\n${JSON.stringify(limit ?? null)}\n${readMs ?? ""}\n` +
      `${settings.silentReads ?? ""}\n${retryLimit ?? ""}\n${requestsPerSecond ?? ""}\n${retryDelayMs ?? ""}`,
    configured.digests,
  );
  let client = clients.get(cacheKey);
  if (!client) {
    // No change is sent once the engine that asked for it is gone (engine-watch.ts).
    const config: ClientConfig = { baseUrl: settings.baseUrl, beforeChange: assertEngineAlive };
    if (settings.apiKey !== undefined) config.apiKey = settings.apiKey;
    if (mutationMs !== undefined || readMs !== undefined)
      config.timeouts = compactTimeouts({ mutationMs, readMs });
    // A timeout names the operation's limit and where it came from, not the client's option.
    if (limit !== undefined)
      config.timeoutNames = reads
        ? { read: limitName(limit) }
        : {
            mutation: limitName(limit),
            move: `${limitName(limit)}, plus ${duration(DEFAULT_TIMEOUTS.movePerGbMs)} per GB of used disk`,
          };
    config.retry = {
      ...(settings.silentReads === false ? { silentReads: false } : {}),
      ...(retryLimit === undefined ? {} : { limit: retryLimit }),
      ...(retryDelayMs === undefined ? {} : { baseDelayMs: retryDelayMs, maxDelayMs: retryDelayMs }),
    };
    const pacer = "pacer" in configured ? configured.pacer : pacerOf(retry);
    if (pacer) config.pacer = pacer;
    client = withConfigSource(() => createClient(config));
    clients.set(cacheKey, client);
  }
  return client;
}

/** RIMUHOSTING_READ_TIMEOUT_MS, read at call time; undefined when unset. */
function readTimeoutFromEnv(): number | undefined {
  const text = process.env[READ_TIMEOUT_ENV_VAR]?.trim();
  if (text === undefined || text === "") return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1)
    throw new RimuConfigError(
      `${READ_TIMEOUT_ENV_VAR} must be a whole number of milliseconds, such as 30000 (the default)`,
    );
  return ms;
}

/**
 * The client names the bad option (`baseUrl`, `apiKey`) but not where the provider got it: the message names
 * the setting as the user wrote it and how to set it (settings-source.ts).
 */
function withConfigSource<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof RimuConfigError)) throw error;
    const field = error.fieldName;
    if (field !== "baseUrl" && field !== "apiKey") throw error;
    throw new RimuConfigError(settingRefused(field, error.message), { fieldName: field });
  }
}

function compactTimeouts(timeouts: { mutationMs?: number; readMs?: number }): {
  mutationMs?: number;
  readMs?: number;
} {
  return Object.fromEntries(Object.entries(timeouts).filter(([, value]) => value !== undefined));
}
