/**
 * The table of bad and risky inputs and changes (issue 18): each refused case must fail the preview (and so
 * `pulumi up`) with its code and the input or setting it names, placing or changing nothing; each risky case must
 * pass, and the preview must say what it does (the disk is erased, the VPS restarts, the IP changes, the price) on
 * the resource itself. New cases are one row in the file of their kind (refused-order-cases.ts,
 * refused-input-cases.ts, refused-change-cases.ts, risky-cases.ts); what they run against is preview-fixtures.ts.
 * Every refused row's checks run in-process (test/provider/impl/refused-rows.test.ts); preview-cases.test.ts takes
 * the REFUSED_THROUGH_CLI rows and every risky one through the real CLI.
 */

import type { RefusedCase, RiskyCase } from "./preview-case-kinds";
import { BASELINE, type Fixtures } from "./preview-fixtures";
import { REFUSED_CHANGES } from "./refused-change-cases";
import { REFUSED_INPUTS } from "./refused-input-cases";
import { REFUSED_ORDERS } from "./refused-order-cases";
import { RISKY } from "./risky-cases";

/** Every refused row, new VPSs first, in the order REFUSED_THROUGH_CLI picks its first row of a code from. */
export const REFUSED: RefusedCase[] = [...REFUSED_ORDERS, ...REFUSED_INPUTS, ...REFUSED_CHANGES];

/**
 * The refused rows preview-cases.test.ts also takes through the real CLI, each one `pulumi up` of its own: every row
 * of a stack setting, every row whose VPSs add up on a host, and the first row of each code no such row shows (for
 * new VPSs or for changes to existing ones: the first in the table). What the engine does with a check that fails
 * (stops the preview there, prints the line on the resource, orders nothing) is the same for every row of a kind;
 * refused-rows.test.ts checks every other row's inputs in-process, the way the engine checks them. One row per code
 * in all, not one for new VPSs and one for changes (CPU, issue 67): the code and its words are the check's, shown
 * in-process for every row; through the CLI each lane has its rows (new: memory-below-min, adopt-missing; changes:
 * existing-shrink) beside the ones whose VPSs add up.
 */
const throughCliAlways = (c: RefusedCase) =>
  c.config !== undefined || c.alongside !== undefined || c.behind !== undefined;
export const REFUSED_THROUGH_CLI: RefusedCase[] = REFUSED.filter(
  (c, i) =>
    throughCliAlways(c) ||
    (!REFUSED.some((other) => throughCliAlways(other) && !other.config && other.code === c.code) &&
      REFUSED.findIndex((other) => !throughCliAlways(other) && other.code === c.code) === i),
);

/** The program of a case: its VPSs by name, records built from some of their IPs, VPSs inside a component. */
export interface CaseProgram {
  vpss: Record<string, Record<string, unknown>>;
  dependents?: string[];
  group?: Record<string, Record<string, unknown>>;
}

/** The records built from an IP (the move's). */
export const DEPENDENTS = RISKY.filter((c) => c.unknownIp).map((c) => c.base!);

/**
 * A case's program: a new VPS alone (on a stack of its own), or the `baseline` with the case's change, the changed
 * VPS first (the engine checks in program order, and stops at the first failure); in both, the case's `alongside`
 * VPSs come just before its own and its `behind` ones just after.
 */
export function caseSpec(
  c: RefusedCase | RiskyCase,
  name: string,
  f: Fixtures,
  baseline: Record<string, Record<string, unknown>> = BASELINE,
): CaseProgram {
  const ahead = "alongside" in c ? (c.alongside ?? {}) : {};
  const behind = "behind" in c ? (c.behind ?? {}) : {};
  if (c.on === "new") return { vpss: { ...ahead, [name]: c.args(f), ...behind } };
  const changes: Record<string, Record<string, unknown>> = { ...ahead, [c.base!]: c.args(f), ...behind };
  const order = [...new Set([...Object.keys(changes), ...Object.keys(baseline)])];
  return {
    vpss: Object.fromEntries(order.map((vps) => [vps, { ...baseline[vps], ...changes[vps] }])),
    dependents: DEPENDENTS.filter((d) => d in baseline),
  };
}

export const refusedName = (c: RefusedCase) => (c.on === "new" ? `n-${c.id}` : c.base!);
export const riskyName = (c: RiskyCase) => (c.on === "new" ? `r-${c.id}` : c.base!);
