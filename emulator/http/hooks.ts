/**
 * Request hooks, in order: per-request state and its request-log entry, the key's account, the rate limit, chaos
 * rules and faults (before anything is touched, so "drop" never mutates), authentication.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ENDPOINTS, parseAuthorizationHeader } from "../../contract/index.js";
import { findAccountByKey } from "../accounts.js";
import { emuError } from "../errors.js";
import { clientGone, dropConnection } from "./answer.js";
import { matrixOf } from "./matrix-url.js";
import type { RequestLogEntry } from "../request-log.js";
import type { EmulatorDeps } from "./types.js";

/** A status failure (a fault's or a chaos rule's) in the error envelope; a 429 always carries Retry-After. */
function failWith(status: number, retryAfterSeconds: number | undefined): never {
  if (status === 429) {
    throw emuError("EMU_ERR_RATE_LIMITED", { headers: { "retry-after": String(retryAfterSeconds ?? 1) } });
  }
  const headers: Record<string, string> =
    retryAfterSeconds !== undefined ? { "retry-after": String(retryAfterSeconds) } : {};
  throw emuError("EMU_ERR_FAULT_INJECTED", { status, headers });
}

/**
 * The chaos rules' latency, then an armed one-shot fault, then a chaos rule's failure (so a fault armed for the
 * next request acts on it even while rules fail requests at random). True when the request has ended.
 */
async function applyFaults(
  deps: EmulatorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const { clock } = deps.ctx;
  const endpoint = request.emu.endpoint;
  const chaos = deps.chaos.decide(endpoint);
  if (chaos.latencyMs > 0) await clock.sleep(chaos.latencyMs);
  const fault = deps.faults.take(endpoint, request.emu.matrix);
  switch (fault?.kind) {
    case "status":
      return failWith(fault.status ?? 503, fault.retryAfterSeconds);
    case "drop":
      dropConnection(request, reply);
      return true;
    case "delay":
      await clock.sleep(fault.delayMs ?? 0);
      // A client that gave up during the delay gets nothing done (logged as "client-gone").
      if (clientGone(request)) {
        reply.hijack();
        return true;
      }
      break;
    case "drop-after-commit":
      request.emu.dropAfterCommit = true;
      break;
    case "delay-after-commit":
      request.emu.delayAfterCommitMs = fault.delayMs ?? 0;
      break;
  }
  if (chaos.failure?.kind === "drop") {
    dropConnection(request, reply, { reset: true });
    return true;
  }
  if (chaos.failure) failWith(chaos.failure.status, chaos.failure.retryAfterSeconds);
  return false;
}

/**
 * Counts the request against its API key's quota (rate-limit.ts), whatever it asks for and whether or not the key
 * is valid: over it, a 429 with Retry-After before anything else is done.
 */
function applyRateLimit(deps: EmulatorDeps, request: FastifyRequest): void {
  const key = parseAuthorizationHeader(request.headers.authorization) ?? "";
  const waitSeconds = deps.rateLimiter.take(key);
  if (waitSeconds === undefined) return;
  const limit = deps.rateLimiter.current()!;
  throw emuError("EMU_ERR_RATE_LIMITED", {
    headers: { "retry-after": String(waitSeconds) },
    message:
      `Too many requests: this API key may make ${limit.requests} requests every ${limit.windowSeconds} s ` +
      `(the emulator's rate limit); retry after the time in the Retry-After header.`,
  });
}

/**
 * Sets request.emu.account from the Authorization header, before the rate limit and the faults: a request they
 * answer is logged with its account too, so the request log filtered by account shows the failures being rehearsed.
 */
function identify(request: FastifyRequest): void {
  const key = parseAuthorizationHeader(request.headers.authorization);
  request.emu.account = key ? findAccountByKey(key) : undefined;
}

/**
 * Endpoints that need a key answer 403: LoginRequired without a header, PermissionException for a key that is not
 * valid (identify() has read it). Public endpoints ignore a bad key and remember a good one (R16 uses it for its
 * message).
 */
function authenticate(request: FastifyRequest): void {
  const endpoint = request.emu.endpoint;
  const header = request.headers.authorization;
  if (!endpoint || !ENDPOINTS[endpoint].auth || request.emu.account) return;
  if (header === undefined || header.trim() === "") throw emuError("EMU_ERR_LOGIN_REQUIRED");
  throw emuError("EMU_ERR_PERMISSION");
}

/**
 * Logs the request once it has ended: when its answer is sent in full ("answered"), or when the
 * connection closes first ("dropped" by a fault, or "client-gone"), even if its work went on.
 */
function logWhenEnded(deps: EmulatorDeps, request: FastifyRequest, reply: FastifyReply): void {
  const time = new Date(deps.ctx.clock.now()).toISOString();
  const userAgent = request.headers["user-agent"];
  let logged = false;
  const log = () => {
    if (logged) return;
    logged = true;
    const answered = reply.raw.writableFinished;
    const entry: RequestLogEntry = {
      method: request.method,
      route: request.emu.endpoint ?? "unknown",
      status: answered ? reply.raw.statusCode : 0,
      outcome: answered
        ? ("answered" as const)
        : request.emu.dropped
          ? ("dropped" as const)
          : ("client-gone" as const),
      account: request.emu.account?.name,
      time,
      ...(userAgent ? { userAgent } : {}),
    };
    deps.requestLog.push(entry);
    if (deps.options.logger) {
      // Method, URL (with its matrix parameters) and status; never headers (the API key is one).
      request.server.log.info(
        {
          req: { method: entry.method, url: request.originalUrl },
          res: { statusCode: entry.status },
          outcome: entry.outcome,
        },
        "request",
      );
    }
  };
  reply.raw.once("finish", log);
  reply.raw.once("close", log);
}

export function registerHooks(app: FastifyInstance, deps: EmulatorDeps): void {
  app.addHook("onRequest", async (request, reply) => {
    const config = request.routeOptions.config;
    request.emu = {
      endpoint: config.endpoint,
      matrix: matrixOf(request.raw),
      account: undefined,
      dropAfterCommit: false,
      delayAfterCommitMs: 0,
      dropped: false,
    };
    if (config.control) return;
    if (deps.turn) await deps.turn(config.endpoint ?? "unknown", request);
    logWhenEnded(deps, request, reply);
    identify(request);
    if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
      throw emuError("EMU_ERR_BAD_REQUEST", {
        fieldName: "Host",
        message: "An HTTP/1.1 request needs a Host header.",
      });
    }
    applyRateLimit(deps, request);
    if (await applyFaults(deps, request, reply)) return reply;
    authenticate(request);
  });
}
