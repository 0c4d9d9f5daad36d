/**
 * Client configuration: the schema (single source of the ClientConfig type), its defaults, and
 * resolveClientConfig(), which validates once at createClient() and fails with a RimuConfigError
 * naming the option. No message ever echoes the API key.
 */
import * as z from "zod";
import { RimuConfigError } from "./errors.js";
import { DEFAULT_BASE_URL } from "./defaults.js";
import { createPacer, type Pacer } from "./pacer.js";

export { DEFAULT_BASE_URL };

/**
 * Per-operation timeouts. The real service answers a mutation only when it is done, and RimuHosting's
 * own clients wait up to an hour for one (docs/rimuhosting-api.md §1 "Latency"); a host-server move takes
 * 5–10 minutes per GB of used disk (docs/rimuhosting-api.md §7.2).
 */
export const DEFAULT_TIMEOUTS = {
  /** GETs and the price quote. */
  readMs: 30_000,
  /** Create, reinstall, resize, running state, delete, cancel, PTR. */
  mutationMs: 3_600_000,
  /** A host-server move: mutationMs plus this much per GB of used disk (see timeoutMs in retry-policy.ts). */
  movePerGbMs: 600_000,
} as const;

/** The fastest pace requestsPerSecond may set: beyond it a pace would change nothing a service notices. */
export const MAX_REQUESTS_PER_SECOND = 1000;

/** Retry defaults: up to 3 retries (4 attempts), 0.5 s doubling to at most 30 s. */
export const DEFAULT_RETRY = {
  limit: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  silentReads: true,
} as const;

const ms = z
  .number({ error: "must be a number of milliseconds, e.g. 30000" })
  .int({ error: "must be a whole number of milliseconds" })
  .nonnegative({ error: "must be 0 or more milliseconds" });

/** Header-safe token: printable ASCII, no spaces. The message never includes the value. */
const ApiKey = z
  .string()
  .min(1, { message: "must not be empty" })
  .regex(/^[\x21-\x7e]+$/, { message: "must be printable ASCII without spaces (use the digits only)" });

const BaseUrl = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
    } catch {
      return false;
    }
  },
  { message: "must be an http(s) URL without credentials, such as https://rimuhosting.com/r" },
);

export const ClientConfig = z.object({
  /** API key for the `Authorization: rimuhosting apikey=…` header. Needed for every call except R14–R17. */
  apiKey: ApiKey.optional(),
  /**
   * API root, e.g. `https://rimuhosting.com/r`. A bare server root (`https://rimuhosting.com`, the form
   * RimuHosting's own tools use for RIMUHOSTING_BASEURL) gets `/r` appended. Default: https://rimuhosting.com/r.
   */
  baseUrl: BaseUrl.optional(),
  /** Per-operation timeouts in milliseconds; defaults in DEFAULT_TIMEOUTS. */
  timeouts: z
    .object({
      readMs: ms.min(1, { error: "must be at least 1 ms" }),
      mutationMs: ms.min(1, { error: "must be at least 1 ms" }),
      movePerGbMs: ms.min(1, { error: "must be at least 1 ms" }),
    })
    .partial()
    .optional(),
  /**
   * How a timeout's message names each limit, when the caller sets it through a setting of its own (the provider
   * names the Vps input or the engine's customTimeouts); default: the client's option (`timeouts.mutationMs`).
   */
  timeoutNames: z.object({ read: z.string(), mutation: z.string(), move: z.string() }).partial().optional(),
  /** Retry tuning; which calls retry on what is fixed by RETRY_POLICY. Defaults in DEFAULT_RETRY. */
  retry: z
    .object({
      limit: z
        .number({ error: "must be the number of retries, 0 to 20" })
        .int({ error: "must be a whole number of retries, 0 to 20" })
        .min(0, { error: "must be 0 (no retries) to 20" })
        .max(20, { error: "must be at most 20 retries" }),
      baseDelayMs: ms,
      maxDelayMs: ms,
      /**
       * Whether a read that got not even the first byte of an answer within timeouts.readMs is sent again
       * (default true). false: it fails at once (RimuTimeoutError with `noAnswer: true`), so a service that
       * accepts connections and never answers costs one wait, not one per attempt.
       */
      silentReads: z.boolean({ error: "must be true or false" }),
    })
    .partial()
    .optional(),
  /**
   * At most this many requests per second, attempts and retries alike, spread evenly (pacer.ts); default: as fast
   * as the calls come. For a service that limits the requests of an API key.
   */
  requestsPerSecond: z
    .number({ error: "must be a number of requests per second, such as 5" })
    .positive({ error: "must be more than 0 requests per second, such as 5" })
    .max(MAX_REQUESTS_PER_SECOND, { error: `must be at most ${MAX_REQUESTS_PER_SECOND} requests per second` })
    .optional(),
  /** A pace shared with other clients (createPacer()); wins over requestsPerSecond. */
  pacer: z
    .custom<Pacer>((value) => typeof (value as Pacer | undefined)?.turn === "function", {
      message: "must be a pacer from createPacer()",
    })
    .optional(),
  /** Receives one line per HTTP attempt and per retry decision. Never gets the key or a password. */
  log: z
    .custom<(line: string) => void>((value) => typeof value === "function", { message: "must be a function" })
    .optional(),
  /**
   * Awaited before every attempt of a request that changes something (every call but the reads and the price
   * quote); a rejection stops the call before it is sent. The provider passes a check that its engine is still
   * there (provider/impl/engine/engine-watch.ts).
   */
  beforeChange: z
    .custom<() => Promise<void>>((value) => typeof value === "function", { message: "must be a function" })
    .optional(),
  /**
   * Waits between attempts and between lookups of an ambiguous create; default: a real timer. Tests pass
   * one that records the delay and resolves at once (the client's clock, injected like the emulator's).
   */
  sleep: z
    .custom<(ms: number) => Promise<void>>((value) => typeof value === "function", {
      message: "must be a function",
    })
    .optional(),
});
export type ClientConfig = z.input<typeof ClientConfig>;

