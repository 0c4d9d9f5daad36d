/**
 * The bill's figures, computed once for both renderings (markdown.ts for the comment, bill-json.ts for `--format
 * json`): a fee's amount, whether a VPS is priced, the stack's monthly change over the priced VPSs and its
 * percentage, and a column's total of the fees known. A fee not priced is never counted as $0: it is left out of
 * the sums and named instead.
 */
import type { Fee, VpsLine } from "./bill.js";
import type { Change } from "./judge.js";

/** A fee in cents: none counts as 0 (before a create, after a delete); a fee not priced is undefined. */
export const amountOf = (fee: Fee): number | undefined =>
  "cents" in fee ? fee.cents : "none" in fee ? 0 : undefined;

/** Whether a VPS's fees are both known (deletes and creates count their "—" as nothing). */
export const priced = (v: Pick<VpsLine, "before" | "after">): boolean =>
  amountOf(v.before) !== undefined && amountOf(v.after) !== undefined;

/** A VPS's monthly change, or undefined when one of its fees is not priced. */
export const changeCents = (v: Pick<VpsLine, "before" | "after">): number | undefined =>
  priced(v) ? amountOf(v.after)! - amountOf(v.before)! : undefined;

/** The stack's monthly change over the priced VPSs, and the VPSs not priced (judge.ts's thresholds read it). */
export function changeOf(bill: { vpss: readonly VpsLine[] }): Change {
  const change: Change = { beforeCents: 0, afterCents: 0, unpriced: [] };
  for (const v of bill.vpss) {
    if (!priced(v)) change.unpriced.push(v.name);
    else {
      change.beforeCents += amountOf(v.before)!;
      change.afterCents += amountOf(v.after)!;
    }
  }
  return change;
}

/** The change as a percentage of the fees before, rounded as the headline shows it; undefined from nothing. */
export function percentOf(change: Change): number | undefined {
  if (change.beforeCents <= 0) return undefined;
  const ratio = ((change.afterCents - change.beforeCents) * 100) / change.beforeCents;
  return Math.abs(ratio) >= 10 ? Math.round(ratio) : Math.round(ratio * 10) / 10;
}

/** A column's total: the sum of the fees known, and whether every fee of the column is known. */
export function columnSum(fees: readonly Fee[]): { cents: number; complete: boolean; anyKnown: boolean } {
  const known = fees.filter((f) => !("unknown" in f));
  return {
    cents: known.reduce((total, f) => total + (amountOf(f) ?? 0), 0),
    complete: known.length === fees.length,
    anyKnown: known.some((f) => "cents" in f),
  };
}
