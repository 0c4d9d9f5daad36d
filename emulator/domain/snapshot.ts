/**
 * RunningEmulator.snapshot() and GET /__emulator/snapshot: every order of every account, for assertions on the
 * final state and for the dashboard.
 */
import type { EmulatorContext } from "./context.js";
import { isActive, settleExpiredCancellation } from "./lifecycle.js";

export interface OrderSnapshot {
  account: string;
  orderOid: number;
  domainName: string;
  runningState: string;
  /** A cancellation date is set (deleted with R6, or scheduled with R3). */
  cancelled: boolean;
  /** The cancellation date (ISO 8601), or null; in the future for one scheduled with R3. */
  cancellationDate: string | null;
  /** Listed by R1 without include_inactive: not removed, and not past its cancellation date. */
  active: boolean;
  serverType: string;
  /** The pricing plan, e.g. MIRO1B. */
  planCode: string;
  /** The data centre, e.g. DCDALLAS. */
  dc: string;
  /** The host server's oid; null for a dedicated server. */
  hostOid: string | null;
  /** The primary IP first, then the secondary ones. */
  ips: string[];
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
      cancellationDate:
        order.cancellationDateMs === null ? null : new Date(order.cancellationDateMs).toISOString(),
      active: isActive(order, now),
      serverType: order.serverType,
      planCode: order.planCode,
      dc: order.dc,
      hostOid: order.hostOid,
      ips: [...(order.primaryIp ? [order.primaryIp] : []), ...order.secondaryIps],
      monthlyFeeUsd: order.monthlyFeeUsd,
      ptr: { ...order.ptr },
      rootAuthorizedKeys: order.rootAuthorizedKeys,
    };
  });
}
