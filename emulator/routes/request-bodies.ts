/**
 * The body each RimuHosting route takes, as the contract's zod schema: the routes validate with these (parseBody),
 * and the OpenAPI description (emulator/rimuhosting-openapi.ts) is written from them, so the two cannot disagree.
 */
import * as z from "zod";
import {
  type EndpointName,
  NewVpsRequest,
  RunningStateChangeRequest,
  RunningVpsDataRequest,
  VpsMoveRequest,
} from "../../contract/index.js";

/** R12's body (a form field, or JSON): the name, empty to remove it (ptr.ts reads it). */
export const ReverseDnsBody = z.object({
  domain_name: z.string().meta({ description: "The reverse DNS name; empty removes it." }),
});

export const REQUEST_BODIES = {
  createVps: NewVpsRequest,
  moveVps: VpsMoveRequest,
  changeParameters: RunningVpsDataRequest,
  reinstallVps: NewVpsRequest,
  setRunningState: RunningStateChangeRequest,
  setReverseDns: ReverseDnsBody,
  quoteNewVm: NewVpsRequest,
} as const satisfies Partial<Record<EndpointName, z.ZodObject>>;
