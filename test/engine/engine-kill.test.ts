// The engine (pulumi, its language host, the program and the provider host) SIGKILLed, the whole process group, in
// the middle of each operation, each followed by what a user runs next (`pulumi cancel`, `pulumi refresh`, then
// `pulumi up` or `pulumi destroy`): no order leaked or duplicated, the stack never stranded, no update half-applied.
// One stack of examples/lifecycle goes through them all in turn (the state each leaves is where the next starts):
// killed before its order is sent (the next up orders exactly one VPS; destroy cancels it), killed after the order is
// committed (the next up takes it back by itself and orders nothing), then killed mid-resize, refresh and delete.
// The emulator is instant (time scale 0) and holds the killed request's answer back so the kill lands after the
// service committed the change. The machinery and the scenarios live in engine-kill.ts; all seven operations, a move,
// a reinstall and a running state too, make the "engineKilled" column of `npm run fault-matrix`. An update killed is
// shown once here (the resize): what differs for the other in-place changes is the provider's refresh and plan after
// it, test/provider/impl/vps-update-safety.test.ts ("a change committed but never recorded").
//
// Only the real CLI has the engine's own handling of an interrupted deployment (its lock, pending operations in the
// checkpoint, `pulumi cancel`), so without a CLI this is skipped (with that reason in its name).
import { describeCliOnly } from "./describe-cli";
import { liveOrders, vpsOps, type Scenario } from "./e2e-support";
import { checkpointOf, EngineKillRun, killingProxy, runKilled, type KillResult } from "./engine-kill";

jest.setTimeout(240_000);

const counts = (r: KillResult) => ({
  leaked: r.leaked,
  duplicated: r.duplicated,
  stranded: r.stranded,
  halfApplied: r.halfApplied,
  notes: r.notes,
});
const NOTHING_WRONG = { leaked: 0, duplicated: 0, stranded: 0, halfApplied: 0, notes: [] };

describeCliOnly("the engine killed mid-operation, one stack through them all", () => {
  let run: EngineKillRun;
  let s: Scenario;

  beforeAll(async () => {
    run = await EngineKillRun.start({ withVps: false });
    s = run.s;
  });
  afterAll(async () => run?.close());

  test("create, before anything is ordered: the next up orders exactly one VPS; destroy cancels it", async () => {
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

  test("create, after the order is committed: the next up takes the order back by itself, orders nothing", async () => {
    // The order is placed, its answer held back, and the engine dies before it can record anything. The order
    // carries this resource's creation token and no state of the backend holds it: the next up takes it back
    // (docs/cost.md, I4) and records it; then the engine's pending create is cleared.
    const r = await run.kill("create");
    expect({ ...r, seen: undefined }).toMatchObject({ outcome: "taken back", ...NOTHING_WRONG });
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
  });

  // The change was committed but the engine died before recording it: the state still shows the old value,
  // refresh reads the new one, and up has nothing left to do (converge compares with the live order, so the
  // change is not sent twice).
  test("resize: the state keeps the old value until refresh; up converges without repeating the change", async () => {
    const r = await run.kill("resize");
    expect(counts(r)).toEqual(NOTHING_WRONG);
    expect(r.seen.target).not.toEqual(r.seen.before);
    expect(String(r.seen.recordedAfterKill)).toBe(String(r.seen.before));
    expect(r.seen.followUpMutations).toEqual([]);
  });

  test("refresh: killed while reading the order; refresh and up then change nothing", async () => {
    const r = await run.kill("refresh");
    expect(counts(r)).toEqual(NOTHING_WRONG);
    expect(r.seen.followUpMutations).toEqual([]);
  });

  test("delete: destroy killed after the cancellation committed; refresh forgets the VPS, destroy finishes", async () => {
    const r = await run.kill("delete");
    expect(counts(r)).toEqual(NOTHING_WRONG);
    expect(r.seen.recordedAfterKill).toBe("in state");
    expect(r.seen.followUpMutations).toEqual([]);
    expect(s.emulator.snapshot().find((o) => o.orderOid === r.seen.orderOid)?.cancelled).toBe(true);
  });
});
