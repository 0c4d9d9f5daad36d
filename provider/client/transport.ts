/**
 * The HTTP layer: one got instance per client over keep-alive agents, the retry loop driven by
 * RETRY_POLICY, per-operation timeouts, error mapping and the log callback.
 *
 * got's own retry and HTTP-error throwing are off: the loop here decides per endpoint, and reading
 * every response ourselves lets a proxy's HTML page become a clear error. got's errors are never
 * rethrown or kept (their enumerable `options` hold the Authorization header).
 */
import http from "node:http";
import https from "node:https";
import { setTimeout as timer } from "node:timers/promises";
import { got, RequestError, TimeoutError, type Got } from "./got.js";
import type * as z from "zod";
import {
  ENDPOINTS,
  authorizationHeader,
  type Endpoint,
  type EndpointName,
  type HttpMethod,
  type MatrixParams,
} from "../../contract/index.js";
import { calculateDelay, parseRetryAfter } from "./calculate-delay.js";
import type { ResolvedClientConfig } from "./config.js";
import {
  RimuConfigError,
  RimuError,
  RimuTimeoutError,
  RimuTransientError,
  type TimeoutWait,
} from "./errors.js";
import { readResponse, type RawResponse } from "./read-response.js";
import { createRedactor, type Redactor } from "./redact.js";
import { buildPath, endpointLabel, type OrderRef } from "./request-path.js";
import {
  RETRY_RULES,
  TIMEOUT_OPTIONS,
  isRetryable,
  timeoutMs,
  type AttemptFailure,
  type RetryRule,
  type RetryRuleName,
  type TimeoutKind,
} from "./retry-policy.js";

/** got's timings of one request (got does not export the type by name). */
type Timings = NonNullable<RequestError["timings"]>;

export type EndpointResponse<N extends EndpointName> = z.infer<(typeof ENDPOINTS)[N]["response"]>;

export interface CallOptions {
  order?: OrderRef;
  matrix?: MatrixParams;
  /** JSON body; wrapped in the endpoint's requestWrapper by the caller. */
  json?: Record<string, unknown>;
  /** Form body (R12 only). */
  form?: Record<string, string>;
  /** Overrides the endpoint's retry rule (setRunningState refines it per target state). */
  retry?: RetryRuleName;
  /** Overrides the endpoint's timeout kind. */
  timeout?: TimeoutKind;
  /** For "move" timeouts: used disk in MB. */
  usedDiskMb?: number;
}

export interface Transport {
  call<N extends EndpointName>(
    name: N,
    policy: { retry: RetryRuleName; timeout: TimeoutKind },
    options?: CallOptions,
  ): Promise<EndpointResponse<N>>;
  /** Writes one line to the configured log callback (a throwing callback is ignored). */
  log(line: string): void;
  readonly redact: Redactor;
  readonly config: ResolvedClientConfig;
  /** Waits between attempts; createVps uses it for its own bounded loop. */
  pause(ms: number): Promise<void>;
  close(): void;
}

const USER_AGENT = "pulumi-rimuhosting (+https://github.com/pulumi-rimuhosting)";

export function createTransport(config: ResolvedClientConfig): Transport {
  const agent = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  const redact = createRedactor(config.apiKey);
  const log = redactedLogger(config, redact);
  // Parsed once per client, not per request: whether its connections are TLS (timedOutWaitingFor reads it).
  const tls = new URL(config.baseUrl).protocol === "https:";
  const exchange: Exchange = { instance: gotInstance(config, agent), redact, log, config, tls };
  let closed = false;
  return {
    async call(name, policy, options = {}) {
      if (closed) throw new RimuConfigError(`${endpointLabel(ENDPOINTS[name])}: the client is closed`);
      return callWithRetries(exchange, name, policy, options);
    },
    log,
    redact,
    config,
    pause: (ms) => sleepFor(config)(ms),
    close() {
      closed = true;
      agent.http.destroy();
      agent.https.destroy();
    },
  };
}

/** The client's wait: the configured one (tests), else a real timer. */
function sleepFor(config: ResolvedClientConfig): (ms: number) => Promise<void> {
  return config.sleep ?? ((ms) => timer(ms).then(() => undefined));
}

/** What every call of one client shares: its got instance, redactor, log and configuration. */
interface Exchange {
  instance: Got;
  redact: Redactor;
  log: (line: string) => void;
  config: ResolvedClientConfig;
  /** Whether the base URL is https: (Request.tls). */
  tls: boolean;
}

