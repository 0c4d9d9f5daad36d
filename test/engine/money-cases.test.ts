// Issue 64's money cases 1, 2, 4 and 7 through the real CLI against the emulator, on the dynamic Vps
// (fixtures/money-cases) and the native plugin (a YAML program), the account's orders and monthly fees counted before
// and after each (docs/cost.md, "The invariants"; case 3 is test/engine/killed-runs.test.ts's). One emulator and
// one program per front end, the cases one after another on its stack (case 7 adds a second stack):
// - case 1: a same-price move (London to Frankfurt) with `deleteBeforeReplace` and `maxMonthlyIncreaseUsd: 0`: the
//   preview passes, `up` cancels and orders again (one order before and after, in Frankfurt, the fee the same), and
//   the next preview has nothing to do (I1; order-guard.ts's `cancelledFirst`);
// - case 2: a VPS shrunk by hand (2048 to 1024 MB) while the program and the state say 2048, then only its
//   reverseDns changes: the preview shows the PTR name alone, and `up` sets it and nothing else: no resize, no
//   restart, the fee the same (I1, I6; lifecycle/planned-update.ts);
// - case 4: a replacement whose new order is withdrawn, another order having landed just before it, while the same
//   run creates another VPS: the run fails, the other VPS is refused, and the account ends within the budget with
//   every order of the stack in its state (I3, I4; order-guard.ts gives the replaced order back to the totals). The
//   emulator's clock holds the other VPS's registration and both orders (GateClock) until the order by hand has
//   landed, so the events come in that order whatever the machine's load;
// - case 7: a second stack of the account, whose one new VPS takes the account exactly to its budget: its bill says
//   the account's figures, $0.00 to spare, beside this stack's own change (the bill's account figures, judge.ts).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { amountUsd } from "../../provider/wire-mapping/values";
import { GateClock, type GateWait } from "../helpers/gate-clock";
import { BILL, billOfStack, setStackLimits } from "./budget-support";
import type { CliStack } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { VPS_TYPE, startScenario, type Scenario } from "./e2e-support";
import {
  NATIVE_VPS_TYPE,
  PLUGIN_VERSION,
  describeNative,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { createStackDriver, type StackDriver } from "./stack-driver";

jest.setTimeout(900_000);

type Dc = "DCDALLAS" | "DCLONDON" | "DCFRANKFURT";
interface Entry {
  memoryMb: number;
  dcLocation: Dc;
  reverseDns?: string;
  deleteBeforeReplace?: boolean;
  /** Declared once a read of the billing methods answered (the test holds that read). */
  afterBilling?: boolean;
}
type Fleet = Record<string, Entry>;

/** The stack's VPSs before the cases: `moved` (case 1), `shrunk` (case 2), `replaced` (case 4). */
const FLEET: Fleet = {
  moved: { memoryMb: 1024, dcLocation: "DCLONDON", deleteBeforeReplace: true },
  shrunk: { memoryMb: 2048, dcLocation: "DCDALLAS" },
  replaced: { memoryMb: 1024, dcLocation: "DCDALLAS" },
};
const PTR = "mail.money.example.com";

/** One front end: its program, and how the stack's fleet is declared on it. */
interface Front {
  type: string;
  start(clock: GateClock): Promise<Scenario>;
  declare(s: Scenario, fleet: Fleet): Promise<void>;
  /** Another stack of the account with `fleet`, the API key from the environment, and `config`. */
  otherStack(s: Scenario, fleet: Fleet, config: Record<string, string>): Promise<StackDriver>;
}

/** The demo account's active orders, from the emulator's own records. */
const activeOrders = (s: Scenario) =>
  s.emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

/** What the account is billed a month, in cents. */
const accountCents = (s: Scenario): number =>
  activeOrders(s).reduce((sum, order) => sum + Math.round(order.monthlyFeeUsd * 100), 0);

/** The active order of the stack's VPS `name` (its domain name starts with it). */
const orderOf = (s: Scenario, name: string) => {
  const orders = activeOrders(s).filter((o) => o.domainName.startsWith(`${name}.`));
  if (orders.length !== 1) throw new Error(`${orders.length} active orders for ${name}, not 1`);
  return orders[0]!;
};

/** The emulator's own quote (R16), in cents, for a VPS of the fleet's shape. */
async function quotedCents(s: Scenario, dcLocation: Dc, memoryMb: number): Promise<number> {
  const answer = await s.client.quoteNewVm({
    dc_location: dcLocation,
    pricing_plan_code: "MIRO1B",
    vps_parameters: { memory_mb: memoryMb, disk_space_mb: 20480 },
  });
  const fee = amountUsd(answer.monthly_recurring_amt);
  if (fee === undefined) throw new Error(`the emulator quoted no USD amount: ${JSON.stringify(answer)}`);
  return Math.round(fee * 100);
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The order numbers the stack's state holds, from the file backend's checkpoint (no CLI process). */
function ordersInState(s: Scenario, stack: CliStack, type: string): number[] {
  const root = path.join(s.workDir, "backend", ".pulumi", "stacks");
  const file = (fs.readdirSync(root, { recursive: true }) as string[]).find(
    (one) => path.basename(one) === `${stack.name}.json`,
  );
  if (!file) throw new Error(`no checkpoint of stack ${stack.name} under ${root}`);
  const state = JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as {
    checkpoint?: { latest?: { resources?: { type: string; outputs?: { orderOid?: number } }[] } };
  };
  return (state.checkpoint?.latest?.resources ?? [])
    .filter((r) => r.type === type)
    .flatMap((r) => (typeof r.outputs?.orderOid === "number" ? [r.outputs.orderOid] : []))
    .sort();
}

/** `pulumi <args>` on the stack, its display handed to `onText` as it comes: the exit code and the whole display. */
function pulumiWatched(
  cli: CliStack,
  args: string[],
  onText: (text: string) => void,
): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args, "--stack", cli.name, "--non-interactive"], {
      cwd: cli.programDir,
      env: cli.commandEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    const take = (chunk: string) => {
      text += chunk;
      onText(text);
    };
    child.stdout.setEncoding("utf8").on("data", take);
    child.stderr.setEncoding("utf8").on("data", take);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, text }));
  });
}

