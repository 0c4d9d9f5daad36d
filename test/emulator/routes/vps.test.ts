/**
 * A VPS's running state (R11), status and data-transfer usage (R5, R7), deletion (R6) and PTR records (R12) against
 * the emulator over real HTTP (resizes, moves and reinstalls: vps-changes.test.ts).
 */
import type {
  AboutOrder,
  DeleteServerResponse,
  GetDataTransferUsageResponse,
  GetOrdersResponse,
} from "../../../contract/index.js";
import { GetVpsStatusResponse as GetVpsStatusSchema } from "../../../contract/index.js";
import { DEMO_ACCOUNTS } from "../../../emulator/index.js";
import { HOST_RESERVED_MEM_MB } from "../../../emulator/catalog/hosts.js";
import { useEmulator } from "../../helpers/use-emulator.js";
import { createVps, errorOf, getOrder, orderPath, record, rootKey, setState } from "../fixtures.js";

describe("R11 running-state transitions", () => {
  const emu = useEmulator();
  let order: AboutOrder;
  beforeAll(async () => {
    order = (await createVps(emu(), {}, { domain: "power.example.com" })).about_order;
  });

  test("running-state: RUNNING on a running VPS changes nothing", async () => {
    const res = await setState(emu(), order, "RUNNING");
    expect(res.running_vps_info.running_state).toBe("RUNNING");
    expect(res.is_restarted).toBe(false);
    expect(res.running_state_messages?.[0]).toMatch(/already running/);
    expect(res.request).toEqual({ running_state: "RUNNING" });
  });

  test("running-state: NOTRUNNING stops it, and a second NOTRUNNING changes nothing", async () => {
    const res = await setState(emu(), order, "NOTRUNNING");
    expect(res.running_vps_info.running_state).toBe("NOTRUNNING");
    expect(res.running_state_messages).toEqual(["power.example.com stopped."]);
    expect((await getOrder(emu(), order.order_oid)).running_state).toBe("NOTRUNNING");
    expect((await setState(emu(), order, "NOTRUNNING")).running_state_messages?.[0]).toMatch(
      /already stopped/,
    );
  });

  test("running-state: RUNNING starts a stopped VPS", async () => {
    const res = await setState(emu(), order, "RUNNING");
    expect(res.running_vps_info.running_state).toBe("RUNNING");
    expect(res.is_pinging).toBe(true);
    expect((await getOrder(emu(), order.order_oid)).running_state).toBe("RUNNING");
  });

  test.each(["RESTARTING", "POWERCYCLING"] as const)(
    "running-state: %s reboots and answers RUNNING",
    async (state) => {
      const res = await setState(emu(), order, state);
      expect(res.running_vps_info.running_state).toBe("RUNNING");
      expect(res.is_restarted).toBe(true);
      expect(res.is_pinging).toBe(true);
      expect(res.about_order?.running_state).toBe("RUNNING");
    },
  );

  test("running-state: RESTARTING a stopped VPS starts it", async () => {
    await setState(emu(), order, "NOTRUNNING");
    const res = await setState(emu(), order, "RESTARTING");
    expect(res.running_vps_info.running_state).toBe("RUNNING");
  });

  test("running-state: a bad state is a 400 naming running_state", async () => {
    const res = await emu().api("PUT", orderPath(order, "/vps/running-state"), {
      request: { running_state: "ASLEEP" },
    });
    const err = errorOf(res);
    expect(err.status).toBe(400);
    expect(err.fieldName).toBe("running_state");
  });
});

describe("R5 status and R7 data-transfer usage", () => {
  const emu = useEmulator({ dedicatedServers: true });

  test("status: live VPS info and host info with free memory and disk", async () => {
    const created = await createVps(emu(), {}, { domain: "status.example.com" });
    const res = await emu().api("GET", orderPath(created.about_order, "/vps"));
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("get_vps_status_response");
    const body = GetVpsStatusSchema.parse(record(res.body));
    expect(body.running_vps_info.running_state).toBe("RUNNING");
    // Free space is what the host has minus what its VPSs hold, so it is below the total by at least this VPS.
    const host = body.host_server_info!;
    expect(host.host_mem_mb_free).toBeGreaterThan(0);
    expect(host.host_mem_mb_free).toBeLessThanOrEqual(host.host_mem_mb_total! - HOST_RESERVED_MEM_MB - 1024);
    expect(host.host_disk_gb_free).toBeGreaterThan(0);
    expect(body.about_order?.order_oid).toBe(created.about_order.order_oid);
  });

  test("data-transfer-usage: usage info, live info and host info", async () => {
    const created = await createVps(emu(), {}, { domain: "usage.example.com" });
    const res = await emu().api("GET", orderPath(created.about_order, "/vps/data-transfer-usage"));
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("get_data_transfer_usage_and_other_vps_status_information");
    const body = record<GetDataTransferUsageResponse>(res.body);
    expect(body.data_transfer_usage_info).toMatchObject({ allowance_gb: 500, disk_used_mb: 1800 });
    expect(body.running_vps_info?.running_state).toBe("RUNNING");
    expect(body.host_server_info?.host_mem_mb_total).toBeGreaterThan(0);
  });

  test("status: a dedicated server has no VPS resource (404)", async () => {
    const bob = DEMO_ACCOUNTS[2]!.apiKey;
    const orders = record<GetOrdersResponse>(
      (await emu().api("GET", "/orders", undefined, { apiKey: bob })).body,
    );
    const physical = orders.about_orders!.find((o) => o.server_type === "PHYSICAL")!;
    const err = errorOf(await emu().api("GET", orderPath(physical, "/vps"), undefined, { apiKey: bob }));
    expect(err.status).toBe(404);
    expect(err.code).toBe("EMU_ERR_VPS_NOT_FOUND");
  });
});