/** One got instance over the client's keep-alive agents, with got's own retry and error throwing off. */
function gotInstance(config: ResolvedClientConfig, agent: { http: http.Agent; https: https.Agent }): Got {
  return got.extend({
    prefixUrl: `${config.baseUrl}/`,
    agent,
    headers: { accept: "application/json", "user-agent": USER_AGENT },
    retry: { limit: 0 },
    throwHttpErrors: false,
    // A redirect could carry the Authorization header elsewhere; the API does not redirect.
    followRedirect: false,
    responseType: "text",
  });
}

/** The configured log callback with the API key redacted; a throwing callback is ignored. */
function redactedLogger(config: ResolvedClientConfig, redact: Redactor): (line: string) => void {
  return (line) => {
    if (!config.log) return;
    try {
      config.log(redact(line));
    } catch {
      // A broken logger must not break API calls.
    }
  };
}

/** One request as sent, the same for every attempt. */
interface Request {
  path: string;
  method: HttpMethod;
  headers: Record<string, string>;
  options: CallOptions;
  limitMs: number;
  timeoutKind: TimeoutKind;
  /** How a timeout's message names the limit (ClientConfig.timeoutNames, else the client's option). */
  limitName: string;
  label: string;
  /** Whether the connection is TLS (an https base URL): then it is made only once its handshake is done. */
  tls: boolean;
}

/** The request for one call: path, headers, time limit; refuses an authenticated call without a key. */
function requestFor(
  endpoint: Endpoint,
  { config, tls }: Pick<Exchange, "config" | "tls">,
  timeoutKind: TimeoutKind,
  options: CallOptions,
): Request {
  const label = endpointLabel(endpoint);
  if (endpoint.auth && !config.apiKey) {
    throw new RimuConfigError(
      `${label} needs an API key: pass apiKey to createClient() (only the catalog calls R14–R17 work without one)`,
      { fieldName: "apiKey", endpoint: label },
    );
  }
  const headers: Record<string, string> = {};
  if (endpoint.auth && config.apiKey) headers.authorization = authorizationHeader(config.apiKey);
  return {
    path: buildPath(endpoint, options),
    method: endpoint.method,
    headers,
    options,
    limitMs: timeoutMs(timeoutKind, config.timeouts, options.usedDiskMb),
    timeoutKind,
    limitName: config.timeoutNames[timeoutKind] ?? TIMEOUT_OPTIONS[timeoutKind],
    label,
    tls,
  };
}

/** The retry loop: attempts until a record, an error the endpoint's rule does not retry, or the limit. */
async function callWithRetries<N extends EndpointName>(
  exchange: Exchange,
  name: N,
  policy: { retry: RetryRuleName; timeout: TimeoutKind },
  options: CallOptions,
): Promise<EndpointResponse<N>> {
  const { config, log } = exchange;
  const endpoint = ENDPOINTS[name];
  const request = requestFor(endpoint, exchange, options.timeout ?? policy.timeout, options);
  const rule = RETRY_RULES[options.retry ?? policy.retry];
  const maxAttempts = config.retry.limit + 1;
  const line = `${endpoint.method} ${request.path}`;
  for (let attempt = 1; ; attempt++) {
    // Only a call that changes something waits for the engine's check (the contract says which do).
    if (endpoint.mutates) await config.beforeChange?.();
    await config.pacer?.turn();
    const started = performance.now();
    const result = await attemptOnce(exchange, endpoint, request);
    const outcome = result.ok
      ? String(result.status)
      : (result.status ?? result.error.networkCode ?? result.error.code);
    log(`${line} ${outcome} attempt ${attempt}/${maxAttempts} ${elapsed(started)}ms`);
    if (result.ok) return result.record as EndpointResponse<N>;

    const { error, retryAfterMs } = result;
    const silent = error.noAnswer === true && !config.retry.silentReads;
    if (!result.retryable(rule) || attempt >= maxAttempts || silent) {
      throw withDetails(error, { attempts: attempt, retryAfterMs });
    }
    const delay = calculateDelay({ retry: attempt, ...config.retry, retryAfterMs });
    log(
      `retry ${line} in ${delay}ms after ${outcome}` +
        (retryAfterMs !== undefined ? ` (Retry-After ${retryAfterMs}ms)` : "") +
        ` (attempt ${attempt + 1}/${maxAttempts})`,
    );
    await sleepFor(config)(delay);
  }
}

type AttemptResult =
  | { ok: true; status: number; record: unknown }
  | {
      ok: false;
      /** HTTP status, when a response arrived. */
      status?: number;
      error: RimuError;
      retryAfterMs?: number;
      retryable(rule: RetryRule): boolean;
    };

