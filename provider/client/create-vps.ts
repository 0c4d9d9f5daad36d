/**
 * POST new-vps without ever creating two servers.
 *
 * The create call is not idempotent and the real service blocks for minutes until the VPS is up, so a
 * lost response leaves the caller not knowing whether a paid server now exists. A proxy's 502/503, a
 * dropped socket or a timeout does not mean the backend stopped working on the request, so "not found
 * yet" is no proof that nothing will be created. Every create therefore carries a creation token in
 * the order's meta_data, and the rules are:
 *   - Pre-flight: a caller-supplied token (opts.creationToken, or one already in meta_data) is an
 *     idempotency key. Active orders carrying it are looked up first; if one exists it is returned
 *     (`reconciled: true`) and nothing is POSTed. A random token (none supplied) needs no lookup.
 *   - Sent again only when the service certainly did nothing: connection refused (ECONNREFUSED),
 *     429, or a 503 carrying the service's own JSON error envelope (the application answered and
 *     refused). Backoff as for any retry (Retry-After honoured), bounded by retry.limit.
 *   - Any other transient failure (dropped connection, 502, 504, 500, a 5xx HTML page from a proxy,
 *     a timeout, an unreadable 2xx) is ambiguous: never sent again. The token is looked up
 *     (active orders) with backoff, at most MAX_CREATE_LOOKUPS times within a grace window
 *     (lookupGraceMs, default 60 s; at least one lookup):
 *     found → the order is returned as a PostNewVpsResponse marked `reconciled: true` (the
 *     generated root password is not recoverable that way: `new_order_request` is null);
 *     not found → an error carrying the token (`creationToken`, `orderMayExist`) saying the order may
 *     still appear and that calling createVps again with the same token picks it up.
 *   - A definite 4xx is thrown at once.
 */
import { randomUUID } from "node:crypto";
import {
  ENDPOINTS,
  PostNewVpsResponse,
  type AboutOrder,
  type GetOrderResponse,
  type GetOrdersResponse,
  type GetVpsStatusResponse,
  type NewVpsRequest,
} from "../../contract/index.js";
import { calculateDelay } from "./calculate-delay.js";
import type { ResolvedRetry } from "./config.js";
import {
  RimuError,
  RimuResponseShapeError,
  RimuTimeoutError,
  RimuTransientError,
  RimuValidationError,
} from "./errors.js";
import { CREATION_TOKEN_KEY } from "./metadata-keys.js";
import { endpointLabel, type OrderRef } from "./request-path.js";

/**
 * True when the order's meta_data carries this creation token. The one test of "this order was placed
 * with this token": the client's pre-flight and the provider's look-ups all use it, and none trusts
 * meta_search alone (a server that ignored the filter must not make us adopt someone else's order).
 */
export function carriesCreationToken(order: AboutOrder, token: string): boolean {
  return creationTokensOf(order).includes(token);
}

/** Every creation token the order's meta_data carries (none, or one): what carriesCreationToken tests. */
export function creationTokensOf(order: AboutOrder): unknown[] {
  return (order.meta_data ?? []).filter((m) => m.key_name === CREATION_TOKEN_KEY).map((m) => m.value);
}

/**
 * How long, after an ambiguous create failure, the client keeps looking the token up before it
 * reports "may still appear". Bounded so a caller is not blocked for the whole (hour-long) create:
 * a later createVps with the same token finds the order anyway.
 */
export const DEFAULT_CREATE_LOOKUP_GRACE_MS = 60_000;

/** At most this many lookups per ambiguous failure, however small the backoff (a few, not a flood). */
const MAX_CREATE_LOOKUPS = 10;

const CREATE_LABEL = endpointLabel(ENDPOINTS.createVps);

