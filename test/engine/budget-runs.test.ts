// The budget's promises through the real CLI (docs/cost.md, "What a budget limits, and when"), on the dynamic Vps
// (examples/fleet) and the native plugin (a YAML program), each counting the emulator's orders before and after:
// - a replacement and a new VPS that the preview passes complete in `up`, and the account ends at the preview's
//   figures (the replaced order counted once, until the run cancels it);
// - stacks of one account started together, each order taking 3 s, leave the account within its budget: a run
//   refused says what it ordered and withdrew, and its state holds nothing ("Several runs at once");
// - a shrink and a create landing exactly on the budget both happen; then, changed outside Pulumi, the preview and
//   `rimuhosting-bill --stack` say the account is over with the live figures, and a no-op preview passes.
import type { DcLocation } from "../../provider/index";
import { createStackDriver, type StackDriver } from "./stack-driver";
import { describeCliOnly } from "./describe-cli";
import { BILL, billOfStack, previewJson, setStackLimits } from "./budget-support";
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
import * as fs from "node:fs";
import * as path from "node:path";

jest.setTimeout(900_000);

/** One front end: its program and how a test declares the fleet's VPSs on it. */
interface Front {
  type: string;
  /**
   * How many stacks start together: 5 on one front end and 10 on the other (each stack is a `pulumi up`, its
   * program and its provider: 10 of them on both took 3 minutes of a CI run; the rule is the same code on both).
   */
  concurrentStacks: number[];
  start(): Promise<Scenario>;
  /** The program's directory, for the extra stacks of the concurrent runs. */
  programDir(s: Scenario): string;
  /** Declares `count` VPSs, node-0 in `dcLocation` (a change of it replaces node-0), the others in DCDALLAS. */
  declare(s: Scenario, stack: StackDriver, count: number, node0Dc: DcLocation): Promise<void>;
}

/** The demo account's active orders (not cancelled), from the emulator's own records. */
const activeOrders = (s: Scenario) =>
  s.emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

/** What the account is billed a month, in cents. */
const accountCents = (s: Scenario): number =>
  activeOrders(s).reduce((sum, order) => sum + Math.round(order.monthlyFeeUsd * 100), 0);

const activeOrderCount = (s: Scenario): number => activeOrders(s).length;

/** The VPSs a stack's state holds (`pulumi stack export`). */
async function vpssInState(stack: StackDriver, type: string): Promise<number> {
  const state = JSON.parse(await stack.exportState()) as { deployment?: { resources?: { type: string }[] } };
  return (state.deployment?.resources ?? []).filter((r) => r.type === type).length;
}

function budgetRuns(front: Front): void {
  let s: Scenario;
  beforeAll(async () => {
    s = await front.start();
  });
  afterAll(async () => s?.close());

  test("a replacement and a new VPS the preview passes: up completes, at the preview's figures", async () => {
    await front.declare(s, s.stack, 1, "DCDALLAS");
    await pulumiText(s.stack.cli, "up", "--yes");
    const before = accountCents(s);
    // The replacement of node-0 (another data centre) and a new node-1.
    await front.declare(s, s.stack, 2, "DCLONDON");
    const steps = await previewJson(s, front.type);
    const planned = Object.values(steps).map((step) =>
      Math.round(Number(step.newState!.inputs!.plannedMonthlyFeeUsd) * 100),
    );
    const after = planned.reduce((sum, one) => sum + one, 0);
    expect(steps["node-0"]!.op).toMatch(/replace/);
    // The budget exactly at the end total the preview plans: node-0's old order counted beside its replacement
    // (billed `before`) would refuse node-1.
    expect(before).toBeGreaterThan(0);
    await setStackLimits(s, { monthlyBudgetUsd: (after / 100).toFixed(2) });
    await pulumiText(s.stack.cli, "preview");
    await pulumiText(s.stack.cli, "up", "--yes");
    expect({ orders: activeOrderCount(s), cents: accountCents(s) }).toEqual({ orders: 2, cents: after });
    await setStackLimits(s, { monthlyBudgetUsd: undefined });
    await pulumiText(s.stack.cli, "destroy", "--yes");
  });

  test.each(front.concurrentStacks.map((stacks) => [stacks]))(
    "%i stacks of one account started together, each order taking 3 s: the account stays within the budget",
    async (stacks) => {
      expect(activeOrderCount(s)).toBe(0);
      await front.declare(s, s.stack, 1, "DCDALLAS");
      const fee = Number(
        (await previewJson(s, front.type))["node-0"]?.newState?.inputs?.plannedMonthlyFeeUsd ?? NaN,
      );
      const budget = 3 * fee;
      const drivers: StackDriver[] = [];
      try {
        for (let i = 0; i < stacks; i++) {
          const stack = await createStackDriver({
            programDir: front.programDir(s),
            stackName: `team-${i}`,
            workDir: s.workDir,
            config: {
              "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
              "rimuhosting:baseUrl": s.emulator.baseUrl,
              "rimuhosting:monthlyBudgetUsd": budget.toFixed(2),
            },
          });
          drivers.push(stack);
          await front.declare(s, stack, 1, "DCDALLAS");
        }
        s.emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 3000, times: stacks });
        const runs = await Promise.allSettled(drivers.map((stack) => pulumiText(stack.cli, "up", "--yes")));
        const held = await Promise.all(drivers.map((stack) => vpssInState(stack, front.type)));
        const refusals = runs.flatMap((run) => (run.status === "rejected" ? [String(run.reason)] : []));
        expect(accountCents(s)).toBeLessThanOrEqual(Math.round(budget * 100));
        expect(activeOrderCount(s)).toBe(3);
        expect(held.reduce((sum, one) => sum + one, 0)).toBe(3);
        runs.forEach((run, i) =>
          expect({ stack: i, held: held[i] }).toEqual({ stack: i, held: run.status === "fulfilled" ? 1 : 0 }),
        );
        expect(refusals).toHaveLength(stacks - 3);
        for (const text of refusals)
          expect(text).toMatch(
            /\[RIMU_ERR_BUDGET\] .*(ordered it as order \d+, then found .*order \d+ was cancelled at once|Nothing was ordered)/,
          );
      } finally {
        for (const stack of drivers) {
          await pulumiText(stack.cli, "destroy", "--yes").catch(() => undefined);
          await stack.close();
        }
      }
    },
  );
}

