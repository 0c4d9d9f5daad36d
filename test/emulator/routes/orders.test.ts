/**
 * R1 GET /orders and its filters, R2 GET /orders/{order} and R3 PUT .../cancelled against the emulator over real
 * HTTP (R4, placing an order: new-vps.test.ts).
 */
import type { GetOrdersResponse, PutCancelledResponse } from "../../../contract/index.js";
import { GetOrdersResponse as GetOrdersSchema } from "../../../contract/index.js";
import { DEMO_ACCOUNTS } from "../../../emulator/index.js";
import { useEmulator } from "../../helpers/use-emulator.js";
import { createVps, errorOf, getOrder, orderPath, record, rootKey } from "../fixtures.js";

const bob = DEMO_ACCOUNTS[2]!.apiKey;

describe("R1 GET /orders filters", () => {
  const emu = useEmulator({ dedicatedServers: true });
  let active: number;
  let deleted: number;
  let london: number;

  beforeAll(async () => {
    active = (
      await createVps(
        emu(),
        {
          meta_data: [
            { key_name: "team", value: "web" },
            { key_name: "pulumi-rimuhosting:creation-token", value: "tok-1" },
          ],
        },
        { domain: "alpha.example.com" },
      )
    ).about_order.order_oid;
    london = (
      await createVps(
        emu(),
        { dc_location: "DCLONDON", meta_data: [{ key_name: "team", value: "db" }] },
        { domain: "beta.example.com" },
      )
    ).about_order.order_oid;
    deleted = (
      await createVps(
        emu(),
        { meta_data: [{ key_name: "team", value: "web" }] },
        { domain: "gamma.example.com" },
      )
    ).about_order.order_oid;
    expect((await emu().api("DELETE", `/orders/order-${deleted}-x/vps`)).status).toBe(200);
  });

  async function oids(path: string, apiKey?: string): Promise<number[]> {
    const res = await emu().api("GET", path, undefined, { apiKey });
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("get_orders_response");
    const body = GetOrdersSchema.parse(record(res.body));
    expect(body.human_readable_message).toBe(`Found ${body.about_orders!.length} orders`);
    return body.about_orders!.map((o) => o.order_oid).sort();
  }

  test("list: active orders only by default and with include_inactive=N", async () => {
    expect(await oids("/orders")).toEqual([active, london].sort());
    expect(await oids("/orders;include_inactive=N")).toEqual([active, london].sort());
    expect(await oids("/orders;include_inactive=")).toEqual([active, london].sort());
  });

  test("list: include_inactive=Y adds cancelled orders", async () => {
    expect(await oids("/orders;include_inactive=Y")).toEqual([active, london, deleted].sort());
  });

  test("list: server_type and server-type filter by kind", async () => {
    expect(await oids("/orders;server_type=VPS")).toEqual([active, london].sort());
    expect(await oids("/orders;server-type=PHYSICAL")).toEqual([]);
    const bobPhysical = await oids("/orders;server_type=PHYSICAL", bob);
    expect(bobPhysical).toHaveLength(1);
    expect(await oids("/orders;server_type=VPS", bob)).toEqual([]);
  });

  test("list: order_oids and order_oid pick orders", async () => {
    expect(await oids(`/orders;order_oids=${london}`)).toEqual([london]);
    expect(await oids(`/orders;order_oids=${london},${active}`)).toEqual([active, london].sort());
    expect(await oids(`/orders;order_oid=${active}`)).toEqual([active]);
    expect(await oids(`/orders;order_oid=${deleted};include_inactive=Y`)).toEqual([deleted]);
  });

  test("list: search matches domain text", async () => {
    expect(await oids("/orders;search=beta")).toEqual([london]);
    expect(await oids("/orders;search=GAMMA;include_inactive=Y")).toEqual([deleted]);
    expect(await oids("/orders;search=nothing-matches")).toEqual([]);
  });

  test("list: meta_search needs every key:value pair, and keys may contain ':'", async () => {
    expect(await oids("/orders;meta_search=team:web;include_inactive=Y")).toEqual([active, deleted].sort());
    expect(await oids("/orders;meta_search=team:web")).toEqual([active]);
    expect(
      await oids(
        `/orders;meta_search=${encodeURIComponent("team:web pulumi-rimuhosting:creation-token:tok-1")}`,
      ),
    ).toEqual([active]);
    expect(await oids("/orders;meta_search=team:web+pulumi-rimuhosting:creation-token:tok-2")).toEqual([]);
  });

  test("list: dc_location and dc-location filter by data centre, case-insensitively", async () => {
    expect(await oids("/orders;dc_location=DCLONDON")).toEqual([london]);
    expect(await oids("/orders;dc-location=dcdallas")).toEqual([active]);
  });

  test("list: the applied filter is echoed", async () => {
    const res = await emu().api("GET", "/orders;include_inactive=Y;server_type=VPS");
    const body = record<GetOrdersResponse>(res.body);
    expect(body.order_filter).toMatchObject({ include_inactive: "Y", server_type: "VPS" });
  });

  test.each(["maybe", "None", "null", "2"])(
    "list: an unknown include_inactive value (%s) is the default, active orders only",
    async (value) => {
      expect(await oids(`/orders;include_inactive=${value}`)).toEqual([active, london].sort());
    },
  );

  test.each(["True", "yes", "1", "on"])("list: include_inactive=%s means Y", async (value) => {
    expect(await oids(`/orders;include_inactive=${value}`)).toEqual([active, london, deleted].sort());
  });

  test.each([
    ["/orders;server_type=BOAT", "server_type"],
    ["/orders;server-type=BOAT", "server-type"],
    ["/orders;order_oids=abc", "order_oids"],
    ["/orders;dc_location=DCMARS", "dc_location"],
  ])("list: a bad filter value (%s) is a 400 naming the parameter", async (path, field) => {
    const err = errorOf(await emu().api("GET", path));
    expect(err.status).toBe(400);
    expect(err.fieldName).toBe(field);
  });
});

