/**
 * An order of a listing by its oid or by the creation nonce it carries, found through an index built once per
 * listing. Every check of a run looks its live order up in the run's one listing: scanning it whole per VPS made
 * the look-up grow with the square of the fleet (59 ms of a 500-VPS update's provider host). A listing is never
 * changed in place (AccountView.notePlaced makes a new one), so the index, kept beside it, stays right.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { creationNonceOf } from "../lifecycle/creation-token.js";

interface ListingIndex {
  byOid: Map<number, AboutOrder>;
  byNonce: Map<string, AboutOrder>;
}

/**
 * Per process on purpose: each listing's index, keyed by the listing a run passes and held weakly by it, so it goes
 * with its listing, whichever run read it (never a run's state: a function of the listing alone).
 */
const indexes = new WeakMap<readonly AboutOrder[], ListingIndex>();

/** The listing's index; each key maps to its first order in the listing, as a scan would find it. */
function indexOf(listing: readonly AboutOrder[]): ListingIndex {
  let index = indexes.get(listing);
  if (!index) {
    index = { byOid: new Map(), byNonce: new Map() };
    for (const order of listing) {
      if (!index.byOid.has(order.order_oid)) index.byOid.set(order.order_oid, order);
      const nonce = creationNonceOf(order);
      if (nonce !== undefined && !index.byNonce.has(nonce)) index.byNonce.set(nonce, order);
    }
    indexes.set(listing, index);
  }
  return index;
}

/** The first order of `listing` with this oid (none for a value that is not a number). */
export function listedByOid(listing: readonly AboutOrder[], oid: unknown): AboutOrder | undefined {
  return typeof oid === "number" ? indexOf(listing).byOid.get(oid) : undefined;
}

/** The first order of `listing` carrying this creation nonce (none for a value that is not a string). */
export function listedByNonce(listing: readonly AboutOrder[], nonce: unknown): AboutOrder | undefined {
  return typeof nonce === "string" ? indexOf(listing).byNonce.get(nonce) : undefined;
}
