/**
 * Sends a success record: checked against the contract's response schema for the endpoint (so the
 * emulator cannot drift from the contract), under the endpoint's single root key, as JSON.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import * as z from "zod";
import { ENDPOINTS, type EndpointName } from "../../contract/index.js";
import { emuError } from "../errors.js";
import { dropConnection } from "./drop.js";

export type ResponseOf<N extends EndpointName> = z.infer<(typeof ENDPOINTS)[N]["response"]>;

/** Applies an armed "delay-after-commit" fault: the work is done, the answer waits. */
export async function holdAfterCommit(request: FastifyRequest): Promise<void> {
  const ms = request.emu?.delayAfterCommitMs ?? 0;
  if (ms > 0) await request.server.emulator.ctx.clock.sleep(ms);
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export async function sendRecord<N extends EndpointName>(
  request: FastifyRequest,
  reply: FastifyReply,
  name: N,
  record: ResponseOf<N>,
): Promise<FastifyReply> {
  const endpoint = ENDPOINTS[name];
  const checked = endpoint.response.safeParse(record);
  if (!checked.success) {
    throw emuError("EMU_ERR_INTERNAL", {
      message: `The emulator built a ${name} response that breaks the contract: ${z.prettifyError(checked.error)}`,
    });
  }
  await holdAfterCommit(request);
  if (request.emu.dropAfterCommit) return dropConnection(request, reply, request.server.emulator.requestLog);
  return reply
    .code(record.status_code)
    .header("content-type", JSON_CONTENT_TYPE)
    .send(JSON.stringify({ [endpoint.rootKey]: checked.data }));
}