/** Tokens go into a space-separated `key:value` meta_search, so no spaces or colons. */
const TOKEN_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** What a failed create means for the next step. */
export type CreateFailureKind =
  /** The service certainly did nothing (ECONNREFUSED, 429, the service's own 503): back off and send again. */
  | "not-created"
  /** The request may have reached a backend that is still working on it: look up, never send again. */
  | "ambiguous"
  /** A definite answer (4xx, config): throw as is. */
  | "definite";

/**
 * A 503 is definite only when the application itself answered: the error was read from the
 * service's JSON error envelope (`jaxrs_response.error_info`, which sets errorClass). A proxy's HTML
 * 503 carries no errorClass and stays ambiguous. A 502 is always ambiguous, whatever its body: by
 * definition a gateway produced it after the upstream failed, possibly mid-request.
 */
export function classifyCreateFailure(error: RimuError): CreateFailureKind {
  if (error instanceof RimuTimeoutError) return "ambiguous";
  if (error instanceof RimuResponseShapeError) return "ambiguous";
  if (error instanceof RimuTransientError) {
    if (error.status === 429) return "not-created";
    if (error.status === undefined && error.networkCode === "ECONNREFUSED") return "not-created";
    if (error.status === 503 && error.errorClass !== undefined) return "not-created";
    return "ambiguous";
  }
  return "definite";
}

export interface CreateVpsDeps {
  post(request: NewVpsRequest): Promise<PostNewVpsResponse>;
  listOrders(filter: {
    metaSearch: Record<string, string>;
    includeInactive: boolean;
  }): Promise<GetOrdersResponse>;
  getOrder(order: OrderRef): Promise<GetOrderResponse>;
  getVpsStatus(order: OrderRef): Promise<GetVpsStatusResponse>;
  log(line: string): void;
  pause(ms: number): Promise<void>;
  retry: ResolvedRetry;
  random?: () => number;
}

export interface CreateVpsOptions {
  /** The token; a random UUID when undefined. */
  token: string;
  /** The caller chose the token (an idempotency key): look for an existing order before POSTing. */
  preflight: boolean;
  /** Grace window of the lookups after an ambiguous failure (default DEFAULT_CREATE_LOOKUP_GRACE_MS). */
  lookupGraceMs?: number;
}

/** The token the caller supplied (opts.creationToken, else one already in meta_data), if any. */
export function suppliedCreationToken(
  request: NewVpsRequest,
  explicit: string | undefined,
): string | undefined {
  const fromMeta = request.meta_data?.find((m) => m.key_name === CREATION_TOKEN_KEY)?.value ?? undefined;
  const token = explicit ?? fromMeta;
  if (token !== undefined && !TOKEN_PATTERN.test(token)) {
    throw new RimuValidationError(
      `${CREATE_LABEL}: creationToken must be 1–128 letters, digits, '.', '_' or '-'`,
      { fieldName: "creationToken", endpoint: CREATE_LABEL },
    );
  }
  return token;
}

export function resolveCreationToken(request: NewVpsRequest, explicit: string | undefined): string {
  return suppliedCreationToken(request, explicit) ?? randomUUID();
}

/** The request with exactly one creation-token entry in meta_data (any other entries kept). */
function withCreationToken(request: NewVpsRequest, token: string): NewVpsRequest {
  const others = (request.meta_data ?? []).filter((m) => m.key_name !== CREATION_TOKEN_KEY);
  return { ...request, meta_data: [...others, { key_name: CREATION_TOKEN_KEY, value: token }] };
}

