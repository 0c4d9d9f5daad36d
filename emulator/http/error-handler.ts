/**
 * Every failure becomes the RimuHosting error envelope under `jaxrs_response` with a fitting non-2xx
 * status (docs/rimuhosting-api.md, 4.3 Errors): deliberate ones (EmulatorError from the catalogue),
 * fastify's own (bad percent-encoding, a path segment too long, a body too large, no such route,
 * a method the path does not take) and unexpected ones (a 500 that says so). Requests Node's HTTP
 * parser refuses before fastify sees them are answered by http/client-errors.ts in the same shape.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  ENDPOINTS,
  ERROR_ROOT_KEY,
  type EndpointName,
  type ErrorInfo,
  type HttpMethod,
} from "../../contract/index.js";
import { routePath } from "../routes/endpoint.js";
import { EmulatorError, emuError } from "../errors.js";
import { errorEnvelope } from "../wire/envelope.js";
import { JSON_CONTENT_TYPE, afterCommit } from "./answer.js";

/** Fastify's own errors, by code, as catalogue errors that say what to change. */
function fromFastify(error: Partial<FastifyError>): EmulatorError | undefined {
  switch (error.code) {
    case "FST_ERR_BAD_URL":
      return emuError("EMU_ERR_BAD_URL", {
        message: `The path is not valid percent-encoding (${error.message}). Encode '%' as %25.`,
      });
    case "FST_ERR_MAX_PARAM_LENGTH":
      return emuError("EMU_ERR_URI_TOO_LONG");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return emuError("EMU_ERR_BODY_TOO_LARGE");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return emuError("EMU_ERR_VALIDATION", {
        fieldName: "Content-Length",
        message: "The Content-Length header does not match the body that was sent.",
      });
  }
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    return emuError("EMU_ERR_VALIDATION", {
      status: error.statusCode,
      message: error.message ?? "The request was not valid.",
    });
  }
  return undefined;
}

function toEmulatorError(error: unknown): EmulatorError {
  if (error instanceof EmulatorError) return error;
  return fromFastify(error as Partial<FastifyError>) ?? emuError("EMU_ERR_INTERNAL");
}

/** The error envelope as JSON text. */
export function errorBody(nowMs: number, error: EmulatorError): string {
  const info: ErrorInfo = {
    error_class: error.errorClass,
    error_title: error.code,
    field_name: error.fieldName ?? null,
    human_readable_message: error.message,
    full_error_message: `${error.code}: ${error.message}${error.fieldName ? ` (field: ${error.fieldName})` : ""}`,
  };
  return JSON.stringify({ [ERROR_ROOT_KEY]: errorEnvelope(nowMs, error.status, info) });
}

async function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: EmulatorError,
): Promise<FastifyReply> {
  if (await afterCommit(request, reply)) return reply;
  const { ctx } = request.server.emulator;
  let sent = error;
  try {
    await ctx.store.durable();
  } catch (writeError) {
    // The state file cannot be written: that is the answer now, whatever the request did.
    sent = writeError as EmulatorError;
  }
  return reply
    .code(sent.status)
    .headers(sent.headers)
    .header("content-type", JSON_CONTENT_TYPE)
    .send(errorBody(ctx.clock.now(), sent));
}

const METHODS: HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];

/** Each contract endpoint's path as a pattern over a concrete path (`{order}` is one segment). */
const PATTERNS = (Object.keys(ENDPOINTS) as EndpointName[]).map((name) => ({
  name,
  pattern: new RegExp(`^/r${ENDPOINTS[name].path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
}));

/** The methods registered for a path, or undefined when no resource has that path. */
function allowedMethods(app: FastifyInstance, path: string): HttpMethod[] | undefined {
  const allowed = new Set<HttpMethod>();
  for (const { name, pattern } of PATTERNS) {
    if (!pattern.test(path)) continue;
    const url = `/r${routePath(name)}`;
    for (const method of METHODS) if (app.hasRoute({ method, url })) allowed.add(method);
  }
  return allowed.size > 0 ? METHODS.filter((m) => allowed.has(m)) : undefined;
}

function notFound(request: FastifyRequest): EmulatorError {
  const path = request.url.split("?")[0]!;
  const allowed = allowedMethods(request.server, path);
  if (allowed && !allowed.includes(request.method as HttpMethod)) {
    return emuError("EMU_ERR_METHOD_NOT_ALLOWED", {
      message: `${path} does not take ${request.method}; it takes ${allowed.join(", ")}.`,
      headers: { allow: allowed.join(", ") },
    });
  }
  return emuError("EMU_ERR_ROUTE_NOT_FOUND", {
    message: `There is no resource ${request.method} ${path}. The API lives under /r (e.g. GET /r/orders).`,
  });
}

/** For fastify's `frameworkErrors` option: bad URLs and over-long path segments, before routing. */
export function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendError(request, reply, toEmulatorError(error));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const emu = toEmulatorError(error);
    if (emu.code === "EMU_ERR_INTERNAL") request.log.error({ err: error }, "emulator internal error");
    return sendError(request, reply, emu);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, notFound(request)));
}
