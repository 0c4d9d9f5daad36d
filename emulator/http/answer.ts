/**
 * The one way an answer leaves the emulator. In order: an armed "delay-after-commit" fault holds
 * it, an armed "drop-after-commit" fault destroys the socket instead, and then it waits until every
 * change so far is in the state file, so a client never sees a success (or any state) that a
 * kill -9 could take back.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * Ends a request by destroying its socket without an answer (the "drop" faults); with `reset`, by a TCP reset (a
 * chaos rule's drop: the client sees ECONNRESET).
 */
export function dropConnection(
  request: FastifyRequest,
  reply: FastifyReply,
  { reset = false }: { reset?: boolean } = {},
): FastifyReply {
  if (request.emu) request.emu.dropped = true;
  reply.hijack();
  const socket = request.raw.socket;
  if (reset) socket?.resetAndDestroy();
  else socket?.destroy();
  return reply;
}

/** Whether the client has gone (closed or reset its connection) before the answer. */
export function clientGone(request: FastifyRequest): boolean {
  // Not request.raw.destroyed: a request stream is destroyed as soon as its body has been read.
  return request.raw.socket?.destroyed === true;
}

/** Applies the after-commit faults; true when the request was dropped or its client has gone. */
export async function afterCommit(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const holdMs = request.emu?.delayAfterCommitMs ?? 0;
  if (holdMs > 0) await request.server.emulator.ctx.clock.sleep(holdMs);
  const answerTurn = request.server.emulator.answerTurn;
  if (answerTurn && request.emu?.endpoint) await answerTurn(request.emu.endpoint, request);
  if (request.emu?.dropAfterCommit) {
    dropConnection(request, reply);
    return true;
  }
  return clientGone(request);
}

/**
 * Sends a JSON body (already serialized) once the state is durable. A body in parts (a cached
 * listing and its fresh envelope) is written straight to the socket, so a megabyte that is already
 * rendered is neither copied nor re-encoded.
 */
export async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: string | readonly Buffer[],
): Promise<FastifyReply> {
  if (await afterCommit(request, reply)) return reply;
  await request.server.emulator.ctx.store.durable();
  if (typeof body === "string")
    return reply.code(status).header("content-type", JSON_CONTENT_TYPE).send(body);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(status, {
    "content-type": JSON_CONTENT_TYPE,
    "content-length": body.reduce((sum, part) => sum + part.length, 0),
  });
  res.cork();
  for (const part of body) res.write(part);
  res.end();
  return reply;
}
