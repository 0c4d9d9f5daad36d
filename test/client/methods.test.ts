/** Every client method (R1–R17) against the real emulator over 127.0.0.1. */
import { CREATION_TOKEN_KEY, isReconciled } from "../../provider/client/index.js";
import { expectNoSecret } from "./support/secrets.js";
import { DEMO_API_KEY, newVpsRequest, startClientFixture, type ClientFixture } from "./support/emulator.js";

let fx: ClientFixture;

beforeEach(async () => {
  fx = await startClientFixture();
});

afterEach(async () => {
  await fx.close();
  expectNoSecret(fx.logs, DEMO_API_KEY);
});

describe("client: catalogue (R13–R17)", () => {
  it("listDistributions returns distro_infos", async () => {
    const res = await fx.client.listDistributions();
    expect(res.response_type).toBe("OK");
    expect(res.distro_infos?.map((d) => d.distro_code)).toContain("deb12.64");
  });

  it("listPricingPlans filters by server type, data centre and price", async () => {
    const all = await fx.client.listPricingPlans();
    const vps = await fx.client.listPricingPlans({
      serverType: "VPS",
      dcLocation: "DCDALLAS",
      priceUnder: 40,
    });
    expect(all.pricing_plan_infos?.length).toBeGreaterThan(vps.pricing_plan_infos?.length ?? 0);
    expect(vps.pricing_plan_infos?.length).toBeGreaterThan(0);
    for (const plan of vps.pricing_plan_infos ?? []) {
      expect(plan.server_type).toBe("VPS");
      expect(plan.monthly_recurring_fee ?? 0).toBeLessThan(40);
    }
  });

  it("listDataCenters returns location codes", async () => {
    const res = await fx.client.listDataCenters();
    expect(res.data_center_infos?.map((d) => d.data_center_location_code)).toContain("DCDALLAS");
  });

  it("quoteNewVm prices a request without creating anything", async () => {
    const res = await fx.client.quoteNewVm(newVpsRequest());
    expect(res.monthly_recurring_amt?.amt).toBeGreaterThan(0);
    expect(fx.emulator.snapshot()).toHaveLength(0);
  });

  it("listBillingMethods returns the account's billing methods", async () => {
    const res = await fx.client.listBillingMethods();
    expect(res.billing_methods?.length).toBeGreaterThan(0);
    expect(typeof res.billing_methods?.[0]?.billing_oid).toBe("number");
  });
});

