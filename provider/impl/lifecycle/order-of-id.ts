/**
 * The order a Vps resource's id stands for: the id is the order's number, except while a create's outcome is
 * unknown (a `pending-…` id), when it is the recorded order or the order carrying the state's token and nonce.
 * read, update and delete all start here (vps-provider.ts).
 */
import { VPS_ERROR_CODES, VpsError } from "../engine/errors.js";
import { log, type LogSink } from "../engine/log.js";
import type { AccountView } from "../account/account-view.js";
import type { RecordedOutputs } from "../inputs/vps-outputs.js";
import { findPendingOrder, isPendingId } from "./vps-create.js";

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
