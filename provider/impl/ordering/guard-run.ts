/**
 * What the budget's guard at ordering keeps of one run (run-context.ts), and the run's totals at the moment of a
 * judged change (docs/cost.md, "What a budget limits, and when"). order-guard.ts judges and applies; this holds.
 *
 * Owns: the guard's piece of a run's state, and the arithmetic of its totals (the cost model's, cost/verdict.ts).
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { AccountView } from "../account/account-view.js";
import { accountCentsOf } from "../budget/budget.js";
import { totalsOf, type BudgetTotals, type Judgement, type VpsFee } from "../cost/verdict.js";
import { runState, type RunContext } from "../engine/run-context.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";

/** What this guard keeps of one run (run-context.ts). */
const GUARD = runState("the budget guard's record of what the run ordered and changed", (context) => ({
  /** The run it is of: its settings, where its lines go, what a test tuned. */
  context,
  /**
   * What this process did in this run, by what it did (in the order first done): ordered → web-1, web-2. Sets: a
   * fleet's run notes each of its N VPSs, and a list searched per note grew as the square of N.
   */
  done: new Map<string, Set<string>>(),
  /**
   * The changes this process applied in this run (new VPSs, resizes, moves, replacements, adoptions), by resource,
   * each as the cost model counts a VPS (cost/verdict.ts): the listing already holds them.
   */
  applied: new Map<string, VpsFee>(),
  /**
   * Judged changes whose call has not returned yet, by resource: each counted once, from this record, whatever a
   * listing read meanwhile shows of it (the order placed or not yet, the old fee or the new).
   */
  inFlight: new Map<string, InFlight>(),
  /**
   * Resources whose create or update has run (applied, failed or found done): the ledger's plan of them is no
   * longer pending (the listing shows what they did).
   */
  settled: new Set<string>(),
  /**
   * Orders this run replaced and has not cancelled yet, by order number: counted once, as the fee now of their
   * replacement (the run cancels them after it), never beside it.
   */
  replaced: new Map<number, AboutOrder>(),
  /**
   * A change of this run was refused on the budget (the guard's refusal, a withdrawal, the native plugin's check in
   * `pulumi up`): the run fails, so the engine never cancels the orders it replaced (replaced-orders.ts).
   */
  failing: false,
  /**
   * Orders this run cancelled before ordering their replacement (`deleteBeforeReplace`), by resource: until the
   * replacement is ordered (or has failed) each still counts at its fee, and its replacement replaces it, counted
   * once, as a replacement ordered before the old order is cancelled is (docs/cost.md).
   */
  cancelledFirst: new Map<string, { oid: number; cents: number }>(),
  /**
   * Each verdict given, in order, with the model's totals: the guard's figures, which test/cost/three-judges.test.ts
   * compares with the preview's, the bill's and the pack's (testing.ts's guardVerdicts).
   */
  verdicts: [] as { name: string; judgement: Judgement; totals: BudgetTotals }[],
  /**
   * Resources whose check planned a replacement: the recorded inputs of the VPS being replaced, whose order
   * liveOrderOf finds as the look-ahead does (the recorded order id first: an imported VPS carries no nonce).
   */
  replacing: new Map<string, VpsInputs>(),
  /** The tail of the lock: each judgement waits for the one before it (not for its call: `inFlight`). */
  lock: Promise.resolve(),
}));

/**
 * A judged change in flight: its fee as the cost model counts it, and which listed order it stands for. That order,
 * when listed, is left out of the account's total and the change counted at its fee now (`inPlaceOfCents`: a
 * resize's or move's order) plus its change; a new order's is left out whether or not it is listed yet (0).
 */
export interface InFlight {
  fee: VpsFee;
  holds: (order: AboutOrder) => boolean;
  inPlaceOfCents: number;
  /**
   * What it is billed once it has landed, in place of the order it stands for: its fee after (0 when not known: the
   * listing counts it as it shows it). A replacement's order is billed beside the order it replaces until that is
   * cancelled (replaced-orders.ts counts them so; the run's totals count the replaced order once).
   */
  landsCents: number;
  /** A new order (not a change to a listed one). */
  ordering?: true;
}

/** What the guard keeps of `run`: the run's context comes in as an argument from each engine call. */
export type Guard = ReturnType<(typeof GUARD)["make"]>;
export const guardOf = (run: RunContext): Guard => run.get(GUARD);

