// Failure paths end to end, through the real CLI: a partial failure leaves a stack that refresh, up and destroy all
// handle, and nothing stays billed. One stack goes through the three ways out in turn, each from a create failed
// halfway and each ending destroyed: destroy straight after it; refresh, then the next up finishes the same VPS,
// then destroy; the half-made VPS vanishing, then refresh forgets it and up orders a new one.
import { describeCliOnly } from "./describe-cli";
import { liveOrders, startScenario, vpsOps, type Scenario } from "./e2e-support";
import { rejectionOf } from "../helpers/promises";

jest.setTimeout(240_000);

const failure = (p: Promise<unknown>) => rejectionOf(p, Error);

describeCliOnly("a partial failure", () => {
  let s: Scenario;

  beforeAll(async () => {
    // runningState NOTRUNNING makes a create two calls: order the VPS (it starts running), then stop it.
    s = await startScenario("lifecycle", { config: { runningState: "NOTRUNNING" } });
  });
  afterAll(async () => s?.close());

  /** `up` orders the VPS, then the call that stops it fails with a 500: a VPS exists, its create is partial. */
  async function createHalfway(): Promise<number> {
    expect(liveOrders(s.emulator)).toEqual([]);
    s.emulator.injectFault({ route: "setRunningState", kind: "status", status: 500 });
    const error = await failure(s.stack.up());
    expect(error).toBeDefined();
    const live = liveOrders(s.emulator);
    expect(live).toHaveLength(1);
    expect(live[0]?.runningState).toBe("RUNNING");
    return live[0]!.orderOid;
  }

  test("destroy works straight after it", async () => {
    await createHalfway();
    expect(vpsOps(await s.stack.destroy())).toEqual({ app: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });

  test("refresh works after it, the next up finishes the same VPS (no second order), and destroy cancels it", async () => {
    const oid = await createHalfway();
    const ordersBefore = s.emulator.snapshot().length;
    const refreshed = await s.stack.refresh();
    expect(Object.keys(vpsOps(refreshed))).toEqual(["app"]);
    expect(await s.stack.exportState()).toContain(String(oid));
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ app: "update" });
    expect(r.outputs.orderOid).toBe(oid);
    expect(r.outputs.runningState).toBe("NOTRUNNING");
    expect(liveOrders(s.emulator).map((o) => [o.orderOid, o.runningState])).toEqual([[oid, "NOTRUNNING"]]);
    expect(s.emulator.snapshot()).toHaveLength(ordersBefore);
    expect(vpsOps(await s.stack.destroy())).toEqual({ app: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });

  test("if the half-made VPS then vanishes, refresh forgets it and up orders a new one", async () => {
    const oid = await createHalfway();
    await s.client.deleteVps(oid);
    const refreshed = await s.stack.refresh();
    expect(vpsOps(refreshed)).toEqual({ app: "delete" });
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ app: "create" });
    expect(r.outputs.orderOid).not.toBe(oid);
    expect(liveOrders(s.emulator)).toHaveLength(1);
    await s.stack.destroy();
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