export interface ResolvedTimeouts {
  readMs: number;
  mutationMs: number;
  movePerGbMs: number;
}
export interface ResolvedRetry {
  limit: number;
  baseDelayMs: number;
  maxDelayMs: number;
  silentReads: boolean;
}
export interface ResolvedClientConfig {
  apiKey?: string;
  /** Without a trailing slash. */
  baseUrl: string;
  timeouts: ResolvedTimeouts;
  timeoutNames: Partial<Record<"read" | "mutation" | "move", string>>;
  retry: ResolvedRetry;
  /** The pace every attempt keeps, if any. */
  pacer?: Pacer;
  log?: (line: string) => void;
  beforeChange?: () => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

export function resolveClientConfig(config: ClientConfig): ResolvedClientConfig {
  const parsed = ClientConfig.safeParse(config ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join(".") : "config";
    const problems = parsed.error.issues
      .map((i) => `${i.path.join(".") || "config"} ${i.message}`)
      .join("; ");
    throw new RimuConfigError(`invalid client configuration: ${problems}`, {
      fieldName: field,
    });
  }
  const {
    apiKey,
    baseUrl,
    timeouts,
    timeoutNames,
    retry,
    requestsPerSecond,
    pacer,
    log,
    beforeChange,
    sleep,
  } = parsed.data;
  return {
    apiKey,
    baseUrl: normalizeBaseUrl(baseUrl ?? DEFAULT_BASE_URL),
    timeouts: { ...DEFAULT_TIMEOUTS, ...stripUndefined(timeouts) },
    timeoutNames: stripUndefined(timeoutNames),
    retry: { ...DEFAULT_RETRY, ...stripUndefined(retry) },
    pacer: pacer ?? (requestsPerSecond === undefined ? undefined : createPacer(requestsPerSecond, sleep)),
    log,
    beforeChange,
    sleep,
  };
}

/**
 * The API root without a trailing slash. Every resource lives under `/r` (docs/rimuhosting-api.md §1), and
 * RimuHosting's own Python tools read RIMUHOSTING_BASEURL as the bare server root and append `/r/...`
 * themselves; so a URL with no path at all means that server's `/r`. Any other path is kept as given.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return new URL(trimmed).pathname === "/" ? `${trimmed}/r` : trimmed;
}

function stripUndefined<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
