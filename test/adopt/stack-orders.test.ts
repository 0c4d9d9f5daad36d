/**
 * Which resources of a stack's state hold a VPS order (provider/adopt/stack-orders.ts, orderOfResource): every type a
 * state records a VPS under (provider/impl/fields/vps-type-tokens.ts): the native `rimuhosting:index:Vps`, the
 * dynamic `Vps` class's `pulumi-nodejs:dynamic/rimuhosting:Vps` (what a TypeScript stack that adopted with
 * `adoptOrderOid` records, issue 65), and the generic dynamic type with a Vps's provider or outputs, as `pulumi stack
 * export` prints them; nothing else, however its outputs look. Reading the states through the real CLI:
 * test/engine/adopt-managed.test.ts.
 */
import { orderOfResource } from "../../provider/adopt/stack-orders";

const VPS_OUTPUTS = {
  orderOid: 2059038249,
  slug: "order-2059038249-web-example-com",
  domainName: "web.example.com",
};

test("each type a state records a Vps under holds its order", () => {
  for (const type of [
    "rimuhosting:index:Vps",
    "pulumi-nodejs:dynamic/rimuhosting:Vps",
    "pulumi-nodejs:dynamic:Resource",
  ])
    expect({ type, order: orderOfResource({ type, id: "2059038249", outputs: VPS_OUTPUTS }) }).toEqual({
      type,
      order: 2059038249,
    });
  // The generic dynamic type whose provider text is this package's, its slug cut short by an older release.
  expect(
    orderOfResource({
      type: "pulumi-nodejs:dynamic:Resource",
      inputs: { __provider: 'exports.handler = require("pulumi-rimuhosting/shim")' },
      outputs: { orderOid: 2059038249 },
    }),
  ).toBe(2059038249);
});

test("other resources hold none", () => {
  // Another dynamic resource with a number called orderOid, but no order's path segment: not a Vps.
  expect(
    orderOfResource({ type: "pulumi-nodejs:dynamic:Resource", id: "x", outputs: { orderOid: 2059038249 } }),
  ).toBeUndefined();
  expect(orderOfResource({ type: "pulumi:providers:rimuhosting", id: "p", outputs: {} })).toBeUndefined();
  expect(
    orderOfResource({ type: "pulumi-nodejs:dynamic/other:Thing", id: "2059038249", outputs: VPS_OUTPUTS }),
  ).toBeUndefined();
  // A pending create (its order not found yet) holds none, on either front end.
  for (const type of ["rimuhosting:index:Vps", "pulumi-nodejs:dynamic/rimuhosting:Vps"])
    expect(orderOfResource({ type, id: "pending-vps-0123", outputs: {} })).toBeUndefined();
});
