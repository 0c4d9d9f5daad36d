/** Order lifecycle predicates shared by listing, lookups and billing. */
import type { OrderState } from "../state/schema.js";
import { BILLING_PERIOD_MS } from "./durations.js";

/**
 * An order cancelled with PUT .../cancelled (R3) keeps running until its cancellation date; once the
 * date has passed it is shut down like a deleted one. Called before an order is read.
 */
export function settleExpiredCancellation(order: OrderState, nowMs: number): boolean {
  if (order.removedAtMs !== null || order.cancellationDateMs === null) return false;
  if (order.cancellationDateMs > nowMs) return false;
  order.removedAtMs = order.cancellationDateMs;
  order.runningState = "NOTRUNNING";
  order.deployedState = "REMOVED";
  order.startedAtMs = null;
  return true;
}

/** Active = not removed and not past its cancellation date (R1 `include_inactive=N`). */
export function isActive(order: OrderState, nowMs: number): boolean {
  if (order.removedAtMs !== null) return false;
  return order.cancellationDateMs === null || order.cancellationDateMs > nowMs;
}

/** End of the billing period that contains `nowMs`. */
export function billingPeriodEnd(order: OrderState, nowMs: number): number {
  const elapsed = Math.max(0, nowMs - order.orderDateMs);
  const periods = Math.floor(elapsed / BILLING_PERIOD_MS) + 1;
  return order.orderDateMs + periods * BILLING_PERIOD_MS;
}

/** Fraction of the current billing period still ahead, in [0, 1]. */
export function unusedPeriodFraction(order: OrderState, nowMs: number): number {
  return Math.min(1, Math.max(0, (billingPeriodEnd(order, nowMs) - nowMs) / BILLING_PERIOD_MS));
}
