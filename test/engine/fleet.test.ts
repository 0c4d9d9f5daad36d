// examples/fleet end to end against the emulator: a loop of VPSs with one kept stopped; starting/stopping through
// config, scaling down (an orphan delete). Not run again here for three VPSs (CPU, issue 67): a preview that orders
// nothing and an `up` with no change that makes none (quickstart.test.ts), a stop outside Pulumi found by refresh and
// undone by the next up (refresh-dynamic.test.ts, whose program sets runningState as this one does), destroy
// (lifecycle.test.ts).
import { describeCliOnly } from "./describe-cli";
import { liveOrders, startScenario, vpsOps, type Scenario } from "./e2e-support";

jest.setTimeout(180_000);

describeCliOnly("fleet", () => {
  let s: Scenario;
  const states = () =>
    Object.fromEntries(
      s.emulator
        .snapshot()
        .filter((o) => !o.cancelled)
        .map((o) => [o.domainName, o.runningState]),
    );

  beforeAll(async () => {
    s = await startScenario("fleet");
  });
  afterAll(async () => s?.close());

  test("up orders three VPSs and keeps the last one stopped", async () => {
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ "node-0": "create", "node-1": "create", "node-2": "create" });
    expect(states()).toEqual({
      "node0.fleet.example.com": "RUNNING",
      "node1.fleet.example.com": "RUNNING",
      "node2.fleet.example.com": "NOTRUNNING",
    });
    expect(r.outputs.states).toEqual(states());
    expect(Object.keys(r.outputs.ips as object)).toHaveLength(3);
  });

  test("moving the stopped slot starts one VPS and stops another, in place", async () => {
    await s.stack.setConfig("stopped", "0");
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ "node-0": "update", "node-1": "same", "node-2": "update" });
    expect(states()).toEqual({
      "node0.fleet.example.com": "NOTRUNNING",
      "node1.fleet.example.com": "RUNNING",
      "node2.fleet.example.com": "RUNNING",
    });
  });

  test("scaling down to two deletes the VPS no longer declared", async () => {
    await s.stack.setConfig("count", "2");
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ "node-0": "same", "node-1": "same", "node-2": "delete" });
    expect(liveOrders(s.emulator)).toHaveLength(2);
  });
});
