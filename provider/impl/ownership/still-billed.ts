/**
 * What a sweep that leaves orders billed (stack-strays.ts) may say of them: only those still billed when it says so
 * (issue 92). The sweep judges while the run's other deletes cancel their own VPSs: with the backend's states unread
 * (the backend stopped mid-`destroy`), the stack's own VPSs are in no state it could read, so the sweep could not
 * tell them from a killed run's orders, and named them as left billed, to cancel in the control panel, while the same
 * run's deletes were cancelling them. And an order whose cancellation failed because it had just ended (another
 * delete, a colleague in the control panel) is not billed. So before the sweep speaks, it waits for this run's
 * deletes of the orders it would name (each registered as it begins: run-deletes.ts), lists the account again, and
 * names only the orders still active; one of them no longer active is said once, as ended. When the listing fails,
 * every order is named, as before.
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { AccountView } from "../account/account-view.js";
import { log } from "../engine/log.js";
import type { RunContext } from "../engine/run-context.js";
import { isOrderGone } from "../../wire-mapping/order-fields.js";
import { deleteOf } from "./run-deletes.js";

/**
 * An order the sweep would name as left billed: the order, its name (number, domain name, fee), its words in the
 * failure (with why), and the warning that says why and how to end it.
 */
export interface LeftOrder {
  order: AboutOrder;
  named: string;
  words: string;
  warning: string;
}

/**
 * Of `left` (none of them `judging`'s own order), those still active once this run's deletes of them ended, each
 * warned of; each no longer active is said as ended. All of them when the account cannot be listed.
 */
export async function stillBilled(
  run: RunContext,
  view: AccountView,
  left: readonly LeftOrder[],
): Promise<LeftOrder[]> {
  if (left.length === 0) return [];
  await Promise.all(left.map(({ order }) => deleteOf(run, String(order.order_oid))));
  let active: Set<number> | undefined;
  try {
    const now = Date.now();
    const orders = await view.activeOrders({ fresh: true });
    active = new Set(orders.filter((order) => !isOrderGone(order, now)).map((order) => order.order_oid));
  } catch {
    active = undefined;
  }
  const still = left.filter(({ order }) => active === undefined || active.has(order.order_oid));
  for (const entry of left)
    if (still.includes(entry)) log(run, entry.warning);
    else
      log(
        run,
        `${entry.named} is no longer billed: ${deleteOf(run, String(entry.order.order_oid)) ? "this run's delete of it cancelled it" : "it ended while this run judged it"}.`,
      );
  return still;
}
