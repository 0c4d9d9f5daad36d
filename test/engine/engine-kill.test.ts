// The engine killed (SIGKILL, the whole process group: pulumi, its language host, the program and the provider host)
// while a VPS is being ordered, then `pulumi up` again: exactly one order, known to the state, and destroy cancels it.
// Only the real CLI has the engine's own handling of an interrupted deployment (pending operations in the
// checkpoint), so without a CLI this scenario is skipped (with that reason in its name).
// The machinery and the after-commit scenario live in engine-kill.ts, shared with engine-kill-operations.test.ts (the
// other operations killed) and the "engineKilled" column of `npm run fault-matrix`.
import { describeCliOnly } from "./describe-cli";
import { liveOrders, startScenario, vpsOps, type Scenario } from "./e2e-support";
import { checkpointOf, EngineKillRun, killingProxy, runKilled } from "./engine-kill";

jest.setTimeout(240_000);

// Skipped without a CLI: there are no pending operations, locks or `pulumi cancel` to test.

describeCliOnly("the engine killed mid-create", () => {
  let s: Scenario;

  beforeEach(async () => {
    s = await startScenario("lifecycle");
  });
  afterEach(async () => s?.close());

  test("before anything is ordered: the next up orders exactly one VPS; destroy cancels it", async () => {
    // The provider's calls pass through a loopback proxy that kills the engine when the order request starts
    // and never forwards it: the engine dies with the order in flight but not placed.
    let kill = (): void => undefined;
    const proxy = await killingProxy(new URL(s.emulator.baseUrl), "POST /r/orders/new-vps", () => kill());
    try {
      await s.stack.setConfig("rimuhosting:baseUrl", `${proxy.url}/r`);
      await runKilled(s.stack.cli!, "up", "the order request", (killNow) => {
        kill = killNow;
        return proxy.matched();
      });
    } finally {
      proxy.close();
    }
    expect(s.emulator.snapshot()).toEqual([]);
    await s.stack.setConfig("rimuhosting:baseUrl", s.emulator.baseUrl);

    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ app: "create" });
    const live = liveOrders(s.emulator);
    expect(live.map((o) => o.orderOid)).toEqual([r.outputs.orderOid]);
    // the killed run's pending create is only a note now: clearing it loses nothing
    await s.stack.cli!.refresh({ clearPendingCreates: true });
    expect((await checkpointOf(s)).deployment.pending_operations ?? []).toEqual([]);
    expect(vpsOps(await s.stack.destroy())).toEqual({ app: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });

  test("after the order is committed: the next up takes the order back by itself, orders nothing", async () => {
    // The order is placed, its answer held back, and the engine dies before it can record anything. The order
    // carries this resource's creation token and no state of the backend holds it: the next up takes it back
    // (docs/cost.md, I4) and records it; then the engine's pending create is cleared.
    const r = await EngineKillRun.on(s).kill("create");
    expect({ ...r, seen: undefined }).toMatchObject({
      outcome: "taken back",
      leaked: 0,
      duplicated: 0,
      stranded: 0,
      halfApplied: 0,
      notes: [],
    });
    expect(r.seen.followUpMutations.filter((m) => m.route === "createVps")).toEqual([]);
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([r.seen.orderOid]);
    const after = await checkpointOf(s);
    expect(after.deployment.pending_operations ?? []).toEqual([]);
    expect(after.deployment.resources?.find((x) => x.type.endsWith(":Vps"))?.id).toBe(
      String(r.seen.orderOid),
    );
    const mark = s.mark();
    expect(vpsOps(await s.stack.up())).toEqual({ app: "same" });
    expect(s.mutationsSince(mark)).toEqual([]);

    expect(vpsOps(await s.stack.destroy())).toEqual({ app: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
