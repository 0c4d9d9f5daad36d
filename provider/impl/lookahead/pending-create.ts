/**
 * A pending create seen by a check of `pulumi up` (vps-lookahead.ts): a create whose outcome was unknown, recorded
 * by the engine with no order number, whose order may never have appeared. Owns: telling it from a VPS whose order
 * was cancelled since, or placed since the active listing was read, by the one listing that shows cancelled orders
 * too.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { isOrderGone } from "../../wire-mapping/order-fields.js";
import { RECORDED_ORDER_KEY } from "../fields/vps-fields.js";
import { listedByNonce } from "./listing-lookup.js";
import type { LookaheadCheck } from "./lookahead-run.js";

/** What the look-ahead found of the resource's order in the active listing (vps-lookahead.ts, liveOrderOf). */
interface Found {
  order?: AboutOrder;
}

/**
 * A pending create (its outcome unknown, RIMU_ERR_CREATE_OUTCOME_UNKNOWN) whose order never appeared (`yes`): the
 * state records no order number for it, and no order of the account carries its creation nonce, active or cancelled
 * (include_inactive, docs/rimuhosting-api.md R1). update() orders it then (vps-provider.ts), judged as a new order, so
 * the look-ahead prices it as one. The active listing alone cannot tell it from a VPS created by the last run and
 * cancelled by hand since (neither has its order number recorded yet): that one's order is listed as inactive
 * (`cancelled`), and its fee stays unknown. Asked only then: one more listing, in that case alone. An order that
 * carries the nonce and is active in that listing (placed, or made active, between the two listings: a create of
 * this state still under way) is no cancelled one: it is the VPS's live order (`active`), priced as the order it is.
 */
export async function unplacedCreate(
  run: LookaheadCheck,
  found: Found,
): Promise<{ yes?: true; cancelled?: AboutOrder; active?: AboutOrder }> {
  const nonce = run.before.__creationNonce;
  if (run.isNew || found.order || typeof nonce !== "string") return {};
  if (run.before[RECORDED_ORDER_KEY] !== undefined || run.before.adoptOrderOid !== undefined) return {};
  const all = await run.view.client.listOrders({ includeInactive: true }).then(
    (listing) => listing.about_orders ?? [],
    () => undefined,
  );
  if (all === undefined) return {};
  const order = listedByNonce(all, nonce);
  if (!order) return { yes: true };
  return isOrderGone(order, Date.now()) ? { cancelled: order } : { active: order };
}

export const cancelledWhy = (order: AboutOrder): string =>
  `order ${order.order_oid}, which carries this VPS's creation nonce, is no longer active (cancelled outside ` +
  "Pulumi? `pulumi refresh` finds out)";
