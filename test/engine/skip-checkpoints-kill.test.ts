// Crash-safe without checkpoints (issue 67 item 2; docs/troubleshooting.md, "Large fleets"): under
// PULUMI_SKIP_CHECKPOINTS=true the engine writes the state once, at the end, so a killed run leaves the state as it
// was before it. A YAML program of 100 VPSs on the native plugin: its `up` is killed (SIGKILL, every process of the
// run) at three points, once the account holds 25, 50 and 75 of its orders, then one more `up`; then an update
// (every VPS resized) killed the same way once 25, 50 and 75 resizes were made, then one more `up`. Each time: no
// duplicate order, no order outside the state, the state equal to the account. The points are found in the
// emulator's records and request log, never by a fixed sleep.
import type { Scenario } from "./e2e-support";
import { runKilled } from "./kill-run";
import {
  NATIVE_VPS_TYPE,
  describeNative,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(1_800_000);

const COUNT = Number(process.env.RIMU_SKIP_CHECKPOINTS_FLEET ?? 100);
const POINTS = [0.25, 0.5, 0.75].map((share) => Math.round(share * COUNT));

const program = (count: number) => `config:
  memoryMb:
    type: integer
    default: 1024
resources:
${Array.from(
  { length: count },
  (_, i) => `  node-${i}:
    type: rimuhosting:index:Vps
    properties:
      domainName: node${i}.fleet.example.com
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: \${memoryMb}
      diskSpaceMb: 20480
`,
).join("")}`;

type State = {
  deployment: { resources?: { type: string; outputs?: { orderOid?: number; memoryMb?: number } }[] };
};

describeNative("yaml", `a ${COUNT}-VPS fleet killed under PULUMI_SKIP_CHECKPOINTS=true`, () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("skip-checkpoints-kill", program(COUNT)), {
      env: { PULUMI_SKIP_CHECKPOINTS: "true" },
    });
  });
  afterAll(async () => s?.close());

  /** The demo account's active orders, from the emulator's own records. */
  const liveOrders = () => s.emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

  /** The state's VPSs against the account: no duplicate, none outside the state, the same sizes. */
  async function stateEqualsAccount(memoryMb: number): Promise<void> {
    const state = JSON.parse(await s.stack.exportState()) as State;
    const held = (state.deployment.resources ?? []).filter((r) => r.type === NATIVE_VPS_TYPE);
    const live = liveOrders();
    expect(held).toHaveLength(COUNT);
    expect(held.map((r) => r.outputs?.orderOid).sort()).toEqual(live.map((o) => o.orderOid).sort());
    expect(new Set(live.map((o) => o.domainName)).size).toBe(COUNT);
    expect(held.map((r) => r.outputs?.memoryMb)).toEqual(held.map(() => memoryMb));
    const listed = (await s.client.listOrders({ includeInactive: false })).about_orders ?? [];
    expect(listed.map((o) => o.vps_parameters?.memory_mb)).toEqual(listed.map(() => memoryMb));
  }

  test("up killed at three points, then one more up: every VPS once, in the state", async () => {
    for (const point of POINTS)
      await runKilled(s.stack.cli!, "up", `${point} orders`, () => liveOrders().length >= point);
    // The killed runs wrote no state: every order they made is taken back by the next up, none ordered twice.
    expect(liveOrders().length).toBeGreaterThanOrEqual(POINTS.at(-1)!);
    await pulumiText(s.stack.cli!, "up", "--yes", "--skip-preview");
    await stateEqualsAccount(1024);
  });

  test("an update killed at three points, then one more up: every VPS resized once, the state equal", async () => {
    await s.stack.setConfig("memoryMb", "2048");
    const resizes = () => s.emulator.requestLog().filter((r) => r.route === "changeParameters").length;
    for (const point of POINTS)
      await runKilled(s.stack.cli!, "up", `${point} resizes`, () => resizes() >= point);
    await pulumiText(s.stack.cli!, "up", "--yes", "--skip-preview");
    await stateEqualsAccount(2048);
    // One resize per VPS: the up after the kills found those made, and made none twice.
    expect(resizes()).toBe(COUNT);
    await pulumiText(s.stack.cli!, "destroy", "--yes", "--skip-preview");
    expect(liveOrders()).toEqual([]);
  });
});
