// The budget's promises through the real CLI when one account's budget is judged by several at once (docs/cost.md,
// "What a budget limits, and when"), on the dynamic Vps (examples/fleet) and the native plugin (YAML programs),
// each counting the emulator's orders before and after:
// - stacks of one account started together, each order taking 3 s, leave the account within its budget: a run
//   refused says what it ordered and withdrew, and its state holds nothing ("Several runs at once");
// - two explicit providers of one program on one account, each with its budget: the preview judges their VPSs
//   together, as the orders are judged, and its verdict is the up's.
// A shrink and a create landing on the budget in either order, and changed outside Pulumi:
// budget-shrink-create.test.ts.
import type { DcLocation } from "../../provider/index";
import { createStackDriver, type StackDriver } from "./stack-driver";
import { accountCents, activeOrderCount, activeOrders, quotedCents } from "./budget-support";
import { EXAMPLES_DIR, VPS_TYPE, startScenario, type Scenario } from "./e2e-support";
import {
  NATIVE_VPS_TYPE,
  describeNative,
  pulumiFailure,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import * as fs from "node:fs";
import * as path from "node:path";

jest.setTimeout(900_000);

/** One front end: its program and how a test declares the fleet's VPSs on it. */
interface Front {
  type: string;
  start(): Promise<Scenario>;
  /** The program's directory, for the stacks of the concurrent runs. */
  programDir(s: Scenario): string;
  /** Declares `count` VPSs, node-0 in `dcLocation` (a change of it replaces node-0), the others in DCDALLAS. */
  declare(s: Scenario, stack: StackDriver, count: number, node0Dc: DcLocation): Promise<void>;
}

/**
 * The VPSs each stack's state holds, read from the file backend's checkpoints in one pass (a `pulumi stack export`
 * per stack cost a CLI process each).
 */
function vpssInStates(workDir: string, stacks: { name: string; type: string }[]): number[] {
  const root = path.join(workDir, "backend", ".pulumi", "stacks");
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((file) =>
    file.endsWith(".json"),
  );
  return stacks.map(({ name, type }) => {
    const file = files.find((one) => path.basename(one) === `${name}.json`);
    if (!file) throw new Error(`no checkpoint of stack ${name} under ${root}`);
    const state = JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as {
      checkpoint?: { latest?: { resources?: { type: string }[] } };
    };
    return (state.checkpoint?.latest?.resources ?? []).filter((r) => r.type === type).length;
  });
}

/**
 * `stacks` stacks of one account, each with one new VPS and the account's budget of two, started together while
 * each order takes 3 s: every fourth stack on `fronts[1]`, so the run holds both front ends. A budget of two, not
 * three: the dynamic Vps's programs start seconds later (TypeScript, the provider host), and by then the YAML stacks'
 * orders are on the account, so the YAML stacks (6 of 8) are the ones ordering at the same moment; the dynamic
 * stacks (2 of 8) show its wiring in the same run. Two dynamic stacks, not half of them: each dynamic `up` is two
 * YAML ones in CPU, and more of them raced no more (issue 67). One run of 8 stacks: a run of 5 as well proved the
 * same promise again with fewer stacks racing, for 5 more `pulumi up`s (about 20 CPU-s).
 * One `pulumi up` per stack: the key comes from the environment (no `config set-all` process), the states are read
 * from the backend in one pass, and the orders are cancelled through the API afterwards (no `destroy`).
 */
async function concurrentRuns(
  s: Scenario,
  fronts: [Front, Front],
  stacks: number,
  fee: number,
): Promise<void> {
  const kept = 2;
  const budget = kept * fee;
  const drivers: { stack: StackDriver; front: Front }[] = [];
  try {
    for (let i = 0; i < stacks; i++) {
      const front = fronts[i % 4 === 3 ? 1 : 0]!;
      const stack = await createStackDriver({
        programDir: front.programDir(s),
        stackName: `team-${i}`,
        workDir: s.workDir,
        env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
        config: {
          "rimuhosting:baseUrl": s.emulator.baseUrl,
          "rimuhosting:monthlyBudgetUsd": budget.toFixed(2),
        },
      });
      drivers.push({ stack, front });
      await front.declare(s, stack, 1, "DCDALLAS");
    }
    s.emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 3000, times: stacks });
    const runs = await Promise.allSettled(drivers.map(({ stack }) => pulumiText(stack.cli, "up", "--yes")));
    const held = vpssInStates(
      s.workDir,
      drivers.map(({ stack, front }) => ({ name: stack.cli.name, type: front.type })),
    );
    const refusals = runs.flatMap((run) => (run.status === "rejected" ? [String(run.reason)] : []));
    expect(accountCents(s)).toBeLessThanOrEqual(Math.round(budget * 100));
    expect(activeOrderCount(s)).toBe(kept);
    expect(held.reduce((sum, one) => sum + one, 0)).toBe(kept);
    runs.forEach((run, i) =>
      expect({ stack: i, held: held[i] }).toEqual({ stack: i, held: run.status === "fulfilled" ? 1 : 0 }),
    );
    expect(refusals).toHaveLength(stacks - kept);
    for (const text of refusals)
      expect(text).toMatch(
        /\[RIMU_ERR_BUDGET\] .*(ordered it as order \d+, then found .*order \d+ was cancelled at once|Nothing was ordered)/,
      );
  } finally {
    s.emulator.app.emulator.faults.clear();
    for (const { stack } of drivers) await stack.close();
    // The account emptied for the next run: the stacks' states are left in the backend the file removes.
    for (const order of activeOrders(s))
      await s.client.deleteVps({ orderOid: order.orderOid, domainName: order.domainName });
  }
}

