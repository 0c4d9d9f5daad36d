// examples/fleet end to end against the emulator: a loop of VPSs with one kept stopped; starting/stopping through
// config, scaling down (an orphan delete). Not run again here for three VPSs (CPU, issue 67): a preview that orders
// nothing and an `up` with no change that makes none (quickstart.test.ts), a stop outside Pulumi found by refresh and
// undone by the next up (refresh-dynamic.test.ts, whose program sets runningState as this one does), destroy
// (lifecycle.test.ts). Each VPS created, resized or deleted is said in one line of the stack's diagnostics, not two
// (issue 90: each line is an event the engine processes and lists again, 1,500 of them for an update of 500 VPSs).
import { describeCliOnly } from "./describe-cli";
import { liveOrders, startScenario, vpsOps, type Scenario } from "./e2e-support";

jest.setTimeout(180_000);

const ORDERED =
  /^\[rimuhosting\] Vps \d+: ordered node\d\.fleet\.example\.com, billed \$\d+\.\d\d a month\.$/;
/** A new VPS the program keeps stopped: its stop is said in the line of its order. */
const ORDERED_STOPPED =
  /^\[rimuhosting\] Vps \d+: ordered node\d\.fleet\.example\.com, billed \$\d+\.\d\d a month; its running state set to NOTRUNNING\.$/;
const RESIZED =
  /^\[rimuhosting\] Vps \d+: resized memoryMb, which restarts the VPS; the monthly fee went from \$\d+\.\d\d to \$\d+\.\d\d \(\+\$\d+\.\d\d\), as RimuHosting reported\.$/;
const CANCELLED =
  /^\[rimuhosting\] Vps \d+: shut down and cancelled, no longer billed \(it was billed \$\d+\.\d\d a month\); RimuHosting credited \$\d+\.\d\d for the unused time\.$/;

/**
 * The provider's lines about each VPS in the "Diagnostics:" list at the end of the CLI's display (each diagnostic
 * once; the progress display shows it too), by the VPS's id.
 */
function vpsLines(display: string): Map<string, string[]> {
  const listed = display.split("\n");
  const from = listed.findIndex((line) => line.trim() === "Diagnostics:");
  const byId = new Map<string, string[]>();
  if (from < 0) return byId;
  for (const raw of listed.slice(from + 1)) {
    const line = raw.trim();
    if (/^(Outputs|Resources):$/.test(line)) break;
    const id = /^\[rimuhosting\] Vps (\d+):/.exec(line)?.[1];
    if (id) byId.set(id, [...(byId.get(id) ?? []), line]);
  }
  return byId;
}

describeCliOnly("fleet", () => {
  let s: Scenario;
  let output = "";
  /** The CLI's display since the last call. */
  const take = (): string => {
    const text = output;
    output = "";
    return text;
  };
  const states = () =>
    Object.fromEntries(
      s.emulator
        .snapshot()
        .filter((o) => !o.cancelled)
        .map((o) => [o.domainName, o.runningState]),
    );

  beforeAll(async () => {
    s = await startScenario("fleet", { onCliOutput: (text) => (output += text) });
  });
  afterAll(async () => s?.close());

  test("up orders three VPSs and keeps the last one stopped", async () => {
    take();
    const r = await s.stack.up();
    const said = vpsLines(take());
    expect(vpsOps(r)).toEqual({ "node-0": "create", "node-1": "create", "node-2": "create" });
    expect(states()).toEqual({
      "node0.fleet.example.com": "RUNNING",
      "node1.fleet.example.com": "RUNNING",
      "node2.fleet.example.com": "NOTRUNNING",
    });
    expect(r.outputs.states).toEqual(states());
    expect(Object.keys(r.outputs.ips as object)).toHaveLength(3);
    // One line for each order and its fee; the stopped one's stop is in its line, after its fee.
    const ordered = [...said.values()];
    expect(ordered).toHaveLength(3);
    expect(ordered.flat().filter((l) => ORDERED.test(l))).toHaveLength(2);
    expect(ordered.flat().filter((l) => ORDERED_STOPPED.test(l))).toEqual([
      expect.stringContaining("node2.fleet.example.com"),
    ]);
    for (const lines of ordered) expect(lines).toHaveLength(1);
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

  test("resizing every VPS says each resize and its fee in one line", async () => {
    await s.stack.setConfig("memoryMb", "2048");
    take();
    const r = await s.stack.up();
    const shown = take();
    expect(vpsOps(r)).toEqual({ "node-0": "update", "node-1": "update", "node-2": "update" });
    const said = vpsLines(shown);
    expect(said.size).toBe(3);
    for (const lines of said.values()) expect(lines).toEqual([expect.stringMatching(RESIZED)]);
    // The diff's warning stays: it is what a preview shows.
    for (const node of ["node-0", "node-1", "node-2"])
      expect(shown).toContain(`warning: ${node}: resizing memoryMb restarts the VPS.`);
  });

  test("scaling down to one deletes the VPSs no longer declared, each said in one line", async () => {
    await s.stack.setConfig("count", "1");
    take();
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ "node-0": "same", "node-1": "delete", "node-2": "delete" });
    expect(liveOrders(s.emulator)).toHaveLength(1);
    const said = vpsLines(take());
    expect(said.size).toBe(2);
    for (const lines of said.values()) expect(lines).toEqual([expect.stringMatching(CANCELLED)]);
  });
});
