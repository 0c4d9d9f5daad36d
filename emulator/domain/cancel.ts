/**
 * R6 DELETE .../vps (shut down now, cancel, credit unused time) and R3 PUT .../cancelled (cancel at
 * the end of the billing period, keep running until then). Recorded wording from docs/rimuhosting-api.md R6.
 */
import type { DemoAccount } from "../accounts.js";
import { formatUsd, roundMoney } from "../catalog/pricing.js";
import type { Outcome } from "./outcome.js";
import { formatDate } from "../wire/timestamp.js";
import type { EmulatorContext } from "./context.js";
import { DURATIONS_MS } from "./durations.js";
import { billingPeriodEnd, unusedPeriodFraction } from "./lifecycle.js";
import { changeOwnOrder, requireNotRemoved, requireVpsToChange } from "./lookup.js";
import { toAboutOrder } from "../wire/records.js";

/**
 * DELETE on an order that is already cancelled and removed answers 409 EMU_ERR_ORDER_CANCELLED
 * (documented; the provider treats it as success).
 */
export async function deleteVps(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
): Promise<Outcome<"deleteVps">> {
  const { store, clock } = ctx;
  return changeOwnOrder(ctx, account.name, orderOid, requireVpsToChange, async (order) => {
    const messages = [`${order.domainName} is being shut down.`];
    if (order.runningState !== "NOTRUNNING") await clock.work(DURATIONS_MS.delete, order.orderOid);
    const now = clock.now();
    const credit = roundMoney(order.monthlyFeeUsd * unusedPeriodFraction(order, now));
    order.runningState = "NOTRUNNING";
    order.startedAtMs = null;
    order.deployedState = "REMOVED";
    order.removedAtMs = now;
    order.cancellationDateMs = now;
    store.changed(order);
    messages.push(
      `A $${formatUsd(credit)} credit has been added to your account.`,
      "If you need to un-cancel the server please contact our support team.",
      `Thank you for having hosted ${order.domainName} with us.`,
    );
    return {
      message: "Server removed",
      cancel_messages: messages,
      about_order: toAboutOrder(order),
    };
  });
}

/** PUT .../cancelled twice keeps the first cancellation date and answers 200 again. */
export async function cancelOrder(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
): Promise<Outcome<"cancelOrder">> {
  const { store, clock } = ctx;
  return changeOwnOrder(ctx, account.name, orderOid, requireNotRemoved, async (order) => {
    await clock.work(DURATIONS_MS.cancel, order.orderOid);
    const now = clock.now();
    let message: string;
    if (order.cancellationDateMs !== null) {
      message = `${order.domainName} is already set to be cancelled on ${formatDate(order.cancellationDateMs)}.`;
    } else {
      order.cancellationDateMs = billingPeriodEnd(order, now);
      store.changed(order);
      message = `${order.domainName} will be cancelled at the end of its billing period, on ${formatDate(order.cancellationDateMs)}.  It keeps running until then.`;
    }
    return { message: message, about_order: toAboutOrder(order) };
  });
}