function budgetRuns(front: Front, concurrentWith: Front): void {
  let s: Scenario;
  beforeAll(async () => {
    s = await front.start();
  });
  afterAll(async () => s?.close());

  test.each([8])(
    "%i stacks of one account, on both front ends, started together, each order taking 3 s: within the budget",
    async (stacks) => {
      expect(activeOrderCount(s)).toBe(0);
      // The fee of each stack's one VPS: the emulator's quote, the figure the provider plans with (a preview for it
      // cost a CLI run; the runs' outcome, two kept and the rest refused, shows the budget was two such fees).
      const fee = (await quotedCents(s, 1024)) / 100;
      await concurrentRuns(s, [front, concurrentWith], stacks, fee);
    },
  );
}

/** The dynamic Vps in examples/fleet. */
const DYNAMIC: Front = {
  type: VPS_TYPE,
  start: () => startScenario("fleet", { config: { count: "1", stopped: "-1" } }),
  programDir: () => path.join(EXAMPLES_DIR, "fleet"),
  declare: async (_s, stack, count, node0Dc) => {
    await stack.setConfigs({
      count: String(count),
      stopped: "-1",
      dcLocations: node0Dc === "DCDALLAS" ? "DCDALLAS" : `${node0Dc},DCDALLAS`,
    });
  },
};

/** A YAML program of `count` VPSs named after the stack's `site` config, node-0 in the `node0Dc` config. */
const yamlFleet = (count: number) => `config:
  node0Dc:
    type: string
    default: DCDALLAS
resources:
${Array.from(
  { length: count },
  (_, i) => `  node-${i}:
    type: rimuhosting:index:Vps
    properties:
      domainName: node${i}.\${pulumi.stack}.budget.example.com
      dcLocation: ${i === 0 ? "${node0Dc}" : "DCDALLAS"}
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
`,
).join("")}`;

describeNative("yaml", "the budget's promises on the native plugin (a YAML program)", () => {
  let dir = "";
  // The concurrent runs here: their stacks alternate between this YAML program and the dynamic Vps.
  budgetRuns(
    {
      type: NATIVE_VPS_TYPE,
      start: async () => {
        dir = writeYamlProgram("budget-runs", yamlFleet(2));
        return startNativeScenario(dir);
      },
      programDir: () => dir,
      declare: async (_s, stack, count, node0Dc) => {
        // One program for every stack of the project: the count is the number of resources written.
        const file = path.join(dir, "Pulumi.yaml");
        fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/config:[\s\S]*$/, yamlFleet(count)));
        await stack.setConfigs({ node0Dc });
      },
    },
    DYNAMIC,
  );
});

/** Two explicit providers on the demo account, each with its budget (`team-a`, `team-b`) and two VPSs. */
const twoProviders = (budgetA: number, budgetB: number) => `config:
  key:
    type: string
  emulatorUrl:
    type: string
resources:
${(
  [
    ["team-a", budgetA],
    ["team-b", budgetB],
  ] as const
)
  .map(
    ([team, budget]) => `  ${team}:
    type: pulumi:providers:rimuhosting
    properties:
      apiKey: \${key}
      baseUrl: \${emulatorUrl}
      monthlyBudgetUsd: ${budget.toFixed(2)}
${[1, 2]
  .map(
    (i) => `  ${team}-${i}:
    type: rimuhosting:index:Vps
    properties:
      domainName: ${team}-${i}.budget.example.com
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
    options:
      provider: \${${team}}
`,
  )
  .join("")}`,
  )
  .join("")}`;

describeNative("yaml", "two explicit providers on one account (a YAML program)", () => {
  let s: Scenario;
  let dir = "";
  beforeAll(async () => {
    dir = writeYamlProgram("budget-providers", twoProviders(1000, 1000));
    s = await startNativeScenario(dir);
    // Quoted: a YAML program reads a config value made only of digits (as API keys are) as a number.
    await s.stack.cli.setConfig("key", { value: `"${DEMO_API_KEY}"`, secret: true });
    await s.stack.cli.setConfig("emulatorUrl", { value: s.emulator.baseUrl });
  });
  afterAll(async () => s?.close());

  test("the preview judges their VPSs together, as the orders are judged: its verdict is the up's", async () => {
    // Each VPS's fee: the emulator's quote, which the provider plans with (the runs below judge at multiples of it).
    const fee = (await quotedCents(s, 1024)) / 100;
    const file = path.join(dir, "Pulumi.yaml");
    const program = (a: number, b: number) =>
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/config:[\s\S]*$/, twoProviders(a, b)));
    // Each provider's budget holds its own two VPSs, not the account's four: judged alone, both passed the preview
    // and up then refused the second provider's orders.
    // `up` with its preview, one CLI process: its preview fails, so the up orders nothing (a `preview` of its own
    // before it showed the same verdict again).
    program(2 * fee, 3.5 * fee);
    const mark = s.mark();
    const text = await pulumiFailure(s.stack.cli, "up", "--yes");
    expect(text).toMatch(
      // The engine checks the two providers' VPSs in the order their registrations arrive: either may carry it.
      /\[RIMU_ERR_BUDGET\] this run takes the account's monthly fees \(every active order on it, with the changes of the [34] VPSs checked so far\) from \$0\.00 to \$[\d.]+, over the monthly budget of \$[\d.]+ \(provider 'team-[ab]': monthlyBudgetUsd\)/,
    );
    expect(s.mutationsSince(mark)).toEqual([]);
    // Each provider's budget covers the account: room for the four under both, and both pass, preview and up (one
    // `pulumi up`). The orders are left to the scenario's close, not a `destroy`.
    program(4 * fee, 4 * fee);
    await pulumiText(s.stack.cli, "up", "--yes");
    expect(activeOrderCount(s)).toBe(4);
  });
});