/**
 * The run's changes in flight (but `except`'s) and `orders` less the listed orders they stand for: each change counted
 * once, from its record, whether or not the listing shows it yet (in-flight.ts). The one place that decides it, for the
 * run's totals and for the account a failing run's replaced orders are judged on (replaced-orders.ts).
 */
export function inFlightOn(run: Guard, orders: readonly AboutOrder[], except?: string) {
  const changes = [...run.inFlight].filter(([key]) => key !== except).map(([, change]) => change);
  return { listed: orders.filter((order) => !changes.some((change) => change.holds(order))), changes };
}

/** The change a cost-model fee makes to a total: its fee after less its fee now (0 when not known). */
const deltaOf = (fee: VpsFee): number => ("cents" in fee.after ? fee.after.cents - (fee.nowCents ?? 0) : 0);

/**
 * The run's totals at the moment of a judged change, by the one semantics (docs/cost.md, "What a budget limits"):
 * the account's active orders as listed now, each order this run replaced counted once (as its replacement's fee
 * now, until the run cancels it), moved by the run's changes: those applied (the listing holds them), those in
 * flight (from their record), the shrinks it checked and has not made yet (the ledger's pending plan), and this
 * one. Never more than the preview's final total, from the live listing: a change a passing preview planned is never
 * refused for the order the engine runs the steps in.
 */
export function runTotals(
  run: Guard,
  view: AccountView,
  orders: readonly AboutOrder[],
  judging?: { resource: string; fee: VpsFee },
  /** Fees counted as if checked (previewed-wait.ts asks whether they would make `judging` pass; never counted so). */
  supposing: readonly VpsFee[] = [],
) {
  const own = view.fees.checked();
  // The other providers' changes on the account, each counted once against this listing (shared-plan.ts).
  const others = view.sharedPlan?.othersOn(new Set([...own.keys(), ...run.settled]), orders);
  // Each order a run of this command replaced counts once, as its replacement, until cancelled: left out of the
  // listing once the replacement is listed (a listing read before it still counts the replaced order in its place).
  const replacedElsewhere = view.sharedPlan?.replacedByOthers(orders) ?? new Set<number>();
  const counted = orders.filter(
    (order) =>
      !run.replaced.has(order.order_oid) &&
      !replacedElsewhere.has(order.order_oid) &&
      !others?.leftOut.has(order.order_oid),
  );
  const resource = judging?.resource;
  // The run's changes in flight count as their record says, never as the listing shows them (counted once).
  const { listed: notFlying, changes: inFlight } = inFlightOn(run, counted, resource);
  const account = accountCentsOf(notFlying);
  const applied = [...run.applied].filter(([key]) => key !== resource).map(([, done]) => done);
  const open = (key: string) =>
    key !== resource && !run.applied.has(key) && !run.settled.has(key) && !run.inFlight.has(key);
  // The run's planned shrinks not made yet count, so a create and a shrink the preview passed go through in either
  // order; its planned growth not made yet is judged when it is made (it cannot make this change pass). Also those
  // the other providers of the command checked (shared-plan.ts), as the preview counted them; and every change they
  // made that this listing, read before it, does not show.
  const pending = [
    ...[...own].filter(([key]) => open(key)).map(([, planned]) => planned),
    ...(others?.planned ?? []),
  ].filter((planned) => deltaOf(planned) < 0);
  // An order cancelled first for its replacement still counts until the replacement is ordered: here when the
  // listing no longer shows it (a listing read while its delete was under way still does, and counts it there).
  const listed = new Set(orders.map((order) => order.order_oid));
  const cancelledFirst = [...run.cancelledFirst]
    .filter(([, order]) => !listed.has(order.oid))
    .filter(([key]) => !run.applied.has(key) && (key === resource || !run.settled.has(key)))
    .reduce((sum, [, order]) => sum + order.cents, 0);
  const flying = inFlight.reduce((sum, change) => sum + change.inPlaceOfCents, 0);
  const base =
    account.cents +
    flying +
    cancelledFirst +
    (others?.addCents ?? 0) -
    applied.reduce((sum, done) => sum + deltaOf(done), 0);
  const made = others?.made ?? [];
  const fees = [
    ...applied,
    ...made,
    ...inFlight.map((change) => change.fee),
    ...pending,
    ...supposing,
    ...(judging ? [judging.fee] : []),
  ];
  return { counted, account, totals: totalsOf(base, fees) };
}
