/**
 * A preview of a VPS whose order RimuHosting no longer has (cancelled, or removed, outside Pulumi): the state still
 * holds it, so the plan compares the program with outputs of a VPS that is not there, and without this it called the
 * VPS unchanged, or priced a resize of it, while `pulumi up` then failed with RIMU_ERR_ORDER_GONE (issue 41). The
 * preview's diff asks the run's shared listing of the account's active orders, and for an order not in it, or
 * cancelled, says so with what to do, reports a change (never "unchanged": `preview --expect-no-changes` fails on it)
 * and prices nothing. An order cancelled at the end of its billing period still runs: the preview warns with the time
 * it goes (issue 57), and plans as usual.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { RimuNotFoundError } from "../../client/index.js";
import { isOrderGone } from "../../wire-mapping/order-fields.js";
import { isoTime } from "../../wire-mapping/values.js";
import type { AccountView } from "../account/account-view.js";
import { ERROR_CATALOGUE, VPS_ERROR_CODES, VpsError } from "../engine/errors.js";
import { warning, type Note } from "../engine/notes.js";

/**
 * Order `oid` from the run's listing of active orders (the look-ahead of check() read it already, so this costs no
 * request for a VPS that is there); one it lacks (it may be older than the order: an import in this process) is read
 * by itself. Null when RimuHosting has no such order; undefined when it cannot tell (a read failed: the look-ahead's
 * warning says it could not read).
 */
async function orderOf(view: AccountView, oid: number): Promise<AboutOrder | null | undefined> {
  const listed = await view.activeOrders().then(
    (orders) => orders.find((order) => order.order_oid === oid),
    () => undefined,
  );
  if (listed) return listed;
  return view.client.getOrder(oid).then(
    (response): AboutOrder | null => response.about_order,
    (error: unknown) => (error instanceof RimuNotFoundError ? null : undefined),
  );
}

/**
 * What a preview says of VPS `name`'s order `oid` as RimuHosting has it now: gone (with the warning of
 * goneOrderNote()), or cancelled at the end of its billing period (a warning with the time; the VPS runs until
 * then, so the plan goes on), or nothing.
 */
export async function orderStanding(
  view: AccountView,
  name: string,
  oid: number,
  now = Date.now(),
): Promise<{ gone: boolean; notes: Note[] }> {
  const order = await orderOf(view, oid);
  if (order === null || (order !== undefined && isOrderGone(order, now)))
    return { gone: true, notes: [goneOrderNote(name, oid)] };
  const when = isoTime(order?.billing_info?.cancellation_date);
  return { gone: false, notes: when === undefined ? [] : [cancellationNote(name, oid, when)] };
}

/**
 * The warning of a preview whose VPS RimuHosting will cancel at `when`. RimuHosting's API cannot undo a cancellation
 * (docs/rimuhosting-api.md R3: only its support can), so the advice is support, or a new VPS once it is gone.
 */
function cancellationNote(name: string, oid: number, when: string): Note {
  return warning(
    `${name}: RimuHosting will cancel VPS order ${oid} at ${when}: it was cancelled at the end of its billing ` +
      `period outside Pulumi, and runs until then. To keep it, ask RimuHosting's support to undo the ` +
      `cancellation before then (its API cannot); after it, \`pulumi up --refresh\` orders a new VPS ` +
      `(a new IP address and an empty disk).`,
  );
}

/** The warning of a preview whose VPS is gone: which one, and what to run. */
export function goneOrderNote(name: string, oid: number): Note {
  const code = VPS_ERROR_CODES.orderGone;
  return warning(
    `[${code}] ${name}: RimuHosting no longer has VPS order ${oid}: it was cancelled or removed outside ` +
      `Pulumi, so \`pulumi up\` cannot change it and nothing here is priced. ${ERROR_CATALOGUE[code].advice}`,
  );
}

/** The error of an update whose order RimuHosting no longer has (vps-provider.ts). */
export function goneError(id: string): VpsError {
  return new VpsError(
    VPS_ERROR_CODES.orderGone,
    `VPS order ${id} no longer exists or was cancelled outside Pulumi.`,
  );
}