/** One HTTP exchange: the validated record, or the mapped error and whether `rule` allows another try. */
async function attemptOnce(
  { instance, redact }: Exchange,
  endpoint: Endpoint,
  request: Request,
): Promise<AttemptResult> {
  let raw: RawResponse | undefined;
  let retryAfterMs: number | undefined;
  try {
    const response = await instance(request.path.slice(1), {
      method: request.method,
      headers: request.headers,
      json: request.options.json,
      form: request.options.form,
      timeout: { request: request.limitMs },
    });
    raw = {
      status: response.statusCode,
      contentType: response.headers["content-type"],
      body: response.body,
    };
    retryAfterMs = parseRetryAfter(response.headers["retry-after"], Date.now());
    return { ok: true, status: raw.status, record: readResponse(endpoint, raw, redact) };
  } catch (caught) {
    const error = toRimuError(caught, { ...request, redact });
    const is2xx = raw !== undefined && raw.status >= 200 && raw.status < 300;
    const failure: AttemptFailure = raw
      ? { status: raw.status }
      : { networkCode: error.networkCode, timedOut: error instanceof RimuTimeoutError };
    return {
      ok: false,
      status: raw?.status,
      error,
      retryAfterMs,
      // A 2xx that could not be read (bad shape, ERROR envelope) is never retried: the server answered.
      retryable: (rule) => !is2xx && isRetryable(rule, failure),
    };
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** Maps whatever one attempt threw to a RimuError, scrubbing got's error down to name, code and message. */
function toRimuError(
  caught: unknown,
  context: Pick<Request, "label" | "limitMs" | "timeoutKind" | "limitName" | "tls"> & { redact: Redactor },
): RimuError {
  if (caught instanceof RimuError) return caught;
  const { label, limitMs, timeoutKind, limitName, redact } = context;
  if (caught instanceof TimeoutError || (caught instanceof RequestError && caught.code === "ETIMEDOUT")) {
    const waitedFor = timedOutWaitingFor(caught.timings, context.tls);
    // Never connected: nothing was sent, so nothing can be going on at RimuHosting. Connected and no first byte:
    // a change the service got may still be going on there (said only of a change, never of a read).
    const message =
      waitedFor === "connection"
        ? `${label}: no connection within ${limitMs} ms (${limitName}); nothing was sent`
        : `${label}: no response within ${limitMs} ms (${limitName})` +
          (timeoutKind === "read" ? "" : "; RimuHosting may still be making the change");
    return new RimuTimeoutError(message, {
      endpoint: label,
      networkCode: "ETIMEDOUT",
      noAnswer: waitedFor !== "rest of the answer",
      waitedFor,
      timeoutKind,
      timeoutMs: limitMs,
      cause: scrub(caught, redact),
    });
  }
  if (caught instanceof RequestError) {
    const code = caught.code || "ERR_NETWORK";
    return new RimuTransientError(`${label}: the connection failed (${code}: ${redact(caught.message)})`, {
      endpoint: label,
      networkCode: code,
      cause: scrub(caught, redact),
    });
  }
  // Not an HTTP failure (a bug, or an option got rejected): keep the class but never got's object.
  const text = caught instanceof Error ? caught.message : String(caught);
  return new RimuTransientError(`${label}: ${redact(text)}`, {
    endpoint: label,
    cause: caught instanceof Error ? scrub(caught, redact) : undefined,
  });
}

/**
 * What a timed-out attempt was still waiting for, from got's timings: a connection (TCP, and TLS for https) never
 * made, so the request was never sent (an address that drops connection attempts, or whose listener never accepts);
 * the first byte of an answer to a request that was sent; or the rest of an answer that had begun.
 *
 * `tls` comes from the base URL, not from the timings: got records secureConnect (and phases.tls) only once a
 * handshake is done, so a handshake that stalled leaves no trace there of being TLS at all, and a TCP connection
 * alone would read as a request sent.
 */
function timedOutWaitingFor(timings: Timings | undefined, tls: boolean): TimeoutWait {
  if (timings?.response !== undefined) return "rest of the answer";
  const connected = timings?.connect !== undefined && (!tls || timings.secureConnect !== undefined);
  return connected ? "answer" : "connection";
}

/** A plain Error with got's name, code and (redacted) message, and nothing else: no options, no headers. */
function scrub(error: Error, redact: Redactor): Error {
  const copy = new Error(redact(error.message));
  copy.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") Object.defineProperty(copy, "code", { value: code, enumerable: true });
  return copy;
}

/** The same error with what the loop learnt recorded: attempts made, and any Retry-After the service sent. */
function withDetails(error: RimuError, details: { attempts: number; retryAfterMs?: number }): RimuError {
  for (const [key, value] of Object.entries(details)) {
    if (value !== undefined)
      Object.defineProperty(error, key, { value, enumerable: true, configurable: true });
  }
  return error;
}
