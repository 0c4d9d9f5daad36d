/** Time-driven transitions, with an injected clock whose "now" the test moves forward. */
import type { GetOrdersResponse, PutCancelledResponse } from "../../contract/index.js";
import type { Clock } from "../../emulator/clock.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { createVps, errorOf, getOrder, orderPath, record } from "./fixtures.js";

describe("cancellation at the end of the billing period", () => {
  let emu: TestEmulator;
  let now = Date.UTC(2026, 0, 10, 12);
  const clock: Clock = {
    now: () => now,
    work: async () => undefined,
    sleep: async () => undefined,
    dispose: () => undefined,
  };
  beforeAll(async () => {
    emu = await startTestEmulator({ clock });
  });
  afterAll(async () => {
    await emu.close();
  });

  test("cancelled: active and running until the date, then inactive, stopped and no longer changeable", async () => {
    const order = (await createVps(emu, {}, { domain: "period.example.com" })).about_order;
    now += 5 * 86_400_000;
    const cancelled = record<PutCancelledResponse>(
      (await emu.api("PUT", orderPath(order, "/cancelled"))).body,
    );
    const date = cancelled.about_order!.billing_info!.cancellation_date!.ms_since_epoch;
    expect(date).toBe(order.billing_info!.order_date!.ms_since_epoch + 30 * 86_400_000);

    now = date - 1000;
    const listed = async () =>
      record<GetOrdersResponse>((await emu.api("GET", "/orders")).body).about_orders!.map((o) => o.order_oid);
    expect(await listed()).toContain(order.order_oid);
    expect((await getOrder(emu, order.order_oid)).running_state).toBe("RUNNING");

    now = date + 1000;
    expect(await listed()).not.toContain(order.order_oid);
    expect((await getOrder(emu, order.order_oid)).running_state).toBe("NOTRUNNING");
    expect(errorOf(await emu.api("GET", orderPath(order, "/vps"))).status).toBe(404);
    expect(
      errorOf(await emu.api("PUT", orderPath(order, "/vps/running-state"), { running_state: "RUNNING" }))
        .status,
    ).toBe(409);
    expect(emu.snapshot().find((o) => o.orderOid === order.order_oid)).toMatchObject({
      cancelled: true,
      runningState: "NOTRUNNING",
    });
  });

  test("delete: the credit is the unused part of the month", async () => {
    const order = (
      await createVps(
        emu,
        { vps_parameters: { memory_mb: 1024, disk_space_mb: 10240 } },
        { domain: "credit.example.com" },
      )
    ).about_order;
    const fee = order.billing_info!.monthly_recurring_fee!;
    now += 15 * 86_400_000;
    const res = record<{ cancel_messages: string[] }>(
      (await emu.api("DELETE", orderPath(order, "/vps"))).body,
    );
    expect(res.cancel_messages[1]).toBe(
      `A $${(Math.round(fee * 50) / 100).toFixed(2)} credit has been added to your account.`,
    );
  });

  test("a VPS ordered again after its cancellation gets a new address, as the provider's preview warns", async () => {
    const spec = { instantiation_options: { domain_name: "again.example.com" } };
    const first = (await createVps(emu, spec, { domain: "again.example.com" })).about_order;
    await emu.api("DELETE", orderPath(first, "/vps"));
    const again = (await createVps(emu, spec, { domain: "again.example.com" })).about_order;
    expect(again.host_server_oid).toBe(first.host_server_oid);
    expect(again.allocated_ips?.primary_ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(again.allocated_ips?.primary_ip).not.toBe(first.allocated_ips?.primary_ip);
  });

  test("status: uptime counts from the last start", async () => {
    const order = (await createVps(emu, {}, { domain: "uptime.example.com" })).about_order;
    now += 90_000;
    const status = record<{ running_vps_info: { vps_uptime_s: number } }>(
      (await emu.api("GET", orderPath(order, "/vps"))).body,
    );
    expect(status.running_vps_info.vps_uptime_s).toBe(90);
    await emu.api("PUT", orderPath(order, "/vps/running-state"), { running_state: "RESTARTING" });
    const after = record<{ running_vps_info: { vps_uptime_s: number } }>(
      (await emu.api("GET", orderPath(order, "/vps"))).body,
    );
    expect(after.running_vps_info.vps_uptime_s).toBe(0);
  });
});