export async function createVpsReconciled(
  deps: CreateVpsDeps,
  request: NewVpsRequest,
  options: CreateVpsOptions,
): Promise<PostNewVpsResponse> {
  const { token } = options;
  if (options.preflight) {
    const existing = await preflightLookup(deps, token);
    if (existing) {
      deps.log(
        `createVps: order ${existing.order_oid} already carries creation token ${token}; returning it (reconciled), nothing sent`,
      );
      return reconciledResponse(
        deps,
        existing,
        token,
        `an order carrying creation token ${token} already exists, so ${CREATE_LABEL} was not sent`,
      );
    }
  }
  const body = withCreationToken(request, token);
  const maxAttempts = deps.retry.limit + 1;
  for (let attempt = 1; ; attempt++) {
    let error: RimuError;
    try {
      return await deps.post(body);
    } catch (caught) {
      if (!(caught instanceof RimuError)) throw caught;
      error = caught;
    }
    const kind = classifyCreateFailure(error);
    if (kind === "definite") throw error;
    const what = describeFailure(error);

    if (kind === "not-created") {
      if (attempt >= maxAttempts) {
        throw rebuild(error, `${error.message}; gave up after ${attempt} attempts, nothing was created`, {
          token,
          attempt,
          orderMayExist: false,
        });
      }
      const delay = calculateDelay({
        retry: attempt,
        ...deps.retry,
        retryAfterMs: error.retryAfterMs,
        random: deps.random,
      });
      deps.log(
        `createVps: ${what} means nothing was created; retry in ${delay}ms (attempt ${attempt + 1}/${maxAttempts})`,
      );
      await deps.pause(delay);
      continue;
    }

    return lookUpAfterAmbiguousFailure(deps, error, token, attempt, options.lookupGraceMs);
  }
}

/**
 * After an ambiguous failure: poll the token with backoff until found or the grace window is spent.
 * Never POSTs again. The window is measured in planned waits (no clock), at least one lookup is made.
 */
async function lookUpAfterAmbiguousFailure(
  deps: CreateVpsDeps,
  error: RimuError,
  token: string,
  attempt: number,
  graceMs = DEFAULT_CREATE_LOOKUP_GRACE_MS,
): Promise<PostNewVpsResponse> {
  const what = describeFailure(error);
  let waited = 0;
  let lookups = 0;
  let answered = 0;
  let lastLookupError: unknown;
  for (let poll = 1; ; poll++) {
    const delay = calculateDelay({ retry: poll, ...deps.retry, random: deps.random });
    if (poll > MAX_CREATE_LOOKUPS || (poll > 1 && waited + delay > graceMs)) break;
    deps.log(
      `createVps: ${what} is ambiguous (the service may still be creating the order); looking up creation token ${token} in ${delay}ms (lookup ${poll})`,
    );
    await deps.pause(delay);
    waited += delay;
    lookups++;
    try {
      const found = await findOrderByToken(deps, token);
      answered++;
      if (found) {
        deps.log(
          `createVps: order ${found.order_oid} carries creation token ${token}; returning it (reconciled)`,
        );
        return reconciledResponse(
          deps,
          found,
          token,
          `the response to ${CREATE_LABEL} was lost (${what}); order ${found.order_oid} carrying creation token ${token} was found`,
        );
      }
    } catch (lookupError) {
      lastLookupError = lookupError;
    }
  }
  if (answered === 0) {
    const lookupText = lastLookupError instanceof Error ? lastLookupError.message : String(lastLookupError);
    throw rebuild(
      error,
      `${error.message}; looking the order up by creation token also failed (${lookupText}). ` +
        `An order may exist or still appear, so it was not sent again. ${howToFind(token)}`,
      { token, attempt, orderMayExist: true },
    );
  }
  throw rebuild(
    error,
    `${error.message}; no order carries creation token ${token} yet (${lookups} lookups over ${waited} ms), ` +
      `but the service may still be creating it, so it was not sent again: the order may still appear. ` +
      `Calling createVps again with creationToken "${token}" picks it up instead of ordering a second VPS. ` +
      howToFind(token),
    { token, attempt, orderMayExist: true },
  );
}

