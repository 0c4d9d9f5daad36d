// examples/quickstart end to end against the emulator: preview, up, no-op up, update in place, replace, refresh
// with drift, destroy. Through the real CLI (skipped, with the reason, without one).
import { describeCliOnly } from "./describe-cli";
import { isSecret } from "./property-values";
import { liveOrders, startScenario, vpsOps, type Scenario } from "./e2e-support";

jest.setTimeout(180_000);

describeCliOnly("quickstart", () => {
  let s: Scenario;
  let orderOid: number;

  beforeAll(async () => {
    s = await startScenario("quickstart");
  });
  afterAll(async () => s?.close());

  test("preview plans one VPS and makes no mutation", async () => {
    const mark = s.mark();
    const r = await s.stack.preview();
    expect(vpsOps(r)).toEqual({ web: "create" });
    expect(s.mutationsSince(mark)).toEqual([]);
    expect(s.emulator.snapshot()).toEqual([]);
  });

  test("up orders the cheapest plan with the newest Debian and exports its IP and price", async () => {
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ web: "create" });
    expect(r.outputs.planCode).toBe("MiroVPSLowContention"); // the cheapest VPS plan in DCDALLAS
    expect(r.outputs.debian).toBe("deb13.64");
    expect(r.outputs.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(typeof r.outputs.monthlyPriceUsd).toBe("number");
    expect(isSecret(r.outputs.rootPassword)).toBe(true);
    const live = liveOrders(s.emulator);
    expect(live).toHaveLength(1);
    expect(live[0]?.runningState).toBe("RUNNING");
    orderOid = live[0]?.orderOid ?? 0;
  });

  test("up with no changes changes nothing and makes no mutation", async () => {
    const mark = s.mark();
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ web: "same" });
    expect(s.mutationsSince(mark)).toEqual([]);
  });

  test("more memory resizes the VPS in place", async () => {
    await s.stack.setConfig("memoryMb", "2048");
    // `up` runs with --skip-preview: its own steps say update, not replace (a preview's plan is the first test's).
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ web: "update" });
    expect(r.outputs.memory).toBe(2048);
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([orderOid]);
    const order = await s.client.getOrder(orderOid);
    expect(order.about_order.vps_parameters?.memory_mb).toBe(2048);
  });

  test("a new domain name replaces the VPS: a new order, the old one cancelled", async () => {
    await s.stack.setConfig("domainName", "quickstart2.example.com");
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ web: "replace" });
    const live = liveOrders(s.emulator);
    expect(live).toHaveLength(1);
    expect(live[0]?.orderOid).not.toBe(orderOid);
    expect(s.emulator.snapshot().find((o) => o.orderOid === orderOid)?.cancelled).toBe(true);
    orderOid = live[0]?.orderOid ?? 0;
  });

  test("refresh reports memory resized outside Pulumi as drift, and the next up puts it back", async () => {
    await s.client.changeParameters(orderOid, { memory_mb: 4096 });
    const r = await s.stack.refresh();
    expect(vpsOps(r)).toEqual({ web: "refresh" });
    const up = await s.stack.up();
    expect(vpsOps(up)).toEqual({ web: "update" });
    expect(up.outputs.memory).toBe(2048);
    const order = await s.client.getOrder(orderOid);
    expect(order.about_order.vps_parameters?.memory_mb).toBe(2048);
  });

  test("a VPS stopped outside Pulumi shows in refresh, and up leaves it alone while runningState is unset", async () => {
    await s.client.setRunningState(orderOid, "NOTRUNNING");
    // A stop made outside Pulumi is drift whether or not the program sets runningState (docs/vps.md, "Drift"), so
    // the refresh records it as a change; the quickstart leaves runningState unset, so up has nothing to do.
    const r = await s.stack.refresh();
    expect(vpsOps(r)).toEqual({ web: "refresh" });
    const mark = s.mark();
    expect(vpsOps(await s.stack.up())).toEqual({ web: "same" });
    expect(s.mutationsSince(mark)).toEqual([]);
  });

  test("destroy cancels every order: nothing left running or billed", async () => {
    const r = await s.stack.destroy();
    expect(vpsOps(r)).toEqual({ web: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
    expect(s.emulator.snapshot().every((o) => o.cancelled)).toBe(true);
  });
});
