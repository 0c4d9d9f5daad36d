/**
 * The live order of a check, looked up through the listing's index (lookahead/listing-lookup.ts), is the order a
 * scan of the listing finds: the recorded oid first, then the creation nonce, then the adopted oid, each the first
 * in the listing's order. Generated listings hold repeated oids and nonces, orders without a nonce, and states
 * whose recorded values are missing or of the wrong type (a state written by an older version).
 */
import fc from "fast-check";
import type { AboutOrder } from "../../../contract";
import { CREATION_NONCE_KEY } from "../../../provider/client";
import { RECORDED_ORDER_KEY } from "../../../provider/impl/fields/vps-fields";
import { creationNonceOf } from "../../../provider/impl/lifecycle/creation-token";
import { liveOrderOf } from "../../../provider/impl/lookahead/vps-lookahead";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";

const OIDS = [1001, 1002, 1003, 1004];
const NONCES = ["n-a", "n-b", "n-c"];

/** An order as the listing gives it: an oid, a domain name (which order it is), a nonce or none. */
const order = (index: number, oid: number, nonce: string | undefined): AboutOrder =>
  ({
    order_oid: oid,
    domain_name: `vps${index}.example.com`,
    meta_data: nonce === undefined ? [] : [{ key_name: CREATION_NONCE_KEY, value: nonce }],
  }) as unknown as AboutOrder;

const listing = fc
  .array(fc.tuple(fc.constantFrom(...OIDS), fc.option(fc.constantFrom(...NONCES), { nil: undefined })), {
    maxLength: 8,
  })
  .map((rows) => rows.map(([oid, nonce], i) => order(i, oid, nonce)));

/** A recorded value: one of the listing's, one it lacks, absent, or of another type. */
const recordedOid = fc.oneof(fc.constantFrom(...OIDS, 9999), fc.constant(undefined), fc.constant("1001"));
const recordedNonce = fc.oneof(fc.constantFrom(...NONCES, "n-gone"), fc.constant(undefined), fc.constant(7));
const before = fc.record({ recorded: recordedOid, nonce: recordedNonce, adopted: recordedOid }).map(
  ({ recorded, nonce, adopted }) =>
    ({
      [RECORDED_ORDER_KEY]: recorded,
      __creationNonce: nonce,
      adoptOrderOid: adopted,
    }) as unknown as VpsInputs,
);

/** The rule, as a scan of the whole listing. */
function scanned(orders: readonly AboutOrder[], state: VpsInputs): AboutOrder | undefined {
  const values = state as Record<string, unknown>;
  const byOid = (oid: unknown) =>
    typeof oid === "number" ? orders.find((o) => o.order_oid === oid) : undefined;
  const nonce = values.__creationNonce;
  return (
    byOid(values[RECORDED_ORDER_KEY]) ??
    (typeof nonce === "string" ? orders.find((o) => creationNonceOf(o) === nonce) : undefined) ??
    byOid(values.adoptOrderOid)
  );
}

describe("liveOrderOf through the listing's index", () => {
  it("finds the order a scan of the listing finds, whatever the listing and the state", () => {
    fc.assert(
      fc.property(listing, fc.array(before, { minLength: 1, maxLength: 4 }), (orders, states) => {
        // Several checks of one run ask the same listing: the index is built by the first and reused.
        for (const state of states)
          expect(liveOrderOf({ isNew: false, before: state }, orders).order).toBe(scanned(orders, state));
      }),
      { seed: 67, numRuns: 300 },
    );
  });

  it("a new listing (an order placed since) is looked up anew, not through the last one's index", () => {
    const first = [order(0, 1001, "n-a")];
    const state = { __creationNonce: "n-b" } as unknown as VpsInputs;
    expect(liveOrderOf({ isNew: false, before: state }, first).order).toBeUndefined();
    const placed = order(1, 1002, "n-b");
    expect(liveOrderOf({ isNew: false, before: state }, [...first, placed]).order).toBe(placed);
  });
});
