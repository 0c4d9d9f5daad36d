/**
 * Which stack of the backend holds which order (provider/impl/ownership/backend-states.ts), the one answer for both
 * readers of the states: import-file (ordersByStack: the VPSs it leaves out, named with their stack) and the take-back
 * of a killed run's order (holderOf: never an order another state holds). Every type a state records a VPS under
 * (provider/impl/fields/vps-type-tokens.ts) holds its order: the native `rimuhosting:index:Vps`, the dynamic `Vps`
 * class's `pulumi-nodejs:dynamic/rimuhosting:Vps` (what a TypeScript stack that adopted with `adoptOrderOid`
 * records, issue 65), and the generic dynamic type with a Vps's provider or outputs, as `pulumi stack export` prints
 * them; nothing else, however its outputs look. Reading the states through the real CLI:
 * test/engine/adopt-managed.test.ts (import-file) and test/engine/killed-runs.test.ts (take-back).
 */
import fc from "fast-check";
import type { AboutOrder } from "../../../contract/index";
import { CREATION_NONCE_KEY } from "../../../provider/client/index";
import {
  holderOf,
  ordersByStack,
  type BackendStates,
  type StateResource,
} from "../../../provider/impl/ownership/backend-states";

const OID = 2059038249;
const NONCE = "0123456789abcdef0123456789abcdef";
const VPS_OUTPUTS = { orderOid: OID, slug: `order-${OID}-web-example-com`, domainName: "web.example.com" };
const VPS_TYPES = [
  "rimuhosting:index:Vps",
  "pulumi-nodejs:dynamic/rimuhosting:Vps",
  "pulumi-nodejs:dynamic:Resource",
];

/** A backend of two stacks: `dev` holds nothing of this order; `prod` holds `resource`. */
const backend = (resource: StateResource): BackendStates => ({
  stacks: [
    { stack: "dev", resources: [{ type: "pulumi:providers:rimuhosting", id: "p", outputs: {} }] },
    { stack: "prod", resources: [resource] },
  ],
});
const order = (withNonce = false): AboutOrder =>
  ({
    order_oid: OID,
    meta_data: withNonce ? [{ key_name: CREATION_NONCE_KEY, value: NONCE }] : [],
  }) as AboutOrder;

/** What each reader says of `resource` in stack prod: import-file's stack for the order, take-back's holder. */
const readers = (resource: StateResource, withNonce = false) => ({
  importFile: ordersByStack(backend(resource)).get(OID),
  takeBack: holderOf(backend(resource), order(withNonce)),
});

test("each type a state records a Vps under holds its order, for both readers", () => {
  for (const type of VPS_TYPES)
    expect({ type, ...readers({ type, id: String(OID), outputs: VPS_OUTPUTS }) }).toEqual({
      type,
      importFile: "prod",
      takeBack: "prod",
    });
  // The generic dynamic type whose provider text is this package's, its slug cut short by an older release.
  expect(
    readers({
      type: "pulumi-nodejs:dynamic:Resource",
      inputs: { __provider: 'exports.handler = require("pulumi-rimuhosting/shim")' },
      outputs: { orderOid: OID },
    }),
  ).toEqual({ importFile: "prod", takeBack: "prod" });
});

test("a VPS adopting the order holds it, and a create's nonce holds it for the take-back", () => {
  for (const type of VPS_TYPES.slice(0, 2)) {
    expect(readers({ type, id: "pending-vps-0123", inputs: { adoptOrderOid: OID }, outputs: {} })).toEqual({
      importFile: "prod",
      takeBack: "prod",
    });
    // A pending create: no order number yet, the nonce its order carries (import-file reads the nonce off the order).
    expect(
      readers({ type, id: "pending-vps-0123", inputs: { __creationNonce: NONCE }, outputs: {} }, true),
    ).toEqual({ importFile: undefined, takeBack: "prod" });
  }
});

test("other resources hold none", () => {
  const none = { importFile: undefined, takeBack: undefined };
  // Another dynamic resource with a number called orderOid, but no order's path segment: not a Vps.
  expect(readers({ type: "pulumi-nodejs:dynamic:Resource", id: "x", outputs: { orderOid: OID } })).toEqual(
    none,
  );
  expect(
    readers({ type: "pulumi-nodejs:dynamic/other:Thing", id: String(OID), outputs: VPS_OUTPUTS }, true),
  ).toEqual(none);
  expect(
    readers({ type: "pulumi-nodejs:dynamic/other:Thing", inputs: { __creationNonce: NONCE } }, true),
  ).toEqual(none);
  // A pending create (its order not found yet) holds none, on either front end.
  for (const type of VPS_TYPES.slice(0, 2))
    expect(readers({ type, id: "pending-vps-0123", outputs: {} }, true)).toEqual(none);
});

/**
 * The definition holderOf answers by (an index made once per states read, not a scan per order): the first stack,
 * in the listing's order, with a resource that holds the order, by its number or, for a VPS recording no order yet,
 * by the creation nonce the order carries.
 */
function scannedHolder(states: BackendStates, wanted: AboutOrder): string | undefined {
  const oid = wanted.order_oid;
  const nonce = wanted.meta_data?.find((m) => m.key_name === CREATION_NONCE_KEY)?.value;
  const numbersOf = (r: StateResource) =>
    VPS_TYPES.includes(r.type ?? "")
      ? [r.outputs?.orderOid, r.inputs?.adoptOrderOid, r.outputs?.adoptOrderOid].filter(
          (n) => typeof n === "number",
        )
      : [];
  const holds = (r: StateResource) =>
    numbersOf(r).includes(oid) ||
    (nonce !== undefined &&
      numbersOf(r).length === 0 &&
      VPS_TYPES.slice(0, 2).includes(r.type ?? "") &&
      (r.outputs?.__creationNonce === nonce || r.inputs?.__creationNonce === nonce));
  return states.stacks.find(({ resources }) => resources.some(holds))?.stack;
}

test("holderOf answers as a scan of every stack's resources would, over generated backends", () => {
  const oids = [101, 102, 103];
  const nonces = ["a".repeat(32), "b".repeat(32)];
  const resource = fc.record(
    {
      type: fc.constantFrom(...VPS_TYPES.slice(0, 2), "pulumi-nodejs:dynamic/other:Thing"),
      id: fc.constant("x"),
      inputs: fc.record(
        { adoptOrderOid: fc.constantFrom(...oids), __creationNonce: fc.constantFrom(...nonces) },
        { requiredKeys: [] },
      ),
      outputs: fc.record(
        { orderOid: fc.constantFrom(...oids), __creationNonce: fc.constantFrom(...nonces) },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ["type", "id", "inputs", "outputs"] },
  );
  const states = fc
    .array(fc.array(resource, { maxLength: 4 }), { maxLength: 4 })
    .map((stacks): BackendStates => ({
      stacks: stacks.map((resources, i) => ({ stack: `s${i}`, resources })),
    }));
  const wanted = fc
    .tuple(fc.constantFrom(...oids, 104), fc.option(fc.constantFrom(...nonces), { nil: undefined }))
    .map(
      ([oid, nonce]) =>
        ({
          order_oid: oid,
          meta_data: nonce === undefined ? [] : [{ key_name: CREATION_NONCE_KEY, value: nonce }],
        }) as AboutOrder,
    );
  fc.assert(
    fc.property(states, fc.array(wanted, { minLength: 1, maxLength: 5 }), (backend, orders) => {
      // Several orders against one states read: the index made for the first serves the rest.
      for (const o of orders) expect(holderOf(backend, o)).toBe(scannedHolder(backend, o));
    }),
    { seed: 90, numRuns: 500 },
  );
});
