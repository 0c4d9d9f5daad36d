/**
 * The one error handler: every failure, deliberate (EmulatorError from the catalogue), from fastify
 * itself (e.g. body too large) or unexpected, becomes the RimuHosting error envelope under
 * `jaxrs_response` with a non-2xx status (rimuhosting-api.md §4.3).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ERROR_ROOT_KEY, type ErrorInfo } from "../../contract/index.js";
import { EmulatorError, emuError } from "../errors.js";
import { errorEnvelope } from "../wire/envelope.js";
import { dropConnection } from "./drop.js";
import { JSON_CONTENT_TYPE, holdAfterCommit } from "./send.js";

function toEmulatorError(error: unknown): EmulatorError {
  if (error instanceof EmulatorError) return error;
  const fe = error as Partial<FastifyError>;
  if (typeof fe.statusCode === "number" && fe.statusCode >= 400 && fe.statusCode < 500) {
    return emuError("EMU_ERR_VALIDATION", {
      status: fe.statusCode,
      message: fe.message ?? "The request was not valid.",
      fieldName: "body",
    });
  }
  return emuError("EMU_ERR_INTERNAL");
}

async function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: EmulatorError,
): Promise<FastifyReply> {
  await holdAfterCommit(request);
  if (request.emu?.dropAfterCommit) return dropConnection(request, reply, request.server.emulator.requestLog);
  const info: ErrorInfo = {
    error_class: error.errorClass,
    error_title: error.code,
    field_name: error.fieldName ?? null,
    human_readable_message: error.message,
    full_error_message: `${error.code}: ${error.message}${error.fieldName ? ` (field: ${error.fieldName})` : ""}`,
  };
  const now = request.server.emulator.ctx.clock.now();
  return reply
    .code(error.status)
    .headers(error.headers)
    .header("content-type", JSON_CONTENT_TYPE)
    .send(JSON.stringify({ [ERROR_ROOT_KEY]: errorEnvelope(now, error.status, info) }));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const emu = toEmulatorError(error);
    if (emu.code === "EMU_ERR_INTERNAL") request.log.error({ err: error }, "emulator internal error");
    return sendError(request, reply, emu);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    return sendError(
      request,
      reply,
      emuError("EMU_ERR_ROUTE_NOT_FOUND", {
        message: `There is no resource ${request.method} ${path}. The API lives under /r (e.g. GET /r/orders).`,
      }),
    );
  });
}
