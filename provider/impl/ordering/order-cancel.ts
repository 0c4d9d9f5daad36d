/**
 * The delete's cancellation of a VPS's recorded order (vps-provider.ts, deleteVps): an order already gone counts as
 * cancelled (the engine keeps the resource if delete throws), and a deleteBeforeReplace's cancelled fee is noted for
 * its replacement's guard (order-guard.ts).
 */
import type { RimuClient } from "../../client/index.js";
import { RimuNotFoundError } from "../../client/index.js";
import type { AccountView } from "../account/account-view.js";
import { deleteBillWords } from "../budget/money.js";
import { log } from "../engine/log.js";
import { resourceName } from "../engine/notes.js";
import type { RunContext } from "../engine/run-context.js";
import type { RecordedOutputs } from "../inputs/vps-outputs.js";
import { orderRef } from "../lifecycle/vps-converge.js";
import { isOrderGone, orderFields } from "../../wire-mapping/order-fields.js";
import { isReplaced, noteCancelled } from "./order-guard.js";
import { noteDone } from "./done-words.js";

export async function cancelRecorded(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  oid: number,
  recorded: RecordedOutputs,
): Promise<void> {
  const ref = orderRef(oid, recorded.domainName);
  // A deleteBeforeReplace: the order's fee, which its replacement is counted against (order-guard.ts).
  const live = isReplaced(run, recorded) ? await view.activeOrders() : [];
  const replaced = live.find((order) => order.order_oid === oid);
  // However the order ended (cancelled now, or found gone after an answer lost), its replacement counts against it.
  const gone = (): void => {
    if (replaced) noteCancelled(run, recorded, oid, orderFields(replaced).monthlyFeeUsd);
    view.noteGone(oid);
  };
  try {
    const deleted = await client.deleteVps(ref);
    gone();
    noteDone(run, "cancelled", resourceName(recorded));
    log(
      run,
      `Vps ${oid}: shut down and cancelled, ${deleteBillWords(deleted.cancel_messages ?? [], recorded.monthlyFeeUsd)}`,
    );
  } catch (error) {
    // Already gone counts as deleted: the engine keeps the resource if delete throws. A delete whose
    // answer was lost (timeout, dropped connection) or refused because it is already cancelled is
    // settled by reading the order.
    if (error instanceof RimuNotFoundError) return gone();
    const order = await client.getOrder(ref).then(
      (response) => response.about_order,
      (readError: unknown) => (readError instanceof RimuNotFoundError ? null : undefined),
    );
    if (order === null || (order && isOrderGone(order, Date.now()))) return gone();
    throw error;
  }
}
