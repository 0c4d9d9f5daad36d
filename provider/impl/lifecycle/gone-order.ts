/**
 * A preview of a VPS whose order RimuHosting no longer has (cancelled, or removed, outside Pulumi): the state still
 * holds it, so the plan compares the program with outputs of a VPS that is not there, and without this it called the
 * VPS unchanged, or priced a resize of it, while `pulumi up` then failed with RIMU_ERR_ORDER_GONE (issue 41). The
 * preview's diff asks the run's shared listing of the account's active orders (account-view.ts: the look-ahead of
 * check() read it already, so this costs no request for a VPS that is there), and for an order not in it, or cancelled, says so with what
 * to do, reports a change (never "unchanged": `preview --expect-no-changes` fails on it) and prices nothing.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { RimuNotFoundError } from "../../client/index.js";
import { isOrderGone } from "../../wire-mapping/order-fields.js";
import type { AccountView } from "../account/account-view.js";
import { ERROR_CATALOGUE, VPS_ERROR_CODES } from "../engine/errors.js";
import { warning, type Note } from "../engine/notes.js";

/**
 * True when RimuHosting no longer has order `oid`, or has it cancelled; false when it cannot tell (a read failed:
 * the look-ahead's warning says it could not read). The run's listing answers for an order it holds; one it lacks
 * (it may be older than the order: an import in this process) is read by itself before it is called gone.
 */
export async function orderGoneFrom(view: AccountView, oid: number, now = Date.now()): Promise<boolean> {
  const listed = await view.activeOrders().then(
    (orders) => orders.find((order) => order.order_oid === oid),
    () => undefined,
  );
  if (listed) return isOrderGone(listed, now);
  const read = await view.client.getOrder(oid).then(
    (response): AboutOrder | null => response.about_order,
    (error: unknown) => (error instanceof RimuNotFoundError ? null : undefined),
  );
  return read === null || (read !== undefined && isOrderGone(read, now));
}

/** The warning of a preview whose VPS is gone: which one, and what to run. */
export function goneOrderNote(name: string, oid: number): Note {
  const code = VPS_ERROR_CODES.orderGone;
  return warning(
    `[${code}] ${name}: RimuHosting no longer has VPS order ${oid}: it was cancelled or removed outside ` +
      `Pulumi, so \`pulumi up\` cannot change it and nothing here is priced. ${ERROR_CATALOGUE[code].advice}`,
  );
}
