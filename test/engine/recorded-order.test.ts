// Every existing VPS counted by the budget (issue 40, item 3), through the real CLI against the emulator: an order
// placed outside Pulumi carries no creation nonce of the stack, so the provider finds its live order by the order the
// state records (`__orderOid`, provider/impl/lookahead/vps-lookahead.ts). On the native plugin the VPS is brought in with
// `pulumi import`; on the dynamic Vps, which `pulumi import` cannot serve, with adoptOrderOid, then removed from the
// program (docs/vps.md: no change). After an up that changes nothing, a resize past maxMonthlyIncreaseUsd fails
// `pulumi preview` naming the VPS and its growth, and its fee is counted in monthlyBudgetUsd: a budget between the
// account's fees before and after the resize fails, one at the total after passes. Nothing is changed meanwhile.
import * as fs from "node:fs";
import * as path from "node:path";
import { setStackLimits } from "./budget-support";
import { describeCliOnly } from "./describe-cli";
import { startScenario, type Scenario } from "./e2e-support";
import {
  describeNative,
  importNativeVps,
  orderOutsidePulumi,
  pulumiFailure,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(600_000);

interface FrontEnd {
  start(): Promise<Scenario>;
  /** Brings the order `oid` into the stack as `legacy` (1024 MB), then runs an up that changes nothing. */
  bringIn(s: Scenario, oid: number): Promise<void>;
  /** Sets legacy's memoryMb in the program. */
  resize(s: Scenario, memoryMb: number): Promise<void>;
}

const dollars = (text: string): number => Number(text.replace("$", ""));

function recordedOrderTests(front: FrontEnd): void {
  let s: Scenario;
  beforeAll(async () => {
    s = await front.start();
  });
  afterAll(async () => {
    await s?.close();
  });

  test("a resize past maxMonthlyIncreaseUsd fails preview, and its fee is counted in monthlyBudgetUsd", async () => {
    const oid = await orderOutsidePulumi(s, "legacy.example.com");
    await front.bringIn(s, oid);
    const state = await s.stack.exportState();
    expect(state).toContain(`"__orderOid": ${oid}`);

    await front.resize(s, 4096);
    const mark = s.mark();
    await setStackLimits(s, { maxMonthlyIncreaseUsd: "1" });
    const text = await pulumiFailure(s.stack.cli, "preview");
    const said =
      /\[RIMU_ERR_BUDGET\] this run takes .* from (\$[\d.]+) to (\$[\d.]+),.*/.exec(text)?.[0] ?? text;
    expect(said).toMatch(/over the \$1\.00 one run may add \(rimuhosting:maxMonthlyIncreaseUsd\)/);
    const [, from, to] = /from (\$[\d.]+) to (\$[\d.]+)/.exec(said)!;
    const growth = dollars(to!) - dollars(from!);
    expect(growth).toBeGreaterThan(1);
    expect(said).toContain(`Adding the most: legacy +$${growth.toFixed(2)} (`);

    // The account's fees before the resize are within this budget; with legacy's growth they are over it.
    await setStackLimits(s, {
      maxMonthlyIncreaseUsd: undefined,
      monthlyBudgetUsd: dollars(from!).toFixed(2),
    });
    expect(await pulumiFailure(s.stack.cli, "preview")).toMatch(
      new RegExp(
        `from \\${from} to \\${to}, over the monthly budget of \\${from} \\(rimuhosting:monthlyBudgetUsd\\)`,
      ),
    );
    await setStackLimits(s, { monthlyBudgetUsd: dollars(to!).toFixed(2) });
    await pulumiText(s.stack.cli, "preview");
    expect(s.mutationsSince(mark)).toEqual([]);
    await setStackLimits(s, { monthlyBudgetUsd: undefined });
  });
}

describeNative("yaml", "a `pulumi import`ed VPS counted by the budget, native plugin", () => {
  const program = (memoryMb: number) => `resources:
  legacy:
    type: rimuhosting:index:Vps
    properties:
      domainName: legacy.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      memoryMb: ${memoryMb}
      diskSpaceMb: 20480
`;
  const write = (s: Scenario, memoryMb: number) => {
    const file = path.join(s.stack.cli.programDir, "Pulumi.yaml");
    const project = fs.readFileSync(file, "utf8").replace(/\nresources:[\s\S]*$/, "\n");
    fs.writeFileSync(file, `${project}${program(memoryMb)}`);
  };
  recordedOrderTests({
    start: () => startNativeScenario(writeYamlProgram("recorded-order", "resources: {}\n")),
    bringIn: async (s, oid) => {
      await importNativeVps(s.stack.cli, "legacy", oid);
      write(s, 1024);
      // No preview: the update's display alone says whether legacy changed (a preview would run the program again).
      const up = await pulumiText(s.stack.cli, "up", "--yes", "--skip-preview");
      expect(up).not.toMatch(/[~+-] .*legacy/);
    },
    resize: async (s, memoryMb) => write(s, memoryMb),
  });
});

describeCliOnly("a VPS adopted, then adoptOrderOid removed, counted by the budget, dynamic Vps", () => {
  recordedOrderTests({
    start: () =>
      startScenario("recorded-order", { programDir: path.join(__dirname, "fixtures", "recorded-order") }),
    bringIn: async (s, oid) => {
      await s.stack.setConfig("adoptOrderOid", String(oid));
      await s.stack.up();
      await s.stack.removeConfig("adoptOrderOid");
      const mark = s.mark();
      await s.stack.up();
      expect(s.mutationsSince(mark)).toEqual([]);
    },
    resize: (s, memoryMb) => s.stack.setConfig("memoryMb", String(memoryMb)),
  });
});