/** Pre-flight: an active order already carrying the caller's token. A failed lookup sends nothing. */
async function preflightLookup(deps: CreateVpsDeps, token: string): Promise<AboutOrder | undefined> {
  try {
    return await findOrderByToken(deps, token);
  } catch (caught) {
    if (!(caught instanceof RimuError)) throw caught;
    throw rebuild(
      caught,
      `${caught.message}; could not check whether an order with creation token ${token} already exists, ` +
        `so ${CREATE_LABEL} was not sent (nothing was created). Try again later with the same token.`,
      { token, attempt: 0, orderMayExist: false },
    );
  }
}

/**
 * The active order created with `token`, if any. Cancelled orders are left out: a token reused after
 * its order was deleted must order a new VPS, not return the cancelled one. The meta_data is checked
 * here too: a server that ignored meta_search must not make us adopt someone else's order.
 */
async function findOrderByToken(deps: CreateVpsDeps, token: string): Promise<AboutOrder | undefined> {
  const listed = await deps.listOrders({
    metaSearch: { [CREATION_TOKEN_KEY]: token },
    includeInactive: false,
  });
  const matches = (listed.about_orders ?? [])
    .filter((order) => carriesCreationToken(order, token))
    .sort((a, b) => a.order_oid - b.order_oid);
  if (matches.length > 1) {
    deps.log(
      `createVps: ${matches.length} orders carry creation token ${token} (${matches.map((o) => o.order_oid).join(", ")}); using the oldest`,
    );
  }
  return matches[0];
}

async function reconciledResponse(
  deps: CreateVpsDeps,
  listed: AboutOrder,
  token: string,
  why: string,
): Promise<PostNewVpsResponse> {
  const ref = { orderOid: listed.order_oid, domainName: listed.domain_name };
  let aboutOrder = listed;
  try {
    aboutOrder = (await deps.getOrder(ref)).about_order;
  } catch (e) {
    deps.log(
      `createVps: getOrder ${listed.order_oid} failed (${(e as Error).message}); using the listed record`,
    );
  }
  let runningVpsInfo: GetVpsStatusResponse["running_vps_info"] | null = null;
  try {
    runningVpsInfo = (await deps.getVpsStatus(ref)).running_vps_info;
  } catch {
    // Live status is a nice-to-have here; the order record is what the caller needs.
  }
  const message =
    `Reconciled: ${why}. The generated root password cannot be recovered this way ` +
    `(new_order_request is absent); set one explicitly or reinstall to get a new one.`;
  return PostNewVpsResponse.parse({
    status_code: 200,
    response_type: "OK",
    human_readable_message: message,
    about_order: aboutOrder,
    new_order_request: null,
    running_vps_info: runningVpsInfo,
    setup_messages: [message],
    reconciled: true,
    creation_token: token,
  });
}

/** True for a createVps result rebuilt from a lookup (lost response or pre-flight): no password echo. */
export function isReconciled(response: PostNewVpsResponse): boolean {
  return response.reconciled === true;
}

function describeFailure(error: RimuError): string {
  return error.status !== undefined ? `HTTP ${error.status}` : (error.networkCode ?? error.code);
}

function howToFind(token: string): string {
  return `Find it with listOrders({ includeInactive: true, metaSearch: { "${CREATION_TOKEN_KEY}": "${token}" } }).`;
}

/** Same class and details as `error`, a new message, the token and attempt count recorded; `error` as cause. */
function rebuild(
  error: RimuError,
  message: string,
  extra: { token: string; attempt: number; orderMayExist: boolean },
): RimuError {
  const ErrorClass = error.constructor as new (...args: ConstructorParameters<typeof RimuError>) => RimuError;
  return new ErrorClass(message, {
    status: error.status,
    errorClass: error.errorClass,
    fieldName: error.fieldName,
    humanMessage: error.humanMessage,
    endpoint: error.endpoint,
    networkCode: error.networkCode,
    attempts: extra.attempt > 0 ? extra.attempt : error.attempts,
    retryAfterMs: error.retryAfterMs,
    creationToken: extra.token,
    orderMayExist: extra.orderMayExist,
    cause: error,
  });
}
