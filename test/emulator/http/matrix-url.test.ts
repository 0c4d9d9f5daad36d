import type { IncomingMessage } from "node:http";
import { matrixOf, rewriteMatrixUrl } from "../../../emulator/http/matrix-url.js";
import { unwrapBody } from "../../../emulator/http/body.js";

const req = (url: string) => ({ url }) as IncomingMessage;

describe("rewriteMatrixUrl", () => {
  test("strips matrix parameters from every segment and keeps them for the handler", () => {
    const r = req("/r/orders;include_inactive=Y;server_type=VPS");
    expect(rewriteMatrixUrl(r)).toBe("/r/orders");
    expect(Object.fromEntries(matrixOf(r))).toEqual({ include_inactive: ["Y"], server_type: ["VPS"] });
  });

  test("works inside the path and keeps a query string", () => {
    const r = req("/r/orders/order-123-x/ptr;ip=1.2.3.4?x=1");
    expect(rewriteMatrixUrl(r)).toBe("/r/orders/order-123-x/ptr?x=1");
    expect(matrixOf(r).get("ip")).toEqual(["1.2.3.4"]);
  });

  test("decodes values (percent and +) and merges repeated names", () => {
    const r = req("/r/orders;meta_search=a%3Ab+c%3Ad;order_oids=1;order_oids=2");
    rewriteMatrixUrl(r);
    expect(matrixOf(r).get("meta_search")).toEqual(["a:b c:d"]);
    expect(matrixOf(r).get("order_oids")).toEqual(["1", "2"]);
  });

  test("leaves URLs without ';' alone", () => {
    const r = req("/r/distributions");
    expect(rewriteMatrixUrl(r)).toBe("/r/distributions");
    expect(matrixOf(r).size).toBe(0);
  });
});

describe("unwrapBody", () => {
  const fields = ["running_state"];
  test("unwraps any single wrapper key whose value is an object", () => {
    expect(unwrapBody({ anything: { running_state: "RUNNING" } }, fields)).toEqual({
      running_state: "RUNNING",
    });
  });
  test("keeps a bare record, including one whose only key is a record field", () => {
    expect(unwrapBody({ running_state: "RUNNING" }, fields)).toEqual({ running_state: "RUNNING" });
    expect(
      unwrapBody({ instantiation_options: { domain_name: "a.b.c" } }, ["instantiation_options"]),
    ).toEqual({
      instantiation_options: { domain_name: "a.b.c" },
    });
    expect(unwrapBody({ a: 1, b: 2 }, fields)).toEqual({ a: 1, b: 2 });
  });
});