describe("client: order lifecycle (R1–R12)", () => {
  it("createVps creates one order carrying the creation token, and echoes the generated password", async () => {
    const res = await fx.client.createVps(newVpsRequest(), { creationToken: "methods-token-1" });
    expect(isReconciled(res)).toBe(false);
    expect(res.about_order.domain_name).toBe("web1.example.com");
    expect(res.about_order.meta_data).toContainEqual({
      key_name: CREATION_TOKEN_KEY,
      value: "methods-token-1",
    });
    expect(typeof res.new_order_request?.instantiation_options?.password).toBe("string");
    expect(fx.emulator.snapshot()).toHaveLength(1);
    // The password never reaches a log line.
    expectNoSecret(fx.logs, res.new_order_request!.instantiation_options!.password!);
  });

  it("reads an order every way: listOrders (filters), getOrder, getVpsStatus, getDataTransferUsage", async () => {
    const created = await fx.client.createVps(newVpsRequest(), { creationToken: "tok-read" });
    const oid = created.about_order.order_oid;
    const ref = { orderOid: oid, domainName: created.about_order.domain_name };

    const list = await fx.client.listOrders();
    expect(list.about_orders?.map((o) => o.order_oid)).toEqual([oid]);
    const byToken = await fx.client.listOrders({ metaSearch: { [CREATION_TOKEN_KEY]: "tok-read" } });
    expect(byToken.about_orders?.map((o) => o.order_oid)).toEqual([oid]);
    const byOtherToken = await fx.client.listOrders({ metaSearch: { [CREATION_TOKEN_KEY]: "tok-other" } });
    expect(byOtherToken.about_orders).toEqual([]);
    const byOid = await fx.client.listOrders({ orderOids: [oid], serverType: "VPS", dcLocation: "DCDALLAS" });
    expect(byOid.about_orders?.map((o) => o.order_oid)).toEqual([oid]);
    const bySearch = await fx.client.listOrders({ search: "web1" });
    expect(bySearch.about_orders?.map((o) => o.order_oid)).toEqual([oid]);

    expect((await fx.client.getOrder(ref)).about_order.order_oid).toBe(oid);
    expect((await fx.client.getOrder(oid)).about_order.order_oid).toBe(oid);
    const status = await fx.client.getVpsStatus(ref);
    expect(status.running_vps_info.running_state).toBe("RUNNING");
    const usage = await fx.client.getDataTransferUsage(ref);
    expect(usage.response_type).toBe("OK");
    expect(usage.data_transfer_usage_info).toBeDefined();
  });

  it("setRunningState stops, starts and restarts", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    const stopped = await fx.client.setRunningState(oid, "NOTRUNNING");
    expect(stopped.running_vps_info.running_state).toBe("NOTRUNNING");
    expect((await fx.client.getOrder(oid)).about_order.running_state).toBe("NOTRUNNING");
    const started = await fx.client.setRunningState(oid, "RUNNING");
    expect(started.running_vps_info.running_state).toBe("RUNNING");
    const restarted = await fx.client.setRunningState(oid, "RESTARTING");
    expect(restarted.running_vps_info.running_state).toBe("RUNNING");
  });

  it("changeParameters resizes memory and disk (totals)", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    const res = await fx.client.changeParameters(oid, { memory_mb: 2048, disk_space_mb: 16384 });
    expect(res.resource_change_result.were_resources_changed).toBe(true);
    const order = await fx.client.getOrder(oid);
    expect(order.about_order.vps_parameters).toMatchObject({ memory_mb: 2048, disk_space_mb: 16384 });
  });

  it("reinstallVps keeps the order and replaces the image", async () => {
    const created = await fx.client.createVps(newVpsRequest());
    const oid = created.about_order.order_oid;
    const res = await fx.client.reinstallVps(oid, {
      instantiation_options: { distro: "deb13.64" },
      vps_parameters: { memory_mb: null, disk_space_mb: null },
      dc_location: null,
    });
    expect(res.about_order.order_oid).toBe(oid);
    expect((await fx.client.getOrder(oid)).about_order.distro).toBe("deb13.64");
  });

  it("moveVps moves the VPS to another host", async () => {
    const created = await fx.client.createVps(newVpsRequest());
    const oid = created.about_order.order_oid;
    const before = created.about_order.host_server_oid;
    const res = await fx.client.moveVps(
      oid,
      { pricing_change_option: "CHOOSE_BEST_OPTION", is_update_dns: false },
      { usedDiskMb: 8192 },
    );
    expect(res.about_order.order_oid).toBe(oid);
    expect(res.about_order.host_server_oid).not.toBe(before);
  });

  it("setReverseDns sets a PTR for the primary IP", async () => {
    const created = await fx.client.createVps(newVpsRequest());
    const ip = created.about_order.allocated_ips?.primary_ip ?? undefined;
    const res = await fx.client.setReverseDns(created.about_order.order_oid, ip, "web1.example.com");
    expect(res.response_type).toBe("OK");
    const withoutIp = await fx.client.setReverseDns(created.about_order.order_oid, undefined, "");
    expect(withoutIp.response_type).toBe("OK");
  });

  it("cancelOrder sets a cancellation date and leaves the VPS running", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    await fx.client.cancelOrder(oid);
    const order = await fx.client.getOrder(oid);
    expect(order.about_order.billing_info?.cancellation_date).toBeTruthy();
    expect(order.about_order.running_state).toBe("RUNNING");
  });

  it("deleteVps shuts down and cancels; the order stays readable but leaves the active list", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    const res = await fx.client.deleteVps(oid);
    expect(res.cancel_messages?.length).toBeGreaterThan(0);
    const order = await fx.client.getOrder(oid);
    expect(order.about_order.running_state).toBe("NOTRUNNING");
    expect(order.about_order.billing_info?.cancellation_date).toBeTruthy();
    expect((await fx.client.listOrders({ includeInactive: false })).about_orders).toEqual([]);
    expect(
      (await fx.client.listOrders({ includeInactive: true })).about_orders?.map((o) => o.order_oid),
    ).toEqual([oid]);
  });
});
