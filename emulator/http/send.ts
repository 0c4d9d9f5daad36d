/**
 * Sends a success: the domain's outcome inside the envelope, under the endpoint's single root key,
 * as JSON. With `validateResponses` (on in the emulator's tests) the record is first checked against
 * the contract's response schema for the endpoint, so the emulator cannot drift from the contract
 * unnoticed.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import * as z from "zod";
import { ENDPOINTS, type EndpointName } from "../../contract/index.js";
import type { Outcome } from "../domain/outcome.js";
import { emuError } from "../errors.js";
import { okEnvelope } from "../wire/envelope.js";
import { answer } from "./answer.js";

function requireContract(name: EndpointName, record: unknown): void {
  const checked = ENDPOINTS[name].response.safeParse(record);
  if (!checked.success) {
    throw emuError("EMU_ERR_INTERNAL", {
      message: `The emulator built a ${name} response that breaks the contract: ${z.prettifyError(checked.error)}`,
    });
  }
}

export async function sendRecord<N extends EndpointName>(
  request: FastifyRequest,
  reply: FastifyReply,
  name: N,
  outcome: Outcome<N>,
): Promise<FastifyReply> {
  const { message, ...fields } = outcome as { message: string | null };
  const record = { ...okEnvelope(request.server.emulator.ctx.clock.now(), message), ...fields };
  if (request.server.emulator.options.validateResponses) requireContract(name, record);
  return answer(request, reply, 200, JSON.stringify({ [ENDPOINTS[name].rootKey]: record }));
}

/** Sends a body already rendered (wire/render.ts), validated the same way when asked. */
export async function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  name: EndpointName,
  body: readonly Buffer[],
): Promise<FastifyReply> {
  if (request.server.emulator.options.validateResponses) {
    const parsed = JSON.parse(Buffer.concat(body).toString("utf8")) as Record<string, unknown>;
    requireContract(name, parsed[ENDPOINTS[name].rootKey]);
  }
  return answer(request, reply, 200, body);
}