describe("R2 GET /orders/{order} and R3 PUT .../cancelled", () => {
  const emu = useEmulator();

  test("get: the domain part of the segment is ignored", async () => {
    const created = await createVps(emu(), {}, { domain: "get.example.com" });
    const oid = created.about_order.order_oid;
    for (const segment of [
      `order-${oid}-get-example-com`,
      `order-${oid}-anything`,
      `order-${oid}-`,
      `order-${oid}`,
    ]) {
      const res = await emu().api("GET", `/orders/${segment}`);
      expect(res.status).toBe(200);
      expect(rootKey(res.body)).toBe("get_order_response");
      expect(
        record<{ about_order: { order_oid: number; slug: string } }>(res.body).about_order,
      ).toMatchObject({
        order_oid: oid,
        slug: `order-${oid}-get-example-com`,
      });
    }
  });

  test("get: an unknown order and a malformed segment are 404", async () => {
    expect(errorOf(await emu().api("GET", "/orders/order-1-x")).status).toBe(404);
    expect(errorOf(await emu().api("GET", "/orders/not-an-order")).status).toBe(404);
  });

  test("cancel: sets a cancellation date at the end of the period, keeps running and listed", async () => {
    const created = await createVps(emu(), {}, { domain: "cancel.example.com" });
    const oid = created.about_order.order_oid;
    const res = await emu().api("PUT", `/orders/order-${oid}-x/cancelled`);
    expect(res.status).toBe(200);
    const body = record<PutCancelledResponse>(res.body);
    const date = body.about_order!.billing_info!.cancellation_date!;
    expect(date.ms_since_epoch).toBeGreaterThan(Date.now() + 86_400_000);
    expect(body.about_order!.running_state).toBe("RUNNING");
    const order = await getOrder(emu(), oid);
    expect(order.running_state).toBe("RUNNING");
    const listed = record<GetOrdersResponse>((await emu().api("GET", "/orders")).body).about_orders!;
    expect(listed.map((o) => o.order_oid)).toContain(oid);
    expect((await emu().api("GET", orderPath(order, "/vps"))).status).toBe(200);

    const again = await emu().api("PUT", `/orders/order-${oid}-x/cancelled`);
    expect(again.status).toBe(200);
    expect(
      record<PutCancelledResponse>(again.body).about_order!.billing_info!.cancellation_date!.ms_since_epoch,
    ).toBe(date.ms_since_epoch);
  });

  test("cancel: a removed order is a 409", async () => {
    const created = await createVps(emu(), {}, { domain: "cancel2.example.com" });
    await emu().api("DELETE", orderPath(created.about_order, "/vps"));
    const err = errorOf(await emu().api("PUT", orderPath(created.about_order, "/cancelled")));
    expect(err.status).toBe(409);
    expect(err.code).toBe("EMU_ERR_ORDER_CANCELLED");
  });
});
