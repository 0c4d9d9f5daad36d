/**
 * Finding an account's order. Another account's order gets exactly the 404 a missing one gets, so an
 * API key can never learn whether an oid exists elsewhere.
 */
import { emuError } from "../errors.js";
import type { OrderState } from "../state/schema.js";
import type { EmulatorContext } from "./context.js";
import { settleExpiredCancellation } from "./lifecycle.js";

export function getOwnOrder(ctx: EmulatorContext, account: string, orderOid: number): OrderState {
  const order = ctx.store.findOrder(orderOid);
  if (!order || order.account !== account) {
    throw emuError("EMU_ERR_ORDER_NOT_FOUND", {
      message: `No order ${orderOid} was found on your account. List your orders with GET /r/orders;include_inactive=Y.`,
    });
  }
  if (settleExpiredCancellation(order, ctx.clock.now())) ctx.store.changed(order);
  return order;
}

/** For reads of live VPS data (R5, R7): a dedicated server or a removed VPS has none (404). */
export function requireVpsToRead(order: OrderState): void {
  if (order.serverType !== "VPS") {
    throw emuError("EMU_ERR_VPS_NOT_FOUND", {
      message: `Order ${order.orderOid} is a dedicated server; it has no VPS resource.`,
    });
  }
  if (order.removedAtMs !== null) {
    throw emuError("EMU_ERR_VPS_NOT_FOUND", {
      message: `The VPS of order ${order.orderOid} was shut down and the order cancelled; the order itself is still readable at GET /r/orders/order-${order.orderOid}-x.`,
    });
  }
}

/** For changes to a VPS (R6, R8–R12): a dedicated server has no VPS (404); a cancelled order is a conflict (409). */
export function requireVpsToChange(order: OrderState): void {
  if (order.serverType !== "VPS") {
    throw emuError("EMU_ERR_VPS_NOT_FOUND", {
      message: `Order ${order.orderOid} is a dedicated server; it has no VPS resource.`,
    });
  }
  requireNotRemoved(order);
}

export function requireNotRemoved(order: OrderState): void {
  if (order.removedAtMs !== null) {
    throw emuError("EMU_ERR_ORDER_CANCELLED", {
      message: `Order ${order.orderOid} (${order.domainName}) has been cancelled and its server removed; it cannot be changed. Contact support to un-cancel it.`,
    });
  }
}

/**
 * Runs a change to one of the account's orders after any earlier change to it has finished. The order
 * is checked twice: before queueing, so a missing or cancelled order fails at once instead of waiting
 * behind a long operation, and inside the lock, because the change queued ahead may have removed it.
 */
export function changeOwnOrder<T>(
  ctx: EmulatorContext,
  account: string,
  orderOid: number,
  require: (order: OrderState) => void,
  change: (order: OrderState) => Promise<T>,
): Promise<T> {
  require(getOwnOrder(ctx, account, orderOid));
  return ctx.store.withLock(orderOid, async () => {
    const order = getOwnOrder(ctx, account, orderOid);
    require(order);
    return change(order);
  });
}