describeCliOnly("the budget's promises on the dynamic Vps (examples/fleet)", () => {
  budgetRuns({
    type: VPS_TYPE,
    concurrentStacks: [5],
    start: () => startScenario("fleet", { config: { count: "1", stopped: "-1" } }),
    programDir: () => path.join(EXAMPLES_DIR, "fleet"),
    declare: async (_s, stack, count, node0Dc) => {
      await stack.setConfigs({
        count: String(count),
        stopped: "-1",
        dcLocations: node0Dc === "DCDALLAS" ? "DCDALLAS" : `${node0Dc},DCDALLAS`,
      });
    },
  });
});

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
  budgetRuns({
    type: NATIVE_VPS_TYPE,
    concurrentStacks: [10],
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
  });
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
    const steps = await previewJson(s, NATIVE_VPS_TYPE);
    const fee = Number(steps["team-a-1"]!.newState!.inputs!.plannedMonthlyFeeUsd);
    const file = path.join(dir, "Pulumi.yaml");
    const program = (a: number, b: number) =>
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/config:[\s\S]*$/, twoProviders(a, b)));
    // Each provider's budget holds its own two VPSs, not the account's four: judged alone, both passed the preview
    // and up then refused the second provider's orders.
    program(2 * fee, 3.5 * fee);
    const mark = s.mark();
    for (const command of [["preview"], ["up", "--yes"]]) {
      const text = await pulumiFailure(s.stack.cli, ...command);
      expect(text).toMatch(
        // The engine checks the two providers' VPSs in the order their registrations arrive: either may carry it.
        /\[RIMU_ERR_BUDGET\] this run takes the account's monthly fees \(every active order on it, with the changes of the [34] VPSs checked so far\) from \$0\.00 to \$[\d.]+, over the monthly budget of \$[\d.]+ \(provider 'team-[ab]': monthlyBudgetUsd\)/,
      );
    }
    expect(s.mutationsSince(mark)).toEqual([]);
    // Each provider's budget covers the account: room for the four under both, and both pass, preview and up.
    program(4 * fee, 4 * fee);
    await pulumiText(s.stack.cli, "preview");
    await pulumiText(s.stack.cli, "up", "--yes");
    expect(activeOrderCount(s)).toBe(4);
    await pulumiText(s.stack.cli, "destroy", "--yes");
  });
});

/**
 * node-0 at `memoryMb` and, with `withWeb`, a new web: a shrink and a create in one run. A YAML program registers its
 * resources in parallel, so the engine may check web before node-0, and a check judges with the changes checked so
 * far (docs/cost.md, "Which resource fails"): web depends on node-0 so that the shrink is checked first. That also
 * makes the shrink first, the one order a dependsOn can force here: a create made first needs the shrink checked
 * before it and not yet made, which no dependsOn gives (the dependent's check waits for its dependency's step), and
 * leaving the order to timing left the check order to it too (node-1 was checked first on the dynamic Vps once, and
 * the preview failed as documented). The guard crediting a checked shrink to a create made before it is
 * test/provider/impl/order-guard.test.ts's, in both orders.
 */
