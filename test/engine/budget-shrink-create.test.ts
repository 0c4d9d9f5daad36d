// The budget's promises through the real CLI when a shrink and a create land on it together (docs/cost.md, "What a
// budget limits, and when"), on the dynamic Vps (fixtures/budget-order) and the native plugin (a YAML program), each
// counting the emulator's orders before and after:
// - a shrink and a create landing exactly on the budget both happen, in either order: the emulator holds requests
//   until the test opens them (held-requests.ts), each when its sign is in the request log, never after a sleep: web's
//   read of the billing methods until node-0's check has read the account's orders, so the shrink is checked first
//   in the preview and in each `up`; then web's read until node-0's update is reading the account (its listing, held)
//   and that listing until web's order is in (the create first), or web's read until node-0's resize is in (the
//   shrink first). The request log says which was made first; the
//   account ends at the preview's figure; a cent under, the preview fails and nothing is ordered. A sign that does
//   not come fails the run naming it. RIMU_BUDGET_ORDER_RUNS (default 1) repeats both orders on each front end;
// - then, changed outside Pulumi (YAML), the preview and `rimuhosting-bill --stack` say the account is over with the
//   live figures.
// Several stacks and providers judging one account's budget at once: budget-shared-account.test.ts.
// Proved elsewhere, not again here (CPU, issue 67): a replacement and a new VPS that the preview passes complete in
// `up` at the preview's figures, the replaced order counted once: the money model's generated cases through the CLI
// on both front ends check I1 after every run, replacements at the budget's boundary among them
// (money-model-cli-dynamic.test.ts, money-model-cli-yaml.test.ts), and the count is logic shown in-process
// (test/cost/three-judges.test.ts, "a replacement and a new VPS landing on the budget"; order-guard.test.ts). A VPS
// shrunk by hand passing a no-op run under maxMonthlyIncreaseUsd 0 is money-cases.test.ts's case 2.
import { describeCliOnly } from "./describe-cli";
import {
  BILL,
  accountCents,
  activeOrderCount,
  activeOrders,
  billOfStack,
  quotedCents,
  setStackLimits,
} from "./budget-support";
import { VPS_TYPE, startScenario, type Scenario } from "./e2e-support";
import { HELD_READS_ENV, inOrder, type Hold } from "./held-requests";
import {
  NATIVE_VPS_TYPE,
  describeNative,
  pulumiFailure,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { GateClock } from "../helpers/gate-clock";
import * as fs from "node:fs";
import * as path from "node:path";

jest.setTimeout(900_000);

/**
 * How many times each front end makes the shrink and the create in each order (RIMU_BUDGET_ORDER_RUNS, default 1: CI's
 * time; 5 for a trial by hand).
 */
const ORDER_RUNS = ((value) => {
  const runs = Number(value ?? "1");
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(
      `RIMU_BUDGET_ORDER_RUNS is "${value}": give a whole number of runs, 1 or more (default 1)`,
    );
  return runs;
})(process.env.RIMU_BUDGET_ORDER_RUNS);

/**
 * The emulator's holds, told apart by their length: the gate clock opens each when the test sees its sign in the
 * request log, so none is waited for in wall time.
 */
const BILLING_HOLD_MS = 1_001;
const ORDER_HOLD_MS = 1_002;

/**
 * The program's read of the billing methods (web's registration waits for it) held until node-0's check has reached
 * the provider: its read of the account's orders, every check's first request (web's cannot come before the read is
 * answered). The engine checks registrations one at a time as they arrive, so web's check then comes after node-0's.
 */
const WEB_AFTER_NODE0_CHECK: Hold = {
  route: "listBillingMethods",
  delayMs: BILLING_HOLD_MS,
  awaits: "node-0's check to read the account's orders (listOrders)",
  came: ({ routes }) => routes.includes("listOrders"),
};

/**
 * node-0's update's read of its order, the update's first call, before the guard: the account's listing of active
 * orders (one for the whole fleet, issue 90), the second of the run, after its check's (web, held until this one is,
 * lists nothing before it). Held until web's order is in. Only that listing: web's guard reads the account with the
 * same request to judge its order, and holding it too would hold web's order back. web's check is not held by it: a
 * check reads the listing the checks keep, not a look-up's (account-view.ts, listedOrder).
 */
const NODE0_UPDATE_READ: Hold = {
  route: "listOrders",
  delayMs: ORDER_HOLD_MS,
  only: { matrix: { include_inactive: "N" }, skip: 1, times: 1 },
  awaits: "web's order (createVps)",
  came: ({ routes }) => routes.includes("createVps"),
};

/**
 * Which change `up` makes first, and the holds that make it so (each checked in program order, as above):
 * - the shrink: web's read held until node-0's resize is in, so web's create starts after it;
 * - the create: node-0's read of its order (NODE0_UPDATE_READ) held until web's create is in, and web's read held
 *   until that read is held (so web's guard reads the account after it: the listing held is node-0's). The guard's
 *   lock holds each judged change until it is made, so a hold on the resize or order routes themselves would only
 *   lengthen the turn of the change already in it.
 */
const ORDERS = {
  changeParameters: [
    {
      ...WEB_AFTER_NODE0_CHECK,
      awaits: "node-0's resize (changeParameters)",
      came: ({ routes }) => routes.includes("changeParameters"),
    },
  ],
  createVps: [
    {
      ...WEB_AFTER_NODE0_CHECK,
      awaits: "node-0's update to read the account (its listing held)",
      came: ({ holding }) => holding.has(NODE0_UPDATE_READ),
    },
    NODE0_UPDATE_READ,
  ],
} satisfies Record<string, Hold[]>;

/** A stack's checkpoint files in the scenario's file backend (the checkpoint and its attributes), with their bytes. */
function savedCheckpoint(s: Scenario): [string, Buffer][] {
  const root = path.join(s.workDir, "backend", ".pulumi", "stacks");
  const name = `${s.stack.cli.name}.json`;
  const files = (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((file) => path.basename(file) === name || path.basename(file) === `${name}.attrs`)
    .map((file) => path.join(root, file));
  if (!files.some((file) => file.endsWith(name))) throw new Error(`no checkpoint ${name} under ${root}`);
  return files.map((file) => [file, fs.readFileSync(file)]);
}

/**
 * The account and the stack as at `start` (node-0 alone at 2048 MB, shrinkAndCreateRuns): web's order deleted and
 * node-0 grown back through the API (the emulator at time scale 0 makes both at once), the checkpoint put back.
 */
async function backTo(s: Scenario, start: { files: [string, Buffer][]; cents: number }): Promise<void> {
  for (const order of activeOrders(s)) {
    if (order.domainName.startsWith("web."))
      await s.client.deleteVps({ orderOid: order.orderOid, domainName: order.domainName });
    else await s.client.changeParameters(order.orderOid, { memory_mb: 2048 });
  }
  for (const [file, bytes] of start.files) fs.writeFileSync(file, bytes);
  expect([activeOrders(s).map((o) => o.domainName), accountCents(s)]).toEqual([
    ["node-0.shrink.example.com"],
    start.cents,
  ]);
}

/** A front end's stack of node-0 alone at 2048 MB, and how to declare node-0 at `memoryMb` with web or without. */
interface ShrinkFront {
  type: string;
  /** Its scenario, the emulator's waits on `clock` (the test opens them). */
  start(clock: GateClock): Promise<Scenario>;
  declare(s: Scenario, memoryMb: number, withWeb: boolean): Promise<void>;
  /** Then, on the same stack: changed outside Pulumi (YAML only: the live account is the same on both). */
  after?(s: Scenario): Promise<void>;
}

/**
 * A shrink of node-0 (2048 to 1024 MB) and a new web, landing exactly on the budget, in each order the engine may
 * make them: both happen and the account ends at the preview's figure; a cent under, the preview fails and nothing
 * is ordered. The checks come in program order (the holds); the guard credits the shrink checked and not yet made
 * to a create made before it (docs/cost.md, "When ordering").
 */
function shrinkAndCreateRuns(front: ShrinkFront): void {
  const clock = new GateClock({ gated: ["sleep"] });
  let s: Scenario;
  beforeAll(async () => {
    s = await front.start(clock);
  });
  afterAll(async () => s?.close());

  test(`landing exactly on the budget, both go through in either order (${ORDER_RUNS}x each); a cent under, nothing is ordered`, async () => {
    // node-0 alone, the starting point: no preview of it is a claim here.
    await pulumiText(s.stack.cli, "up", "--yes", "--skip-preview");
    const start = { files: savedCheckpoint(s), cents: accountCents(s) };
    await front.declare(s, 1024, true);
    const checkedInOrder = [WEB_AFTER_NODE0_CHECK];
    // The end total: node-0 shrunk to 1024 MB and web at 1024 MB, at the emulator's quotes. That it is the preview's
    // figure, the previews below show: a cent under it fails, at it passes (no preview of its own to read it, CPU).
    const after = 2 * (await quotedCents(s, 1024));
    // The account now, plus the new VPS, is over the end total: only the shrink makes room.
    expect(accountCents(s) + 1000).toBeGreaterThan(after);
    await setStackLimits(s, { monthlyBudgetUsd: ((after - 1) / 100).toFixed(2) });
    const refused = s.mark();
    await inOrder(s, clock, checkedInOrder, () => pulumiFailure(s.stack.cli, "up", "--yes"));
    expect(s.mutationsSince(refused)).toEqual([]);
    // Exactly on the budget the preview passes (node-0's shrink checked before web's create); then each `up` is its
    // update alone, so every hold belongs to one run of the program.
    await setStackLimits(s, { monthlyBudgetUsd: (after / 100).toFixed(2) });
    await inOrder(s, clock, checkedInOrder, () => pulumiText(s.stack.cli, "preview"));
    // Each order ORDER_RUNS times, one after the other, on the same stack.
    const runs = Array.from({ length: ORDER_RUNS }, () => Object.entries(ORDERS)).flat();
    for (const [i, [first, holds]] of runs.entries()) {
      if (i > 0) {
        // Back to node-0 alone at 2048 MB (web deleted, node-0 grown, through the API; the stack's checkpoint of then
        // put back: no `up` for a starting point), then the two changes again.
        await backTo(s, start);
        await front.declare(s, 1024, true);
      }
      const mark = s.mark();
      await inOrder(s, clock, holds, () => pulumiText(s.stack.cli, "up", "--yes", "--skip-preview"));
      const changes = s
        .mutationsSince(mark)
        .map((change) => change.route)
        .filter((route) => route === "createVps" || route === "changeParameters");
      expect({ first, changes, orders: activeOrderCount(s), cents: accountCents(s) }).toEqual({
        first,
        changes:
          first === "createVps" ? ["createVps", "changeParameters"] : ["changeParameters", "createVps"],
        orders: 2,
        cents: after,
      });
    }
    await front.after?.(s);
  });
}

describeCliOnly("a shrink and a create on the dynamic Vps (fixtures/budget-order)", () => {
  shrinkAndCreateRuns({
    type: VPS_TYPE,
    start: (clock) =>
      startScenario("budget-order", {
        programDir: path.join(__dirname, "fixtures", "budget-order"),
        config: { memoryMb: "2048" },
        env: HELD_READS_ENV,
        emulator: { clock },
      }),
    declare: (s, memoryMb, withWeb) =>
      s.stack.setConfigs({ memoryMb: String(memoryMb), withWeb: String(withWeb) }),
  });
});

/**
 * node-0 at `memoryMb` and, with `withWeb`, a new web, declared after the read of the billing methods (web's
 * billingOid takes it): a YAML program registers its resources as it evaluates them, in parallel, and the read holds
 * web back without making it wait for node-0's update, as a dependsOn would.
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
${name === "web" ? "      billingOid: ${billing.billingMethods[0].billingOid}\n" : ""}`,
  )
  .join("")}${
  withWeb
    ? `variables:
  billing:
    fn::invoke:
      function: rimuhosting:index:getBillingMethods
      arguments: {}
`
    : ""
}`;

describeNative("yaml", "a shrink and a create on the native plugin (a YAML program)", () => {
  let dir = "";
  shrinkAndCreateRuns({
    type: NATIVE_VPS_TYPE,
    start: async (clock) => {
      dir = writeYamlProgram("budget-shrink", shrinkAndCreate(2048, false));
      return startNativeScenario(dir, { env: HELD_READS_ENV, emulator: { clock } });
    },
    declare: async (_s, memoryMb, withWeb) => {
      const file = path.join(dir, "Pulumi.yaml");
      fs.writeFileSync(
        file,
        fs.readFileSync(file, "utf8").replace(/resources:[\s\S]*$/, shrinkAndCreate(memoryMb, withWeb)),
      );
    },
    after: async (s) => {
      await changedOutsidePulumi(s);
    },
  });
});

/**
 * Changed outside Pulumi, on the same stack (docs/cost.md, "Changed outside Pulumi"; no stack of its own, for CI's
 * time): node-0 grown by hand takes the live account over a budget that the recorded state is within, and the
 * preview and the bill say so with the live figures. (A VPS shrunk by hand passing `maxMonthlyIncreaseUsd: 0` is
 * money-cases.test.ts's case 2, on both front ends.)
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
  const over =
    `its active orders are billed ${dollars(live)} a month (this stack's, other stacks' and any made by hand), ` +
    `over the monthly budget of ${dollars(budget)}`;
  // One `pulumi preview`, the bill's own: its display (the bill's stderr) says it, and so does the bill.
  const bill = await billOfStack(s.stack.cli, process.execPath, [BILL, "--stack", s.stack.cli.name]);
  expect(bill.stderr).toContain("Previewing update");
  expect(bill.stderr).toContain(over);
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
}
