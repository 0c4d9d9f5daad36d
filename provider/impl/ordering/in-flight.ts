/**
 * The judged changes of a run in flight (docs/cost.md, "One at a time"): judged one at a time, each once passed is
 * counted from the guard's record (guard-run.ts's `inFlight`) until its call returns, so the calls of a run's orders
 * and changes run at once and a listing read meanwhile, with or without them, never counts one twice or not at all.
 *
 * A change lands (its record moves from in flight to applied) in the lock too, so a judgement's listing, read before,
 * never meets a record that says the listing shows it.
 *
 * Owns: the lock of the judgements, and when a change is in flight. What is judged is order-guard.ts's.
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { VpsFee } from "../cost/verdict.js";
import type { Guard } from "./guard-run.js";

/** Runs `fn` alone among the judgements of this process (not their calls). */
export async function exclusive<T>(run: Guard, fn: () => Promise<T>): Promise<T> {
  const before = run.lock;
  let release!: () => void;
  run.lock = new Promise((resolve) => (release = resolve));
  await before;
  try {
    return await fn();
  } finally {
    release();
  }
}

/** The listed order a change stands for while in flight: its new order, or the order it changes (`changes`). */
export interface StandsFor {
  holds: (order: AboutOrder) => boolean;
  changes?: true;
}

/** `resource`'s change, judged at `fee`, is in flight from now on: call before its call starts, in the lock. */
export function takeOff(run: Guard, resource: string, fee: VpsFee, stands: StandsFor): void {
  // A fee not known (`warn` goes on) is left to the listing: the model counts its change as 0 (cost/verdict.ts).
  const known = "cents" in fee.after && (!stands.changes || fee.nowCents !== undefined);
  run.inFlight.set(resource, {
    fee,
    holds: known ? stands.holds : () => false,
    // A resize's or move's order counts at its fee now from here, in the listing's place; a new order at nothing.
    inPlaceOfCents: stands.changes && known ? fee.nowCents! : 0,
    landsCents: known && "cents" in fee.after ? fee.after.cents : 0,
    ...(stands.changes ? {} : { ordering: true as const }),
  });
}

/**
 * How many active orders the account has for the refusal's words, each new order in flight counted as if listed,
 * whether or not `counted` (the listing) shows it yet: the same words whatever the listing's timing.
 */
export function orderCountOf(run: Guard, counted: readonly AboutOrder[]): number {
  const ordering = [...run.inFlight.values()].filter((change) => change.ordering);
  return counted.filter((order) => !ordering.some((change) => change.holds(order))).length + ordering.length;
}

/**
 * `resource`'s call returned: `applied` (the listing holds what it did, counted as the run's applied change), or
 * failed having done nothing, which releases its record: what it did, if anything, the listing shows from now on.
 */
export function land(run: Guard, resource: string, fee: VpsFee, applied: boolean): void {
  run.inFlight.delete(resource);
  if (applied) run.applied.set(resource, fee);
}
