import type { GetOrdersResponse } from "../../contract/index.js";
import { DEMO_ACCOUNTS, DEMO_API_KEY } from "../../emulator/index.js";
import { useEmulator } from "../helpers/use-emulator.js";
import { createVps, errorOf, orderPath, record } from "./fixtures.js";

const [demo, alice, bob] = DEMO_ACCOUNTS;

describe("authentication", () => {
  const emu = useEmulator();

  test("accounts: at least three, with distinct fixed keys; DEMO_API_KEY is the first", () => {
    expect(DEMO_ACCOUNTS.length).toBeGreaterThanOrEqual(3);
    expect(new Set(DEMO_ACCOUNTS.map((a) => a.apiKey)).size).toBe(DEMO_ACCOUNTS.length);
    expect(DEMO_API_KEY).toBe(demo!.apiKey);
  });

  const keyed: [string, string][] = [
    ["GET", "/orders"],
    ["GET", "/orders/order-1-x"],
    ["PUT", "/orders/order-1-x/cancelled"],
    ["POST", "/orders/new-vps"],
    ["GET", "/orders/order-1-x/vps"],
    ["DELETE", "/orders/order-1-x/vps"],
    ["GET", "/orders/order-1-x/vps/data-transfer-usage"],
    ["PUT", "/orders/order-1-x/vps/host-server"],
    ["PUT", "/orders/order-1-x/vps/parameters"],
    ["PUT", "/orders/order-1-x/vps/reinstall"],
    ["PUT", "/orders/order-1-x/vps/running-state"],
    ["PUT", "/orders/order-1-x/ptr;ip=1.2.3.4"],
    ["GET", "/billing-methods"],
  ];

  test.each(keyed)("auth: %s %s without a key is 403 LoginRequired", async (method, path) => {
    const err = errorOf(await emu().api(method, path, undefined, { apiKey: null }));
    expect(err).toMatchObject({ status: 403, errorClass: "LoginRequired" });
  });

  test.each(keyed)("auth: %s %s with a bad key is 403 PermissionException", async (method, path) => {
    const err = errorOf(await emu().api(method, path, undefined, { apiKey: "99999999" }));
    expect(err).toMatchObject({ status: 403, errorClass: "PermissionException" });
  });

  test("auth: another scheme in the Authorization header is 403 PermissionException", async () => {
    const err = errorOf(
      await emu().api("GET", "/orders", undefined, {
        apiKey: null,
        headers: { authorization: `Bearer ${DEMO_API_KEY}` },
      }),
    );
    expect(err).toMatchObject({ status: 403, errorClass: "PermissionException" });
  });

  test.each([
    ["GET", "/distributions", undefined],
    ["GET", "/pricing-plans", undefined],
    ["GET", "/pricing-plans/new-vm-pricing", undefined],
    ["PUT", "/pricing-plans/new-vm-pricing", { new_order_request: {} }],
    ["GET", "/data-centers", undefined],
  ])("auth: %s %s is public (no key, and a bad key is ignored)", async (method, path, body) => {
    expect((await emu().api(method, path, body, { apiKey: null })).status).toBe(200);
    expect((await emu().api(method, path, body, { apiKey: "99999999" })).status).toBe(200);
  });

  test("auth: the API key never appears in a response", async () => {
    const res = await emu().api("GET", "/orders", undefined, { apiKey: "12345678901234567890" });
    expect(res.text).not.toContain("12345678901234567890");
  });
});

describe("account isolation", () => {
  const emu = useEmulator();

  test("isolation: each account lists only its own orders", async () => {
    const mine = await createVps(emu(), {}, { domain: "mine.example.com" });
    const hers = await createVps(emu(), {}, { apiKey: alice!.apiKey, domain: "hers.example.com" });
    const list = async (key: string) =>
      record<GetOrdersResponse>(
        (await emu().api("GET", "/orders;include_inactive=Y", undefined, { apiKey: key })).body,
      ).about_orders!.map((o) => o.order_oid);
    expect(await list(demo!.apiKey)).toEqual([mine.about_order.order_oid]);
    expect(await list(alice!.apiKey)).toEqual([hers.about_order.order_oid]);
    expect(await list(bob!.apiKey)).toEqual([]);
  });

  test("isolation: another account's order gets exactly the 404 a missing one gets", async () => {
    const hers = (await createVps(emu(), {}, { apiKey: alice!.apiKey, domain: "private.example.com" }))
      .about_order;
    const missing = { order_oid: 1 };
    const paths: [string, string, unknown][] = [
      ["GET", "", undefined],
      ["PUT", "/cancelled", undefined],
      ["GET", "/vps", undefined],
      ["DELETE", "/vps", undefined],
      ["GET", "/vps/data-transfer-usage", undefined],
      ["PUT", "/vps/host-server", {}],
      ["PUT", "/vps/parameters", { memory_mb: 2048 }],
      ["PUT", "/vps/reinstall", {}],
      ["PUT", "/vps/running-state", { running_state: "NOTRUNNING" }],
      ["PUT", "/ptr", { domain_name: "x.example.com" }],
    ];
    for (const [method, suffix, body] of paths) {
      const foreign = await emu().api(method, orderPath(hers, suffix), body);
      const absent = await emu().api(method, orderPath(missing, suffix), body);
      const strip = (text: string, oid: number) =>
        text
          .replace(/"ms_since_epoch":\d+|"iso_format":"[^"]+"|"response_created_time_epoch_ms":\d+/g, "")
          .replaceAll(`order ${oid}`, "order N");
      expect(foreign.status).toBe(404);
      expect(strip(foreign.text, hers.order_oid)).toBe(strip(absent.text, 1));
    }
    expect(
      emu()
        .snapshot()
        .find((o) => o.orderOid === hers.order_oid),
    ).toMatchObject({ runningState: "RUNNING", cancelled: false });
  });

  test("isolation: another account's order cannot be cloned", async () => {
    const hers = (await createVps(emu(), {}, { apiKey: alice!.apiKey, domain: "noclone.example.com" }))
      .about_order;
    const res = await emu().api("POST", "/orders/new-vps", {
      new_order_request: { instantiation_via_clone_options: { vps_order_oid_to_clone: hers.order_oid } },
    });
    expect(errorOf(res).status).toBe(400);
  });
});