/** Where `pulumi up`'s display of its update starts: what comes before it is its preview's. */
const UPDATING = /^Updating \(/m;

/** The emulator's delays, told apart by their length (the gate clock opens them; none is waited for). */
const BILLING_HOLD_MS = 1_001;
const ORDER_HOLD_MS = 1_002;

function moneyCases(front: Front): void {
  const clock = new GateClock({ gated: ["sleep"] });
  let s: Scenario;
  let fleet: Fleet = FLEET;
  const declare = async (next: Fleet) => {
    fleet = next;
    await front.declare(s, fleet);
  };

  beforeAll(async () => {
    s = await front.start(clock);
    // The starting fleet: no preview of it is a claim here (a program run and a provider start less; CPU, issue 67).
    await pulumiText(s.stack.cli, "up", "--yes", "--skip-preview");
  });
  afterAll(async () => s?.close());

  test("case 1: a same-price move with deleteBeforeReplace under maxMonthlyIncreaseUsd 0: preview, up and the next preview pass, one order", async () => {
    const before = { orders: activeOrders(s).length, cents: accountCents(s), moved: orderOf(s, "moved") };
    expect(before.moved.dc).toBe("DCLONDON");
    // London and Frankfurt bill the same: the move adds nothing.
    expect(await quotedCents(s, "DCFRANKFURT", 1024)).toBe(Math.round(before.moved.monthlyFeeUsd * 100));
    await declare({ ...fleet, moved: { ...fleet.moved!, dcLocation: "DCFRANKFURT" } });
    await setStackLimits(s, { maxMonthlyIncreaseUsd: "0" });
    const mark = s.mark();
    // One `pulumi up`, its preview and its update (a `preview` before it showed the same figures again): the
    // preview's figures are in its display before "Updating (": the account the same before and after, nothing
    // added (±$0). The line comes with the first VPS the engine checks, whichever that is, and again only with a
    // check that changes the totals: its last saying is the run's.
    const [previewed] = (await pulumiText(s.stack.cli, "up", "--yes")).split(UPDATING);
    const soFar = previewed!.match(/[\w-]+: the budget so far: [^\n]*/g) ?? [];
    expect(soFar.at(-1)).toMatch(
      /the budget so far: this run takes the account's monthly fees \([^)]*\) from (\$[\d.]+) to \1, .*it adds \$0\.00 a month/,
    );
    const moved = orderOf(s, "moved");
    expect({
      changes: s.mutationsSince(mark).map((change) => change.route),
      orders: activeOrders(s).length,
      cents: accountCents(s),
      dc: moved.dc,
      fee: moved.monthlyFeeUsd,
    }).toEqual({
      changes: ["deleteVps", "createVps"],
      orders: before.orders,
      cents: before.cents,
      dc: "DCFRANKFURT",
      fee: before.moved.monthlyFeeUsd,
    });
    expect(moved.orderOid).not.toBe(before.moved.orderOid);
    await pulumiText(s.stack.cli, "preview", "--expect-no-changes");
  });

  test("case 2: shrunk by hand, then only reverseDns changes: the preview shows the PTR name, up sets it alone, the fee stays", async () => {
    const shrunk = orderOf(s, "shrunk");
    expect(Math.round(shrunk.monthlyFeeUsd * 100)).toBe(await quotedCents(s, "DCDALLAS", 2048));
    await s.client.changeParameters(shrunk.orderOid, { memory_mb: 1024 });
    const live = async () => {
      const order = orderOf(s, "shrunk");
      const about = (await s.client.getOrder(order.orderOid)).about_order;
      return {
        memoryMb: about.vps_parameters?.memory_mb,
        runningState: about.running_state,
        cents: Math.round(order.monthlyFeeUsd * 100),
        ptr: order.ptr[order.ips[0] ?? ""],
      };
    };
    const byHand = await live();
    expect(byHand).toMatchObject({ memoryMb: 1024, cents: await quotedCents(s, "DCDALLAS", 1024) });
    const before = { orders: activeOrders(s).length, cents: accountCents(s) };
    // The program and the state still say 2048 MB; the run changes only the PTR name (maxMonthlyIncreaseUsd 0).
    await declare({ ...fleet, shrunk: { ...fleet.shrunk!, reverseDns: PTR } });
    const mark = s.mark();
    // One `pulumi up --diff`: its preview's display, before "Updating (", and then its update.
    const [preview] = (await pulumiText(s.stack.cli, "up", "--yes", "--diff")).split(UPDATING);
    // The inputs the preview changes (`~`, `+`, `-` lines of --diff): the PTR name, and no resize, move or restart.
    const changed = [...preview!.matchAll(/^\s*[~+-] (\w+)\s*:/gm)].map((line) => line[1]);
    expect(changed).toContain("reverseDns");
    expect(changed.filter((name) => /memoryMb|diskSpaceMb|dcLocation|runningState/.test(name!))).toEqual([]);
    expect(preview).not.toMatch(/restart/i);
    expect({
      changes: s.mutationsSince(mark).map((change) => change.route),
      orders: activeOrders(s).length,
      cents: accountCents(s),
      shrunk: await live(),
    }).toEqual({
      changes: ["setReverseDns"],
      orders: before.orders,
      cents: before.cents,
      shrunk: { ...byHand, ptr: PTR },
    });
  });

  test("case 4: a replacement withdrawn (an order landed just before it) and a create in one run: within the budget, every order of the stack in its state", async () => {
    await setStackLimits(s, { maxMonthlyIncreaseUsd: undefined });
    const old = orderOf(s, "replaced");
    const others = accountCents(s) - Math.round(old.monthlyFeeUsd * 100);
    // replaced moves to London at 2048 MB (a replacement that costs more), and node-1 is new: the budget is exactly
    // the end total the preview plans, the replaced order counted once.
    const replacement = await quotedCents(s, "DCLONDON", 2048);
    const created = await quotedCents(s, "DCDALLAS", 1024);
    const budget = others + replacement + created;
    // An order by hand at this fee, landing just before the replacement's, takes the account over the budget with
    // it (so it is withdrawn), and with node-1 and the replaced order too; without node-1 it is within.
    const byHand = await quotedCents(s, "DCDALLAS", 2048);
    expect(others + byHand + replacement).toBeGreaterThan(budget);
    expect(others + Math.round(old.monthlyFeeUsd * 100) + byHand).toBeLessThanOrEqual(budget);
    await declare({
      ...fleet,
      replaced: { memoryMb: 2048, dcLocation: "DCLONDON" },
      "node-1": { memoryMb: 1024, dcLocation: "DCDALLAS", afterBilling: true },
    });
    await setStackLimits(s, { monthlyBudgetUsd: (budget / 100).toFixed(2) });
    const mark = s.mark();
    await pulumiText(s.stack.cli, "preview");
    expect(s.mutationsSince(mark)).toEqual([]);

    // The update (the preview just passed), with its events in the order of the case: the replacement's order is
    // held by the emulator; node-1 (declared after the held read of the billing methods) is judged meanwhile, the
    // replacement counted once as in flight, and its order is held too; then an order by hand lands before both.
    s.emulator.injectFault({
      route: "listBillingMethods",
      kind: "delay",
      delayMs: BILLING_HOLD_MS,
      times: 50,
    });
    s.emulator.injectFault({ route: "createVps", kind: "delay", delayMs: ORDER_HOLD_MS, times: 2 });
    let shown = "";
    const up = pulumiWatched(s.stack.cli, ["up", "--yes", "--skip-preview"], (text) => {
      shown = text;
    });
    const held: GateWait[] = [];
    const orders: GateWait[] = [];
    try {
      while (orders.length === 0) {
        const wait = await clock.nextWait(up).catch(async (error: Error) => {
          throw new Error(`${error.message}; the up printed:\n${(await up).text}`);
        });
        if (wait.ms === ORDER_HOLD_MS) orders.push(wait);
        else held.push(wait);
      }
      held.forEach((wait) => wait.open());
      let ended = false;
      void up.finally(() => {
        ended = true;
      });
      void (async () => {
        for (;;) {
          const wait = await clock.nextWait(up).catch(() => undefined);
          if (!wait) return;
          if (wait.ms === ORDER_HOLD_MS) orders.push(wait);
          else wait.open();
        }
      })();
      // node-1's order held too (or its create failed, which the assertions below then show).
      while (orders.length < 2 && !ended && !/node-1 .*(failed|error)/.test(shown))
        await new Promise((resolve) => setTimeout(resolve, 20));
      const placed = await s.client.createVps({
        instantiation_options: { domain_name: "by-hand.money.example.com", distro: "deb12.64" },
        vps_parameters: { memory_mb: 2048, disk_space_mb: 20480 },
        dc_location: "DCDALLAS",
        pricing_plan_code: "MIRO1B",
      });
      expect(Math.round(orderOf(s, "by-hand").monthlyFeeUsd * 100)).toBe(byHand);
      expect(placed.about_order.order_oid).toBeGreaterThan(0);
    } finally {
      orders.forEach((wait) => wait.open());
      s.emulator.app.emulator.faults.clear();
    }
    const { code, text } = await up;
    expect(code).not.toBe(0);
    expect(text).toMatch(/\[RIMU_ERR_BUDGET\] replaced: ordered it as order \d+, then found/);
    // Ordered while the replacement's order was in flight, after the order by hand: withdrawn by the rule after an order.
    expect(text).toMatch(/\[RIMU_ERR_BUDGET\] node-1: ordered it as order \d+, then found/);
    const active = activeOrders(s);
    expect({
      cents: accountCents(s),
      orders: active.map((o) => o.orderOid).sort(),
      inState: ordersInState(s, s.stack.cli, front.type),
    }).toEqual({
      cents: others + Math.round(old.monthlyFeeUsd * 100) + byHand,
      orders: [...ordersInState(s, s.stack.cli, front.type), orderOf(s, "by-hand").orderOid].sort(),
      inState: [orderOf(s, "moved").orderOid, orderOf(s, "shrunk").orderOid, old.orderOid].sort(),
    });
    expect(accountCents(s)).toBeLessThanOrEqual(budget);
  });

  test("case 7: a second stack whose new VPS lands exactly on the account's budget: its bill says $0.00 to spare, beside its own change", async () => {
    const before = accountCents(s);
    const fee = await quotedCents(s, "DCDALLAS", 1024);
    const budget = before + fee;
    const other = await front.otherStack(
      s,
      { web: { memoryMb: 1024, dcLocation: "DCDALLAS" } },
      { "rimuhosting:monthlyBudgetUsd": (budget / 100).toFixed(2) },
    );
    try {
      const mark = s.mark();
      const bill = await billOfStack(other.cli, process.execPath, [BILL, "--stack", other.cli.name]);
      expect(s.mutationsSince(mark)).toEqual([]);
      expect(bill.status).toBe(0);
      // The account's figures (the first stack's orders and the one by hand), not this stack's alone ($10.00 of it).
      expect(bill.stdout).toContain(
        `**Budget (stack config): ✅ within.**\n- Monthly budget ${dollars(budget)} (rimuhosting:monthlyBudgetUsd): ` +
          `this run takes the account (every active order its API key reaches, other stacks' too) from ` +
          `${dollars(before)} to ${dollars(budget)} a month, within it ($0.00 to spare); this stack's own change is ` +
          `+${dollars(fee)} a month.`,
      );
      expect(bill.stdout).toContain("Other runs under way at the same time");
      // The same figures as the provider's check said them in the preview the bill ran (one verdict, I5).
      expect(bill.stderr).toContain(
        `from ${dollars(before)} to ${dollars(budget)}, within the monthly budget of ${dollars(budget)}`,
      );
    } finally {
      await other.close();
    }
  });
}

/** The dynamic Vps: fixtures/money-cases, its fleet in the config `vpss`. */
const FIXTURE = path.join(__dirname, "fixtures", "money-cases");

describeCliOnly("issue 64's money cases on the dynamic Vps (fixtures/money-cases)", () => {
  moneyCases({
    type: VPS_TYPE,
    start: (clock) =>
      startScenario("money-cases", {
        programDir: FIXTURE,
        config: { vpss: JSON.stringify(FLEET) },
        emulator: { clock },
      }),
    declare: (s, fleet) => s.stack.setConfigs({ vpss: JSON.stringify(fleet) }),
    otherStack: (s, fleet, config) =>
      createStackDriver({
        programDir: FIXTURE,
        stackName: "other",
        workDir: s.workDir,
        env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
        config: { "rimuhosting:baseUrl": s.emulator.baseUrl, vpss: JSON.stringify(fleet), ...config },
      }),
  });
});

/** The fleet as a YAML program's resources (and the read of the billing methods that node-1 waits for). */
const yamlFleet = (fleet: Fleet): string => {
  const entries = Object.entries(fleet);
  const resources = entries.map(
    ([name, entry]) => `  ${name}:
    type: rimuhosting:index:Vps
    properties:
      domainName: ${name}.\${pulumi.stack}.money.example.com
      dcLocation: ${entry.dcLocation}
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: ${entry.memoryMb}
      diskSpaceMb: 20480
${entry.reverseDns ? `      reverseDns: ${entry.reverseDns}\n` : ""}${
      entry.afterBilling ? "      billingOid: ${billing.billingMethods[0].billingOid}\n" : ""
    }${entry.deleteBeforeReplace ? "    options:\n      deleteBeforeReplace: true\n" : ""}`,
  );
  const billing = entries.some(([, entry]) => entry.afterBilling)
    ? `variables:
  billing:
    fn::invoke:
      function: rimuhosting:index:getBillingMethods
      arguments: {}
`
    : "";
  return `resources:\n${resources.join("")}${billing}`;
};

describeNative("yaml", "issue 64's money cases on the native plugin (a YAML program)", () => {
  let dir = "";
  const others: string[] = [];
  afterAll(() => others.forEach((one) => fs.rmSync(one, { recursive: true, force: true })));
  moneyCases({
    type: NATIVE_VPS_TYPE,
    start: (clock) => {
      // The plugin named with its version: the CLI caches its schema (native-programs.ts, CACHED_PLUGIN_ENTRY).
      dir = writeYamlProgram("money-cases", yamlFleet(FLEET), { version: PLUGIN_VERSION });
      return startNativeScenario(dir, { emulator: { clock } });
    },
    declare: async (_s, fleet) => {
      const file = path.join(dir, "Pulumi.yaml");
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/resources:[\s\S]*$/, yamlFleet(fleet)));
    },
    otherStack: (s, fleet, config) => {
      const programDir = writeYamlProgram("money-cases-other", yamlFleet(fleet), { version: PLUGIN_VERSION });
      others.push(programDir);
      return createStackDriver({
        programDir,
        stackName: "other",
        workDir: s.workDir,
        env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
        config: { "rimuhosting:baseUrl": s.emulator.baseUrl, ...config },
      });
    },
  });
});
