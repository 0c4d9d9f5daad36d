import { ENDPOINTS } from "../../contract/index.js";
import { RimuValidationError, buildPath, endpointLabel, orderSegment } from "../../provider/client/index.js";

describe("orderSegment", () => {
  it("uses the oid and a path-safe domain part", () => {
    expect(orderSegment(123)).toBe("order-123-x");
    expect(orderSegment({ orderOid: 123, domainName: "web1.example.com" })).toBe(
      "order-123-web1-example-com",
    );
    expect(orderSegment({ orderOid: 2853299702, domainName: "a/b;c=d" })).toBe("order-2853299702-a-b-c-d");
    expect(orderSegment({ orderOid: 7, domainName: null })).toBe("order-7-x");
  });

  it("refuses an oid that is not a positive whole number", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 60]) {
      expect(() => orderSegment(bad)).toThrow(RimuValidationError);
    }
    expect(() => orderSegment({ orderOid: "12" as unknown as number })).toThrow(/order: expected a positive/);
  });
});

describe("buildPath", () => {
  it("fills {order} and appends encoded matrix parameters", () => {
    expect(buildPath(ENDPOINTS.getVpsStatus, { order: { orderOid: 9, domainName: "x.example.com" } })).toBe(
      "/orders/order-9-x-example-com/vps",
    );
    expect(
      buildPath(ENDPOINTS.listOrders, {
        matrix: { include_inactive: "Y", search: "a;b=c/d e", server_type: undefined },
      }),
    ).toBe("/orders;include_inactive=Y;search=a%3Bb%3Dc%2Fd%20e");
    expect(buildPath(ENDPOINTS.setReverseDns, { order: 5, matrix: { ip: "1.2.3.4" } })).toBe(
      "/orders/order-5-x/ptr;ip=1.2.3.4",
    );
  });

  it("needs an order for order routes", () => {
    expect(() => buildPath(ENDPOINTS.getOrder)).toThrow(RimuValidationError);
  });

  it("labels endpoints by method and template", () => {
    expect(endpointLabel(ENDPOINTS.getOrder)).toBe("GET /orders/{order}");
  });
});
