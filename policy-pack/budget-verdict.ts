/**
 * The budget's verdict as the provider's cost model gives it (provider/impl/cost/verdict.ts and money.ts, docs/cost.md),
 * copied: the pack runs from its own directory with its own node_modules, without the provider.
 * test/cost/three-judges.test.ts runs this copy, the provider's cost model and the bill through one table of cases
 * and fails when they disagree.
 *
 * - The totals start from what the VPSs judged are billed now, and each moves to its fee after its change.
 * - The run's increase adds what each VPS adds: a new VPS its fee, a growing change its growth; a change that lowers
 *   a fee adds nothing.
 * - Limits are compared in whole cents, against the limits rounded to cents.
 * - A VPS fails the budget only when its own change adds and the totals are then over a limit: a run that lowers or
 *   keeps the total (deletes, shrinks, no change) is never blocked, even over budget.
 * - A fee that is not known is never counted as $0: with a limit set, the run cannot be judged.
 * - A VPS the run deletes counts at its fee now, before and after (provider/impl/cost/fee.ts, "deleted"): the budget
 *   judges the run's highest point, and the engine deletes after the run's orders and changes.
 */

/** A price as the budget counts it: whole US cents, or why it cannot be counted. */
export type Priced = { cents: number } | { why: string };

/** Whole cents of an amount. */
export const cents = (amount: number): number => Math.round(amount * 100);

/** "$12.50"; "-$3.00" below zero. */
export const dollars = (amountCents: number): string =>
  `${amountCents < 0 ? "-" : ""}$${(Math.abs(amountCents) / 100).toFixed(2)}`;

/** One VPS as the budget counts it. */
export interface VpsFee {
  name: string;
  /** Billed now, in cents; undefined when it is not billed now (a new VPS). */
  nowCents?: number;
  /** After this run's change. */
  after: Priced;
}

/** A VPS the run deletes, as the budget counts it (fee.ts's "deleted": billed until the delete is made). */
export function deletedFee(name: string, nowUsd: number | undefined): VpsFee {
  if (nowUsd === undefined) return { name, after: { why: "its state records no fee" } };
  return { name, nowCents: cents(nowUsd), after: { cents: cents(nowUsd) } };
}

/** What one VPS adds to the run's increase, in cents (0 for no change or a shrink); undefined when not known. */
export function addsOf(fee: VpsFee): number | undefined {
  if (!("cents" in fee.after)) return undefined;
  return Math.max(0, fee.after.cents - (fee.nowCents ?? 0));
}

export interface Adder {
  name: string;
  addsCents: number;
  nowCents?: number;
  afterCents: number;
}

export interface BudgetTotals {
  count: number;
  beforeCents: number;
  afterCents: number;
  increaseCents: number;
  adders: Adder[];
  unknown: { name: string; why: string }[];
}

export function totalsOf(billedNowCents: number, fees: readonly VpsFee[]): BudgetTotals {
  let afterCents = billedNowCents;
  const adders: Adder[] = [];
  const unknown: BudgetTotals["unknown"] = [];
  for (const fee of fees) {
    if (!("cents" in fee.after)) {
      unknown.push({ name: fee.name, why: fee.after.why });
      continue;
    }
    afterCents += fee.after.cents - (fee.nowCents ?? 0);
    const addsCents = addsOf(fee) ?? 0;
    if (addsCents > 0)
      adders.push({ name: fee.name, addsCents, nowCents: fee.nowCents, afterCents: fee.after.cents });
  }
  adders.sort((a, b) => b.addsCents - a.addsCents);
  const increaseCents = adders.reduce((sum, adder) => sum + adder.addsCents, 0);
  return { count: fees.length, beforeCents: billedNowCents, afterCents, increaseCents, adders, unknown };
}

/**
 * The largest limit accepted, in USD a month: the provider's MAX_BUDGET_USD (provider/impl/cost/setting.ts; the
 * names test holds them equal). Above it a typo is likelier than a budget, and JSON reads 401 digits as Infinity.
 */
export const MAX_BUDGET_USD = 1_000_000_000;

/** The limits, in USD a month (undefined: no limit). */
export interface Limits {
  monthlyBudgetUsd?: number;
  maxMonthlyIncreaseUsd?: number;
}
export type Limit = keyof Limits;

export function limitsPassed(limits: Limits, totals: BudgetTotals): Limit[] {
  const passed: Limit[] = [];
  if (limits.monthlyBudgetUsd !== undefined && totals.afterCents > cents(limits.monthlyBudgetUsd))
    passed.push("monthlyBudgetUsd");
  if (
    limits.maxMonthlyIncreaseUsd !== undefined &&
    totals.increaseCents > cents(limits.maxMonthlyIncreaseUsd)
  )
    passed.push("maxMonthlyIncreaseUsd");
  return passed;
}

export type Judgement = "none" | "fits" | "over" | "unknown";

export function judgementOf(limits: Limits, totals: BudgetTotals, fee: VpsFee): Judgement {
  if (limits.monthlyBudgetUsd === undefined && limits.maxMonthlyIncreaseUsd === undefined) return "none";
  const adds = addsOf(fee);
  if (adds === undefined) return "unknown";
  return adds > 0 && limitsPassed(limits, totals).length > 0 ? "over" : "fits";
}

export interface RunVerdict {
  judgement: Judgement;
  totals: BudgetTotals;
  passed: Limit[];
  blocked: string[];
}

const WORST: readonly Judgement[] = ["none", "fits", "over", "unknown"];

export function verdictOf(limits: Limits, billedNowCents: number, fees: readonly VpsFee[]): RunVerdict {
  const totals = totalsOf(billedNowCents, fees);
  const limited = limits.monthlyBudgetUsd !== undefined || limits.maxMonthlyIncreaseUsd !== undefined;
  let judgement: Judgement = limited ? "fits" : "none";
  const blocked: string[] = [];
  for (const fee of fees) {
    const one = judgementOf(limits, totals, fee);
    if (one === "over" || one === "unknown") blocked.push(fee.name);
    if (WORST.indexOf(one) > WORST.indexOf(judgement)) judgement = one;
  }
  return { judgement, totals, passed: limitsPassed(limits, totals), blocked };
}
