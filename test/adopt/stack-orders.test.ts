/**
 * Which resources of a stack's state hold a VPS order (provider/adopt/stack-orders.ts, orderOfResource): the native
 * `rimuhosting:index:Vps` and the dynamic `Vps` (a dynamic resource with a Vps's outputs), as `pulumi stack export`
 * prints them; nothing else, however its outputs look. Reading the states through the real CLI:
 * test/engine/adopt-managed.test.ts.
 */
import { orderOfResource } from "../../provider/adopt/stack-orders";

const VPS_OUTPUTS = {
  orderOid: 2059038249,
  slug: "order-2059038249-web-example-com",
  domainName: "web.example.com",
};

test("the native and the dynamic Vps hold their order; other resources hold none", () => {
  expect(orderOfResource({ type: "rimuhosting:index:Vps", id: "2059038249", outputs: VPS_OUTPUTS })).toBe(
    2059038249,
  );
  expect(
    orderOfResource({ type: "pulumi-nodejs:dynamic:Resource", id: "2059038249", outputs: VPS_OUTPUTS }),
  ).toBe(2059038249);
  // Another dynamic resource with a number called orderOid, but no order's path segment: not a Vps.
  expect(
    orderOfResource({ type: "pulumi-nodejs:dynamic:Resource", id: "x", outputs: { orderOid: 2059038249 } }),
  ).toBeUndefined();
  expect(orderOfResource({ type: "pulumi:providers:rimuhosting", id: "p", outputs: {} })).toBeUndefined();
  // A pending create (its order not found yet) holds none.
  expect(
    orderOfResource({ type: "rimuhosting:index:Vps", id: "pending-vps-0123", outputs: {} }),
  ).toBeUndefined();
});