const shrinkAndCreate = (memoryMb: number, withWeb: boolean) => `resources:
${["node-0", ...(withWeb ? ["web"] : [])]
  .map(
    (name) => `  ${name}:
    type: rimuhosting:index:Vps
    properties:
      domainName: ${name}.shrink.example.com
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: ${name === "node-0" ? memoryMb : 1024}
      diskSpaceMb: 20480
${name === "web" ? "    options:\n      dependsOn:\n        - ${node-0}\n" : ""}`,
  )
  .join("")}`;

describeNative("yaml", "a shrink and a create on the native plugin (a YAML program)", () => {
  let s: Scenario;
  let dir = "";
  beforeAll(async () => {
    dir = writeYamlProgram("budget-shrink", shrinkAndCreate(2048, false));
    s = await startNativeScenario(dir);
  });
  afterAll(async () => s?.close());

  test("landing exactly on the budget, both go through; a cent under, the preview fails and nothing is ordered", async () => {
    await pulumiText(s.stack.cli, "up", "--yes");
    const file = path.join(dir, "Pulumi.yaml");
    fs.writeFileSync(
      file,
      fs.readFileSync(file, "utf8").replace(/resources:[\s\S]*$/, shrinkAndCreate(1024, true)),
    );
    const steps = await previewJson(s, NATIVE_VPS_TYPE);
    const after = Object.values(steps).reduce(
      (sum, step) => sum + Math.round(Number(step.newState!.inputs!.plannedMonthlyFeeUsd) * 100),
      0,
    );
    // The account now, plus the new VPS, is over the end total: only the shrink makes room.
    expect(accountCents(s) + 1000).toBeGreaterThan(after);
    await setStackLimits(s, { monthlyBudgetUsd: ((after - 1) / 100).toFixed(2) });
    const mark = s.mark();
    await pulumiFailure(s.stack.cli, "up", "--yes");
    expect(s.mutationsSince(mark)).toEqual([]);
    await setStackLimits(s, { monthlyBudgetUsd: (after / 100).toFixed(2) });
    await pulumiText(s.stack.cli, "up", "--yes");
    expect({ orders: activeOrderCount(s), cents: accountCents(s) }).toEqual({ orders: 2, cents: after });
    await changedOutsidePulumi(s);
    await setStackLimits(s, { monthlyBudgetUsd: undefined, maxMonthlyIncreaseUsd: undefined });
    await pulumiText(s.stack.cli, "destroy", "--yes");
  });
});

/**
 * Changed outside Pulumi, on the same stack (docs/cost.md, "Changed outside Pulumi"; no stack of its own, for CI's
 * time): node-0 grown by hand takes the live account over a budget that the recorded state is within, and the
 * preview and the bill say so with the live figures; then node-0 shrunk by hand below what the program and the state
 * say, and a no-op preview passes `maxMonthlyIncreaseUsd: 0` (the budget prices what diff() plans: nothing).
 */
async function changedOutsidePulumi(s: Scenario): Promise<void> {
  const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  const node0 = activeOrders(s).find((order) => order.domainName === "node-0.shrink.example.com")!;
  const recorded = accountCents(s);
  await s.client.changeParameters(node0.orderOid, { memory_mb: 2048 });
  const live = accountCents(s);
  const budget = live - 100;
  expect(recorded).toBeLessThan(budget); // the state alone is within it; the live account is not
  await setStackLimits(s, { monthlyBudgetUsd: (budget / 100).toFixed(2) });
  const mark = s.mark();
  const over = `its active orders are billed ${dollars(live)} a month, over the monthly budget of ${dollars(budget)}`;
  expect(await pulumiText(s.stack.cli, "preview")).toContain(over);
  const bill = await billOfStack(s.stack.cli, process.execPath, [BILL, "--stack", s.stack.cli.name]);
  // The bill: the stack's live fees (node-0 before and after at what it is billed now, not the state's record), the
  // provider's words with the live account's figures, and no room "to spare"; a run that adds nothing is not failed.
  expect(bill.stdout).toMatch(/\| `node-0` \| unchanged \| (\$[\d.]+) \| \1 \| ±\$0\.00 \|/);
  expect(bill.stdout).toContain(over);
  expect(bill.stdout).not.toContain("to spare");
  expect({
    status: bill.status,
    verdict: /\*\*Budget \(stack config\): (.*?)\*\*/.exec(bill.stdout)?.[1],
  }).toEqual({
    status: 0,
    verdict: "⚠️ warning.",
  });
  expect(s.mutationsSince(mark)).toEqual([]);
  // Shrunk by hand below the program's 1024 MB: not a change of the run, so it adds nothing.
  await s.client.changeParameters(node0.orderOid, { memory_mb: 512 });
  await setStackLimits(s, { monthlyBudgetUsd: undefined, maxMonthlyIncreaseUsd: "0" });
  const shrunk = s.mark();
  await pulumiText(s.stack.cli, "preview", "--expect-no-changes");
  expect(s.mutationsSince(shrunk)).toEqual([]);
}
