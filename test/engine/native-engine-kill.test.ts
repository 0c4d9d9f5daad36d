// The guarantees of docs/vps.md on the native path, through the real CLI: a Python program with the generated SDK
// and the same configuration as examples/lifecycle, taken through the scenarios the dynamic Vps is held to
// (engine-kill.ts, failures.test.ts): the engine killed before the order is placed and mid-resize, a create that
// fails halfway. Each must leave exactly one order per VPS, known to the state, and a stack that refresh, up and
// destroy can handle. One stack goes through them in turn. The engine killed after the order is placed, on the native
// plugin: test/engine/killed-runs.test.ts (its YAML stacks killed before and after the read-back). An order's answer
// lost on the way back (the provider finds its own order by its token) is the shared core's, which the plugin calls
// as it is: test/provider/impl/vps-create-once.test.ts, "drop after commit".
import { liveOrders, type Scenario } from "./e2e-support";
import { EngineKillRun } from "./engine-kill";
import { checkpointOf, killingProxy, runKilled } from "./kill-run";
import {
  describeNative,
  nativeOps,
  pythonEnv,
  pythonVirtualenv,
  startNativeScenario,
  writePythonProgram,
} from "./native-programs";

jest.setTimeout(600_000);

/** examples/lifecycle/index.ts, in Python on the generated SDK. */
const LIFECYCLE = `import pulumi
import pulumi_rimuhosting as rimuhosting

config = pulumi.Config()
app = rimuhosting.Vps(
    "app",
    domain_name=config.get("domainName") or "app.lifecycle.example.com",
    dc_location="DCDALLAS",
    pricing_plan_code="MIRO1B",
    distro=config.get("distro") or "deb12.64",
    memory_mb=config.get_int("memoryMb") or 1024,
    disk_space_mb=config.get_int("diskSpaceMb") or 20480,
    host_server_oid=config.get("hostServerOid"),
    allow_reinstall=config.get_bool("allowReinstall") or False,
    running_state=config.get("runningState"),
    adopt_order_oid=config.get_int("adoptOrderOid"),
)
pulumi.export("orderOid", app.order_oid)
pulumi.export("memoryMb", app.memory_mb)
`;

async function lifecycleScenario(): Promise<Scenario> {
  const venv = pythonVirtualenv()!;
  const dir = writePythonProgram("native-lifecycle", LIFECYCLE, venv);
  return startNativeScenario(dir, { env: pythonEnv(dir, venv) });
}

const clean = { leaked: 0, duplicated: 0, stranded: 0, halfApplied: 0, notes: [] };

describeNative("python", "the guarantees on the native path", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await lifecycleScenario();
  });
  afterAll(async () => s?.close());

  test("engine killed before the order is placed: the next up orders exactly one VPS", async () => {
    let kill = (): void => undefined;
    const proxy = await killingProxy(new URL(s.emulator.baseUrl), "POST /r/orders/new-vps", () => kill());
    try {
      await s.stack.setConfig("rimuhosting:baseUrl", { value: `${proxy.url}/r` });
      await runKilled(s.stack.cli!, "up", "the order request", (killNow) => {
        kill = killNow;
        return proxy.matched();
      });
    } finally {
      proxy.close();
    }
    expect(s.emulator.snapshot()).toEqual([]);
    await s.stack.setConfig("rimuhosting:baseUrl", { value: s.emulator.baseUrl });
    const r = await s.stack.up();
    expect(nativeOps(r)).toEqual({ app: "create" });
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([r.outputs.orderOid]);
    await s.stack.cli!.refresh({ clearPendingCreates: true });
    expect((await checkpointOf(s)).deployment.pending_operations ?? []).toEqual([]);
  });

  test("engine killed mid-resize: nothing leaked, duplicated, stranded or half-applied; destroy cancels it", async () => {
    const [created] = liveOrders(s.emulator);
    const resized = await EngineKillRun.on(s).kill("resize");
    expect({ ...resized, seen: undefined }).toMatchObject({ outcome: "recovered", ...clean });
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([created!.orderOid]);
    expect(nativeOps(await s.stack.destroy())).toEqual({ app: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });

  test("a create that fails halfway is recorded; refresh and up finish it, destroy cancels it", async () => {
    await s.stack.setConfig("runningState", { value: "NOTRUNNING" });
    s.emulator.injectFault({ route: "setRunningState", kind: "status", status: 400 });
    const failed = await s.stack.up().then(
      () => undefined,
      (e: unknown) => String(e),
    );
    expect(failed).toContain("RIMU_ERR_VPS_INCOMPLETE");
    const [order] = liveOrders(s.emulator);
    const recorded = (await checkpointOf(s)).deployment.resources?.find(
      (x) => x.type === "rimuhosting:index:Vps",
    );
    expect(recorded?.id).toBe(String(order!.orderOid));
    await s.stack.refresh();
    expect(nativeOps(await s.stack.up())).toEqual({ app: "update" });
    expect((await s.client.getOrder(order!.orderOid)).about_order.running_state).toBe("NOTRUNNING");
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([order!.orderOid]);
    expect(nativeOps(await s.stack.destroy())).toEqual({ app: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
