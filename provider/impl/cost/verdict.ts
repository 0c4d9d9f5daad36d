/**
 * The budget's verdict (docs/cost.md), the one rule all three judges apply: the provider's check (budget.ts), the
 * bill (provider/bill/bill.ts) and the policy pack (policy-pack/budget-verdict.ts imports this file through
 * policy-pack/cost, a link to this folder; its release tarball holds a copy made when it is packed).
 *
 * - The totals start from what the scope is billed now (the provider: every active order of the account; the bill
 *   and the pack: the stack's VPSs), and each VPS judged moves from its fee now to its fee after its change.
 * - The run's increase adds what each VPS adds: a new VPS its fee, a growing change its growth; a change that lowers
 *   a fee adds nothing (shrinks are not netted against maxMonthlyIncreaseUsd).
 * - Limits are compared in whole cents, against the budget rounded to cents.
 * - A VPS fails the budget only when its own change adds to the monthly fee and the totals are then over a limit:
 *   a run that lowers or keeps the total (deletes, shrinks, no change) is never blocked, even over budget.
 * - "Then" is at that VPS's turn: the totals of the VPSs judged before it, in the order the preview checks them, and
 *   its own change. The provider's check cannot wait for the VPSs after it, so every judge counts as it does: a
 *   growing change judged before the shrink that makes room for it fails, and so does one that adds while the
 *   account is still over its budget from before the run (issue 67, I5: one verdict, whatever each judge sees).
 * - A price that is not known (an input unknown in a preview, a failed quote, another currency) is never counted
 *   as $0: with a limit set, it fails in `enforce` mode and warns in `warn` mode.
 *
 * Owns: the totals and the verdict. Pure: imports only ./money.ts.
 */
import { cents, type Priced } from "./money.js";

/** One VPS as the budget counts it. */
export interface VpsFee {
  /** The resource's name in the program, for messages. */
  name: string;
  /** Billed now, in cents; undefined when it is not billed now (a new VPS). */
  nowCents?: number;
  /** After this run's change: cents, or why not known. */
  after: Priced;
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
  /** How many VPSs were judged. */
  count: number;
  /** The scope's fees now. */
  beforeCents: number;
  /** After the changes judged (a VPS whose fee after is not known counts its fee now, and is in `unknown`). */
  afterCents: number;
  /** New VPSs and growing changes; shrinks add nothing. */
  increaseCents: number;
  /** The VPSs that add the most first. */
  adders: Adder[];
  /** The VPSs whose fee after is not known, and why. */
  unknown: { name: string; why: string }[];
}

/**
 * The totals: `billedNowCents` is what the scope is billed now (it includes the fee now of each judged VPS that is
 * billed now), `fees` the VPSs judged.
 */
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

/** The limits, in USD a month (undefined: no limit). */
export interface Limits {
  monthlyBudgetUsd?: number;
  maxMonthlyIncreaseUsd?: number;
}
export type Limit = keyof Limits;

/** The limits the totals are over (empty when none), in cents against the limits rounded to cents. */
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

/**
 * What the budget says of one VPS judged with the totals: `unknown` (its fee after cannot be counted while a limit
 * is set), `over` (its change adds and the totals are over a limit), `fits`, or `none` (no limit is set).
 */
export type Judgement = "none" | "fits" | "over" | "unknown";

export function judgementOf(limits: Limits, totals: BudgetTotals, fee: VpsFee): Judgement {
  if (limits.monthlyBudgetUsd === undefined && limits.maxMonthlyIncreaseUsd === undefined) return "none";
  const adds = addsOf(fee);
  if (adds === undefined) return "unknown";
  return adds > 0 && limitsPassed(limits, totals).length > 0 ? "over" : "fits";
}

/** The verdict of a whole run (the bill, the pack, the table of cases): its figures, and the worst judgement. */
export interface RunVerdict {
  judgement: Judgement;
  /** The run's totals once every VPS is judged. */
  totals: BudgetTotals;
  /** The limits those final totals are over. */
  passed: Limit[];
  /** The VPSs the budget fails (over) or cannot count (unknown). */
  blocked: string[];
  /**
   * The first VPS the budget fails as over, with the totals at its turn (those of the VPSs before it and its own
   * change) and the limits they are over: a run can end within its limits and still fail at such a VPS.
   */
  firstOver?: { name: string; totals: BudgetTotals; passed: Limit[] };
}

const WORST: readonly Judgement[] = ["none", "fits", "over", "unknown"];

/**
 * The verdict of a run whose VPSs are judged in the order of `fees` (the order the preview checks them): each with
 * the totals at its turn, as the provider's check judges each with the totals so far (cost/ledger.ts).
 */
export function verdictOf(limits: Limits, billedNowCents: number, fees: readonly VpsFee[]): RunVerdict {
  const limited = limits.monthlyBudgetUsd !== undefined || limits.maxMonthlyIncreaseUsd !== undefined;
  let judgement: Judgement = limited ? "fits" : "none";
  const blocked: string[] = [];
  let firstOver: RunVerdict["firstOver"];
  for (let turn = 0; turn < fees.length; turn++) {
    const fee = fees[turn]!;
    const soFar = totalsOf(billedNowCents, fees.slice(0, turn + 1));
    const one = judgementOf(limits, soFar, fee);
    if (one === "over" || one === "unknown") blocked.push(fee.name);
    if (one === "over") firstOver ??= { name: fee.name, totals: soFar, passed: limitsPassed(limits, soFar) };
    if (WORST.indexOf(one) > WORST.indexOf(judgement)) judgement = one;
  }
  const totals = totalsOf(billedNowCents, fees);
  return {
    judgement,
    totals,
    passed: limitsPassed(limits, totals),
    blocked,
    ...(firstOver ? { firstOver } : {}),
  };
}
