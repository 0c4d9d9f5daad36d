/**
 * The order a Vps resource's id stands for: the id is the order's number, except while a create's outcome is
 * unknown (a `pending-…` id), when it is the recorded order or the order carrying the state's token and nonce.
 * read, update and delete all start here (vps-provider.ts).
 */
import type { AboutOrder } from "../../../contract/index.js";
import { RimuNotFoundError, type RimuClient } from "../../client/index.js";
import { VPS_ERROR_CODES, VpsError } from "../engine/errors.js";
import { log, type LogSink } from "../engine/log.js";
import type { AccountView } from "../account/account-view.js";
import type { RecordedOutputs } from "../inputs/vps-outputs.js";
import { findPendingOrder, isPendingId } from "./vps-create.js";
import { orderRef } from "./vps-converge.js";

/** The order oid of a resource id ("1234567"), or of a pending resource's recorded order. */
function orderOidOf(id: string, props: RecordedOutputs = {}): number | undefined {
  if (isPendingId(id)) return typeof props.orderOid === "number" ? props.orderOid : undefined;
  const oid = Number(id);
  if (!Number.isSafeInteger(oid) || oid <= 0) {
    throw new VpsError(
      VPS_ERROR_CODES.invalidInput,
      `"${id}" is not a RimuHosting order oid: a Vps id is the order's number, e.g. "1234567".`,
    );
  }
  return oid;
}

/**
 * The order of a resource id: the oid itself, or for a pending create the recorded order or this state's
 * order found by token and nonce (undefined while it has not appeared). `fresh`: read the account's orders
 * now rather than use the run's shared listing (a delete must not miss an order that appeared since).
 */
export async function resolveOrderOid(
  run: { readonly log: LogSink },
  view: AccountView,
  id: string,
  recorded: RecordedOutputs,
  fresh = false,
): Promise<number | undefined> {
  const oid = orderOidOf(id, recorded);
  if (oid !== undefined || !isPendingId(id)) return oid;
  const pending = await findPendingOrder((token) => view.ordersCarrying(token, { fresh }), recorded);
  if (pending)
    log(run, `Vps ${id}: found this stack's own order ${pending.order_oid} (${pending.domain_name}).`);
  return pending?.order_oid;
}

/**
 * Order `oid` as it stands, for update() and read(): from a shared listing of active orders (one read for the whole
 * fleet, which answers each order once: AccountView.listedOrder says why), or by its own GET where a listing cannot
 * answer: an order the active listing does not hold (cancelled or being cancelled, which only its own read tells from
 * one RimuHosting no longer has) or a listing that could not be read. Null when RimuHosting has no such order.
 */
export async function orderNow(
  view: AccountView,
  client: RimuClient,
  oid: number,
  domainName: unknown,
): Promise<AboutOrder | null> {
  const listed = await view.listedOrder(oid);
  if (listed) return listed;
  try {
    return (await client.getOrder(orderRef(oid, domainName))).about_order;
  } catch (error) {
    if (error instanceof RimuNotFoundError) return null;
    throw error;
  }
}