describe("R6 DELETE .../vps", () => {
  const emu = useEmulator();

  test("delete: shuts down, cancels, credits unused time; the order stays readable but inactive", async () => {
    const order = (await createVps(emu(), {}, { domain: "bye.example.com" })).about_order;
    const res = await emu().api("DELETE", orderPath(order, "/vps"));
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("delete_server_response");
    const body = record<DeleteServerResponse>(res.body);
    expect(body.human_readable_message).toBe("Server removed");
    expect(body.cancel_messages).toEqual([
      "bye.example.com is being shut down.",
      expect.stringMatching(/^A \$\d+\.\d\d credit has been added to your account\.$/),
      "If you need to un-cancel the server please contact our support team.",
      "Thank you for having hosted bye.example.com with us.",
    ]);

    const after = await getOrder(emu(), order.order_oid);
    expect(after.running_state).toBe("NOTRUNNING");
    expect(after.billing_info?.cancellation_date?.ms_since_epoch).toBeGreaterThan(0);
    const active = record<GetOrdersResponse>((await emu().api("GET", "/orders")).body).about_orders!;
    expect(active.map((o) => o.order_oid)).not.toContain(order.order_oid);
    const all = record<GetOrdersResponse>(
      (await emu().api("GET", "/orders;include_inactive=Y")).body,
    ).about_orders!;
    expect(all.map((o) => o.order_oid)).toContain(order.order_oid);
    const billing = record<{ billing_methods: { orders_on_this_billing_method: { order_oid: number }[] }[] }>(
      (await emu().api("GET", "/billing-methods")).body,
    );
    expect(
      billing.billing_methods.flatMap((m) => m.orders_on_this_billing_method.map((o) => o.order_oid)),
    ).not.toContain(order.order_oid);
    expect(
      emu()
        .snapshot()
        .find((o) => o.orderOid === order.order_oid),
    ).toMatchObject({ cancelled: true, runningState: "NOTRUNNING" });
  });

  test("delete: afterwards status is 404, changes are 409, a second DELETE is 409", async () => {
    const order = (await createVps(emu(), {}, { domain: "gone.example.com" })).about_order;
    await emu().api("DELETE", orderPath(order, "/vps"));
    expect(errorOf(await emu().api("GET", orderPath(order, "/vps"))).code).toBe("EMU_ERR_VPS_NOT_FOUND");
    expect(errorOf(await emu().api("GET", orderPath(order, "/vps/data-transfer-usage"))).status).toBe(404);
    const again = errorOf(await emu().api("DELETE", orderPath(order, "/vps")));
    expect(again).toMatchObject({ status: 409, code: "EMU_ERR_ORDER_CANCELLED" });
    for (const [method, path, body] of [
      ["PUT", "/vps/running-state", { running_state: "RUNNING" }],
      ["PUT", "/vps/parameters", { memory_mb: 2048 }],
      ["PUT", "/vps/host-server", {}],
      ["PUT", "/vps/reinstall", {}],
    ] as const) {
      expect(errorOf(await emu().api(method, orderPath(order, path), body)).status).toBe(409);
    }
  });

  test("delete: a stopped VPS is cancelled too", async () => {
    const order = (await createVps(emu(), {}, { domain: "stopbye.example.com" })).about_order;
    await setState(emu(), order, "NOTRUNNING");
    expect((await emu().api("DELETE", orderPath(order, "/vps"))).status).toBe(200);
  });
});

describe("R12 PUT .../ptr", () => {
  const emu = useEmulator();

  test("ptr: sets a name from a form body for the given ip, and for the primary ip by default", async () => {
    const order = (await createVps(emu(), {}, { domain: "ptr.example.com" })).about_order;
    const ip = order.allocated_ips!.primary_ip!;
    const form = { contentType: "application/x-www-form-urlencoded" };
    const res = await emu().api("PUT", orderPath(order, `/ptr;ip=${ip}`), undefined, {
      ...form,
      raw: "domain_name=mail.example.com",
    });
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("jaxrs_response");
    expect(record<{ human_readable_message: string; response_type: string }>(res.body)).toMatchObject({
      response_type: "OK",
      human_readable_message: `Reverse DNS for ${ip} set to mail.example.com.`,
    });
    const cleared = await emu().api("PUT", orderPath(order, "/ptr"), undefined, {
      ...form,
      raw: "domain_name=",
    });
    expect(record<{ human_readable_message: string }>(cleared.body).human_readable_message).toMatch(
      /Removed/,
    );
    const json = await emu().api("PUT", orderPath(order, "/ptr"), { domain_name: "json.example.com" });
    expect(json.status).toBe(200);
  });

  test("ptr: an address of another server or a bad name is a 400 naming the field", async () => {
    const order = (await createVps(emu(), {}, { domain: "ptr2.example.com" })).about_order;
    const form = { contentType: "application/x-www-form-urlencoded" };
    expect(
      errorOf(
        await emu().api("PUT", orderPath(order, "/ptr;ip=1.2.3.4"), undefined, {
          ...form,
          raw: "domain_name=a.example.com",
        }),
      ).fieldName,
    ).toBe("ip");
    expect(
      errorOf(
        await emu().api("PUT", orderPath(order, "/ptr"), undefined, { ...form, raw: "domain_name=bad_name" }),
      ).fieldName,
    ).toBe("domain_name");
    expect(
      errorOf(await emu().api("PUT", orderPath(order, "/ptr"), undefined, { ...form, raw: "other=1" }))
        .fieldName,
    ).toBe("domain_name");
  });
});
