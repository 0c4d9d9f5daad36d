/**
 * The Vps outputs that are not inputs: what only the service knows (the order, its addresses, its fee, a cancellation
 * it scheduled). The generator (tools/generate) declares them beside the inputs of vps-fields.ts.
 */
import type { FieldType, OutputRule } from "./vps-field-rules.js";

/** An output that is not an input. */
export interface OutputOnlyRule extends OutputRule {
  type: FieldType;
}

/** The outputs that are not inputs (the Vps class registers them; check() accepts them unset). */
export const VPS_OUTPUT_ONLY_FIELDS = {
  orderOid: {
    type: "integer",
    alwaysSet: true,
    description: "The order oid, a number (the id is the same as a string).",
  },
  slug: {
    type: "string",
    alwaysSet: true,
    description: "The order's path segment in the API, `order-<oid>-<domain>`.",
  },
  primaryIp: { type: "string", alwaysSet: true, description: "Main IPv4 address." },
  secondaryIps: { type: { array: "string" }, alwaysSet: true, description: "Any further IPv4 addresses." },
  monthlyFeeUsd: { type: "number", alwaysSet: true, description: "Monthly fee in USD." },
  // Pulumi never schedules a cancellation (a delete removes the VPS at once), so one here is drift
  // (lifecycle/service-drift.ts). The getOrder data source reports it the same way.
  cancellationDate: {
    type: "string",
    description:
      "When RimuHosting will cancel the order (ISO 8601), set when it was cancelled at the end of its billing " +
      "period outside Pulumi; the VPS runs until then. Unset otherwise.",
  },
  // Not the order's one-line summary: ORDER_FIELDS_NOT_KEPT in vps-outputs.ts says why.
} as const satisfies Record<string, OutputOnlyRule>;
