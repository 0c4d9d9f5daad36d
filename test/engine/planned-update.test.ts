// A VPS changed outside Pulumi, then a run that changes something else (issue 64 case 2), through the real CLI against
// the emulator, the account's orders and fees counted before and after (docs/cost.md, "A change is what diff()
// plans"; docs/vps.md, "Changed outside Pulumi"). node-0 is ordered at 2048 MB ($16 a month), shrunk by hand to 1024
// MB ($10), and the program then changes only its reverseDns, with `maxMonthlyIncreaseUsd: 0`:
// - the dynamic Vps plans from the state: the preview passes at ±$0 with no restart, and `up` sets the PTR and nothing
//   else (I1, I6); the state keeps 2048 MB, so after a `pulumi refresh` the preview plans the resize back, +$6.00, and
//   the budget refuses it;
// - the native plugin asks the engine to read the VPS before it plans (refresh_before_update): the preview shows the
//   resize back to 2048 MB beside the PTR and prices it (+$6.00, refused at a limit of 0, nothing changed); at a limit
//   of 6, `up` does exactly that.
// One stack per front end.
import { describeCliOnly } from "./describe-cli";
import { setStackLimits } from "./budget-support";
import { startScenario, type Scenario } from "./e2e-support";
import {
  describeNative,
  pulumiFailure,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import * as fs from "node:fs";
import * as path from "node:path";

jest.setTimeout(600_000);

const DOMAIN = "node-0.shrink.example.com";
const PTR = "mail.shrink.example.com";

/** node-0 on the emulator: its order, fee and PTR names. */
const node0 = (s: Scenario) =>
  s.emulator.snapshot().find((order) => order.domainName === DOMAIN && !order.cancelled)!;

/** node-0 as the API reports it: memory, running state, fee and the PTR name of its address. */
async function node0Now(s: Scenario) {
  const { orderOid, monthlyFeeUsd, ptr, ips } = node0(s);
  const order = (await s.client.getOrder({ orderOid, domainName: DOMAIN })).about_order;
  return {
    memoryMb: order.vps_parameters?.memory_mb,
    runningState: order.running_state,
    fee: monthlyFeeUsd,
    ptr: ptr[ips[0] ?? ""],
  };
}

/** What the account is billed a month, in cents. */
const accountCents = (s: Scenario): number =>
  s.emulator
    .snapshot()
    .filter((order) => !order.cancelled)
    .reduce((sum, order) => sum + Math.round(order.monthlyFeeUsd * 100), 0);

const routesSince = (s: Scenario, mark: number) => s.mutationsSince(mark).map((change) => change.route);

/** node-0 shrunk by hand from 2048 MB ($16) to 1024 MB ($10): the program and the state still say 2048. */
async function shrinkByHand(s: Scenario): Promise<void> {
  expect(await node0Now(s)).toMatchObject({ memoryMb: 2048, fee: 16 });
  await s.client.changeParameters({ orderOid: node0(s).orderOid, domainName: DOMAIN }, { memory_mb: 1024 });
  expect(await node0Now(s)).toMatchObject({ memoryMb: 1024, fee: 10 });
}

describeCliOnly(
  "a VPS shrunk by hand, then only reverseDns changes: the dynamic Vps (fixtures/budget-order)",
  () => {
    let s: Scenario;
    beforeAll(async () => {
      s = await startScenario("budget-order", {
        programDir: path.join(__dirname, "fixtures", "budget-order"),
        config: { memoryMb: "2048" },
      });
    });
    afterAll(async () => s?.close());

    test("the preview passes at ±$0, up sets the PTR alone (no restart, the fee stays), after a refresh the resize back is planned", async () => {
      await pulumiText(s.stack.cli, "up", "--yes");
      await shrinkByHand(s);
      await s.stack.setConfigs({ reverseDns: PTR });
      await setStackLimits(s, { maxMonthlyIncreaseUsd: "0" });
      const cents = accountCents(s);
      const mark = s.mark();
      const preview = await pulumiText(s.stack.cli, "preview");
      expect(preview).not.toMatch(/restart|resiz|\+\$6\.00/i);
      expect(s.mutationsSince(mark)).toEqual([]);
      await pulumiText(s.stack.cli, "up", "--yes");
      expect({ changes: routesSince(s, mark), cents: accountCents(s) }).toEqual({
        changes: ["setReverseDns"],
        cents,
      });
      expect(await node0Now(s)).toEqual({ memoryMb: 1024, runningState: "RUNNING", fee: 10, ptr: PTR });
      // The state kept 2048 MB: a refresh reads the 1024, and the way back to 2048 is then the plan, priced and judged.
      const next = s.mark();
      await pulumiText(s.stack.cli, "refresh", "--yes");
      expect(await pulumiFailure(s.stack.cli, "preview")).toMatch(/RIMU_ERR_BUDGET[\s\S]*\+\$6\.00/);
      expect(s.mutationsSince(next)).toEqual([]);
    });
  },
);

/** node-0 in YAML at `memoryMb`, with the PTR name `reverseDns` if given. */
const program = (reverseDns?: string) => `resources:
  node-0:
    type: rimuhosting:index:Vps
    properties:
      domainName: ${DOMAIN}
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: 2048
      diskSpaceMb: 20480
${reverseDns ? `      reverseDns: ${reverseDns}\n` : ""}`;

describeNative(
  "yaml",
  "a VPS shrunk by hand, then only reverseDns changes: the native plugin (a YAML program)",
  () => {
    let s: Scenario;
    let dir = "";
    beforeAll(async () => {
      dir = writeYamlProgram("planned-update", program());
      s = await startNativeScenario(dir);
    });
    afterAll(async () => s?.close());

    test("the preview shows the resize back and its price, and up does exactly that", async () => {
      await pulumiText(s.stack.cli, "up", "--yes");
      await shrinkByHand(s);
      const file = path.join(dir, "Pulumi.yaml");
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/resources:[\s\S]*$/, program(PTR)));
      await setStackLimits(s, { maxMonthlyIncreaseUsd: "0" });
      const cents = accountCents(s);
      const mark = s.mark();
      // Read before the plan: the resize back to 2048 MB is in it, priced, and the limit of 0 refuses it (I2).
      expect(await pulumiFailure(s.stack.cli, "preview")).toMatch(/RIMU_ERR_BUDGET[\s\S]*\+\$6\.00/);
      expect(s.mutationsSince(mark)).toEqual([]);
      await setStackLimits(s, { maxMonthlyIncreaseUsd: "6" });
      const preview = await pulumiText(s.stack.cli, "preview");
      expect(preview).toMatch(/memoryMb/);
      expect(preview).toMatch(/\+\$6\.00/);
      expect(s.mutationsSince(mark)).toEqual([]);
      await pulumiText(s.stack.cli, "up", "--yes");
      expect({ changes: routesSince(s, mark), cents: accountCents(s) }).toEqual({
        changes: ["changeParameters", "setReverseDns"],
        cents: cents + 600,
      });
      expect(await node0Now(s)).toEqual({ memoryMb: 2048, runningState: "RUNNING", fee: 16, ptr: PTR });
    });
  },
);
