/** RunningEmulator.snapshot(): every order of every account, for assertions on the final state. */
import type { EmulatorContext } from "./context.js";
import { settleExpiredCancellation } from "./lifecycle.js";

export interface OrderSnapshot {
  account: string;
  orderOid: number;
  domainName: string;
  runningState: string;
  /** A cancellation date is set (deleted with R6, or scheduled with R3). */
  cancelled: boolean;
  serverType: string;
  /** What the order is billed a month, in USD. */
  monthlyFeeUsd: number;
  /** Reverse DNS names by IP (no GET of the API reports them). */
  ptr: Record<string, string>;
  /** Root's authorized_keys as injected at the last install, or null. */
  rootAuthorizedKeys: string | null;
}

export function snapshotOrders(ctx: EmulatorContext): OrderSnapshot[] {
  const now = ctx.clock.now();
  return ctx.store.state.orders.map((order) => {
    if (settleExpiredCancellation(order, now)) ctx.store.changed(order);
    return {
      account: order.account,
      orderOid: order.orderOid,
      domainName: order.domainName,
      runningState: order.runningState,
      cancelled: order.cancellationDateMs !== null,
      serverType: order.serverType,
      monthlyFeeUsd: order.monthlyFeeUsd,
      ptr: { ...order.ptr },
      rootAuthorizedKeys: order.rootAuthorizedKeys,
    };
  });
}
