/** Ends a request by destroying its socket without an answer (the "drop" faults). */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RequestLog } from "../request-log.js";

export function dropConnection(request: FastifyRequest, reply: FastifyReply, log: RequestLog): FastifyReply {
  if (!request.emu.logged) {
    log.push({
      method: request.method,
      route: request.emu.endpoint ?? "unknown",
      status: 0,
      account: request.emu.account?.name,
    });
    request.emu.logged = true;
  }
  reply.hijack();
  request.raw.socket?.destroy();
  return reply;
}
