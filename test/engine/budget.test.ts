// The budget through the real CLI against the emulator, on the dynamic Vps (examples/fleet: three new 1 GB VPSs) and
// on the native plugin (a YAML program of the same three): over monthlyBudgetUsd or maxMonthlyIncreaseUsd, preview
// and up (with its preview) fail with 0 orders placed, whatever --parallel; within them they pass; warn mode warns
// and orders; on the native plugin, `up --skip-preview` is refused at its first check, with nothing ordered. And
// plannedMonthlyFeeUsd in `pulumi preview --json`, which never makes a change by itself.
// Over and within each limit runs on the native plugin only (CPU, issue 67): --parallel is the engine's, the same
// for both front ends, and the words are the core's (test/provider/impl/budget.test.ts asserts them word for word).
// On the dynamic Vps the same verdicts go through the CLI in the money model's generated cases, each limit a cent
// either side of its boundary, a failed preview ordering nothing (I2, money-model-cli-dynamic.test.ts), and its
// refusal's words in budget-flags.test.ts (`up --target`, with its preview).
import { DEMO_API_KEY } from "../../emulator/index";
import { describeCliOnly } from "./describe-cli";
import { changesSince, previewJson, setStackLimits } from "./budget-support";
import { VPS_TYPE, liveOrders, startScenario, type Scenario } from "./e2e-support";
import {
  NATIVE_VPS_TYPE,
  describeNative,
  pulumiFailure,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(600_000);

const NAMES = ["node-0", "node-1", "node-2"];

/**
 * The budget's scenarios, for one front end: `setLimits` writes the settings (stack config), `type` is the VPS's
 * engine type.
 */
function budgetScenarios(
  start: () => Promise<Scenario>,
  type: string,
  setLimits: (s: Scenario, limits: Record<string, string | undefined>) => Promise<void>,
  overAndWithinRuns: boolean,
): void {
  let s: Scenario;
  let fee = 0;

  beforeAll(async () => {
    s = await start();
  });
  afterAll(async () => {
    await s?.close();
  });

  test("preview --json carries each new VPS's quoted fee as plannedMonthlyFeeUsd", async () => {
    const steps = await previewJson(s, type);
    expect(Object.keys(steps).sort()).toEqual(NAMES);
    const fees = NAMES.map((name) => steps[name]!.newState!.inputs!.plannedMonthlyFeeUsd);
    fee = fees[0] as number;
    expect(fee).toBeGreaterThan(0);
    expect(fees).toEqual([fee, fee, fee]);
  });

  /**
   * Each limit, over and within, with each command once and each end of --parallel once, crossed: the engine checks
   * resources one at a time whatever --parallel says (docs/cost.md, "Which resource fails"), so the verdict is the
   * same for both commands at both ends; all four pairs for each limit were 16 runs on the two front ends for what
   * these 8 show.
   */
  const overAndWithin: [
    limit: string,
    over: () => number,
    within: () => number,
    runs: [command: string[], parallel: string][],
  ][] = [
    [
      "monthlyBudgetUsd",
      () => 3 * fee - 0.01,
      () => 3 * fee,
      [
        [["preview"], "1"],
        [["up", "--yes"], "16"],
      ],
    ],
    [
      "maxMonthlyIncreaseUsd",
      () => 2 * fee + 0.5,
      () => 3 * fee + 0.5,
      [
        [["preview"], "16"],
        [["up", "--yes"], "1"],
      ],
    ],
  ];

  if (overAndWithinRuns)
    test.each(overAndWithin)(
      "%s below the three fees: preview and up fail with 0 orders, at --parallel 1 and 16; at or above: preview passes",
      async (limit, over, within, runs) => {
        await setLimits(s, { [limit]: over().toFixed(2) });
        const mark = s.mark();
        for (const [command, parallel] of runs) {
          const text = await pulumiFailure(s.stack.cli, ...command, "--parallel", parallel);
          expect({
            command,
            parallel,
            budget: /\[RIMU_ERR_BUDGET\] this run takes .*/.exec(text)?.[0],
          }).toEqual({
            command,
            parallel,
            budget: expect.stringContaining(
              `with the changes of the 3 VPSs checked so far) from $0.00 to $${(3 * fee).toFixed(2)}`,
            ),
          });
          expect(text).toContain(`node-0 +$${fee.toFixed(2)} (new)`);
        }
        expect(changesSince(s, mark)).toEqual([]);
        await setLimits(s, { [limit]: within().toFixed(2) });
        await pulumiText(s.stack.cli, "preview", "--parallel", "16");
        expect(changesSince(s, mark)).toEqual([]);
        await setLimits(s, { [limit]: undefined });
      },
    );

  test("warn mode: the same words as a warning, and up orders the three VPSs", async () => {
    await setLimits(s, { monthlyBudgetUsd: "1", budgetEnforcement: "warn" });
    const text = await pulumiText(s.stack.cli, "up", "--yes");
    expect(text).toMatch(
      /over budget \(rimuhosting:budgetEnforcement: warn\): this run takes the account's monthly fees/,
    );
    expect(changesSince(s, 0).filter((c) => c.route === "createVps")).toHaveLength(3);
    await setLimits(s, { monthlyBudgetUsd: undefined, budgetEnforcement: undefined });
  });

  test("unchanged VPSs: their fee now, no change; a run that adds nothing is within maxMonthlyIncreaseUsd 0", async () => {
    const steps = await previewJson(s, type);
    expect(
      NAMES.map((name) => [steps[name]!.op, steps[name]!.newState!.inputs!.plannedMonthlyFeeUsd]),
    ).toEqual(NAMES.map(() => ["same", fee]));
    await setLimits(s, { maxMonthlyIncreaseUsd: "0" });
    const mark = s.mark();
    await pulumiText(s.stack.cli, "up", "--yes");
    expect(changesSince(s, mark)).toEqual([]);
    await setLimits(s, { maxMonthlyIncreaseUsd: undefined });
  });
}

describeCliOnly("the budget on the dynamic Vps (examples/fleet)", () => {
  budgetScenarios(
    () => startScenario("fleet", { config: { count: "3", stopped: "-1" } }),
    VPS_TYPE,
    setStackLimits,
    false,
  );
});

const YAML_FLEET = `resources:
${NAMES.map(
  (name, i) => `  ${name}:
    type: rimuhosting:index:Vps
    properties:
      domainName: node${i}.budget.example.com
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
`,
).join("")}`;

describeNative("yaml", "the budget on the native plugin (a YAML program)", () => {
  budgetScenarios(
    () => startNativeScenario(writeYamlProgram("budget", YAML_FLEET)),
    NATIVE_VPS_TYPE,
    setStackLimits,
    true,
  );
});

describeNative("yaml", "the budget as an explicit provider's arguments (a YAML program)", () => {
  let s: Scenario;
  const program = `config:
  key:
    type: string
  emulatorUrl:
    type: string
resources:
  capped:
    type: pulumi:providers:rimuhosting
    properties:
      apiKey: \${key}
      baseUrl: \${emulatorUrl}
      monthlyBudgetUsd: 1.5
${YAML_FLEET.replace(/^resources:\n/, "").replace(/diskSpaceMb: 20480\n/g, "diskSpaceMb: 20480\n    options:\n      provider: ${capped}\n")}`;

  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("budget-provider", program));
    // Quoted: a YAML program reads a config value made only of digits (as API keys are) as a number.
    await s.stack.cli.setConfig("key", { value: `"${DEMO_API_KEY}"`, secret: true });
    await s.stack.cli.setConfig("emulatorUrl", { value: s.emulator.baseUrl });
  });
  afterAll(async () => s?.close());

  test("over it, the preview fails naming the provider's argument, and orders nothing", async () => {
    const mark = s.mark();
    const text = await pulumiFailure(s.stack.cli, "up", "--yes");
    expect(text).toMatch(
      /\[RIMU_ERR_BUDGET\] this run takes .* over the monthly budget of \$1\.50 \(provider 'capped': monthlyBudgetUsd\)/,
    );
    expect(s.mutationsSince(mark)).toEqual([]);
  });

  // No preview to stop it: the native plugin's checks judge the budget in `pulumi up` too (vps-check.ts), so the
  // first VPS's check refuses it, before any order (the guard at the order, order-guard.ts, would word it "ordering
  // it …").
  test("up --skip-preview: refused at the first check, naming the provider's argument, and orders nothing", async () => {
    const before = liveOrders(s.emulator).length;
    const mark = s.mark();
    const text = await pulumiFailure(s.stack.cli, "up", "--yes", "--skip-preview");
    expect(text).toMatch(
      /\[RIMU_ERR_BUDGET\] this run takes the account's monthly fees \(every active order on it, with the changes of the [1-3] VPSs? checked so far\) from \$0\.00 to \$[\d.]+, over the monthly budget of \$1\.50 \(provider 'capped': monthlyBudgetUsd\)/,
    );
    expect(text).not.toMatch(/ordering it \(/);
    expect(s.mutationsSince(mark)).toEqual([]);
    expect(liveOrders(s.emulator)).toHaveLength(before);
  });
});
