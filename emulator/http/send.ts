/**
 * Sends a success record: checked against the contract's response schema for the endpoint (so the
 * emulator cannot drift from the contract), under the endpoint's single root key, as JSON.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import * as z from "zod";
import { ENDPOINTS, type EndpointName } from "../../contract/index.js";
import { emuError } from "../errors.js";
import { answer } from "./answer.js";

export type ResponseOf<N extends EndpointName> = z.infer<(typeof ENDPOINTS)[N]["response"]>;

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
  return answer(request, reply, record.status_code, JSON.stringify({ [endpoint.rootKey]: checked.data }));
}
