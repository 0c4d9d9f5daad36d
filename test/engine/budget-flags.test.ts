// The budget under the run's flags, through the real CLI against the emulator, on the dynamic Vps (a TypeScript
// program) and the native plugin (a YAML program), one stack each; each test first brings the stack to its fleet:
// - `up --skip-preview` orders up to a limit (monthlyBudgetUsd, then maxMonthlyIncreaseUsd) and no further, and its
//   message says what the run had done. The dynamic Vps refuses at the order past the limit (order-guard.ts); the
//   native plugin's checks judge the budget in `pulumi up` too, so it refuses at that VPS's check, while the engine
//   goes on with the VPSs checked before it (the message says so, and no longer "Nothing was ordered or changed");
// - `up --target` one new VPS, or a resize of one, is judged with the account's other VPSs: over the budget it
//   fails, with and without its preview, with nothing ordered or changed; within it, orders that VPS alone;
// - a run that only deletes passes on an account over its budget (on the native plugin: FrontEnd.onlyDeletes);
// - a VPS whose price the preview cannot know (its memory depends on a new VPS's order number) fails the budget in
//   `enforce` mode with nothing ordered, and is a warning in `warn` mode; so is a quote that fails (503) when
//   ordering with `--skip-preview`, whose refusal says to run it again, and in `warn` mode the VPS is ordered.
import * as fs from "node:fs";
import * as path from "node:path";
import { BUDGET_SETTINGS } from "../../provider/impl/budget/budget";
import { amountUsd } from "../../provider/wire-mapping/values";
import { changesSince, setStackLimits } from "./budget-support";
import { describeCliOnly } from "./describe-cli";
import { VPS_TYPE, liveOrders, startScenario, type Scenario } from "./e2e-support";
import {
  CACHED_PLUGIN_ENTRY,
  NATIVE_VPS_TYPE,
  PLUGIN_VERSION,
  REPO_ROOT,
  describeNative,
  pulumiFailure,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(600_000);

/** One VPS of the program: its memory, or a memory known only once the named VPS is ordered. */
type Entry = { memoryMb: number } | { memoryOnceOrdered: string };
type Fleet = Record<string, Entry>;
/** Where every VPS of the fleet is ordered, and its disk: the same in fixtures/budget-flags/index.ts and yamlOf. */
const PLACE = { dcLocation: "DCDALLAS", pricingPlanCode: "MIRO1B", diskSpaceMb: 20480 } as const;
/** The memory of every VPS of fleetOf, and of the quote `fee` is. */
const FLEET_MEMORY_MB = 1024;
const fleetOf = (count: number): Fleet =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`node-${i}`, { memoryMb: FLEET_MEMORY_MB }]));

/**
 * One front end: its VPS type, a stack of `fleet`, how to declare another fleet, and where a run that adds past a
 * limit is refused: at the order ("order") or at the VPS's check, which the native plugin runs in `up` too ("check").
 */
interface FrontEnd {
  type: string;
  start(fleet: Fleet): Promise<Scenario>;
  declare(s: Scenario, fleet: Fleet): Promise<void>;
  refusedAt: "order" | "check";
  /**
   * Whether this front end runs "a run that only deletes": one does (the native plugin's, the cheaper). A delete is
   * never judged, and the VPS kept is judged by the one core (provider/impl) whichever front end asks; each verdict,
   * a delete over the budget among them, is test/cost/three-judges.test.ts's, in-process (CPU, issue 67).
   */
  onlyDeletes: boolean;
}

const usd = (amount: number): string => `$${amount.toFixed(2)}`;
const re = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const created = (s: Scenario, mark: number): number =>
  changesSince(s, mark).filter((c) => c.route === "createVps").length;
/** The budget's refusal a failed run printed (its first line). */
const refusal = (text: string): string => /\[RIMU_ERR_BUDGET\][^\n]*/.exec(text)?.[0] ?? text;
const orderedNames = (s: Scenario): string[] =>
  liveOrders(s.emulator)
    .map((o) => (o as { domainName?: string }).domainName?.split(".")[0] ?? "")
    .sort();
/** What the native plugin's check says it did, in `up` as in a preview (done-words.ts whatWasDone). */
const CHECK_DONE =
  `Nothing was ordered or changed for (node-\\d)(?:, and this run ordered or changed nothing before it|; before ` +
  `it, this run ordered [^.;]+)(?:; this run is still ordering or changing [^.]+, counted)?\\. If this is the ` +
  `update of \`pulumi up\`, the VPSs checked before it go on, each ordered or changed only within the budget\\.`;

function flagScenarios(front: FrontEnd): void {
  let s: Scenario;
  /** RimuHosting's quote of one 1 GB VPS, a month. */
  let fee = 0;
  const urnOf = (name: string) => `urn:pulumi:${s.stack.cli.name}::budget-flags::${front.type}::${name}`;
  /** Sets the budget's settings to `set`, the others removed. */
  const limits = (set: Record<string, string> = {}) =>
    setStackLimits(s, Object.fromEntries(BUDGET_SETTINGS.map((key) => [key, set[key]])));
  /**
   * The stack brought to `fleet` with no limits (a test's setup: no preview, which would run the program twice). The
   * up is left out where the account holds the fleet already (holds): a test whose runs were refused changed nothing,
   * on the account or in the state, so the next one may start from there.
   */
  async function converge(fleet: Fleet): Promise<void> {
    await limits();
    await front.declare(s, fleet);
    if (!holds(fleet)) await pulumiText(s.stack.cli, "up", "--yes", "--skip-preview");
    expect(orderedNames(s)).toEqual(Object.keys(fleet).sort());
  }
  /** Whether the account's live orders are `fleet`'s VPSs, by name, each a 1 GB one billed `fee`, as fleetOf's are. */
  function holds(fleet: Fleet): boolean {
    const live = new Map(
      liveOrders(s.emulator).map((o) => {
        const order = o as { domainName?: string; monthlyFeeUsd?: number };
        return [order.domainName?.split(".")[0], order.monthlyFeeUsd];
      }),
    );
    return (
      live.size === Object.keys(fleet).length &&
      Object.entries(fleet).every(
        ([name, entry]) =>
          "memoryMb" in entry && entry.memoryMb === FLEET_MEMORY_MB && live.get(name) === fee,
      )
    );
  }

  beforeAll(async () => {
    s = await front.start(fleetOf(3));
    // The program's VPS as the emulator quotes it (budget.test.ts checks that the preview plans this fee).
    const quote = await s.client.quoteNewVm({
      dc_location: PLACE.dcLocation,
      pricing_plan_code: PLACE.pricingPlanCode,
      vps_parameters: { memory_mb: FLEET_MEMORY_MB, disk_space_mb: PLACE.diskSpaceMb },
    });
    fee = amountUsd(quote.monthly_recurring_amt) ?? 0;
  });
  afterAll(async () => {
    await s?.close();
  });

  test("up --skip-preview over monthlyBudgetUsd: two of three new VPSs ordered, the third refused, saying so", async () => {
    expect(fee).toBeGreaterThan(0);
    const budget = usd(2.5 * fee);
    await limits({ monthlyBudgetUsd: budget.slice(1) });
    const mark = s.mark();
    const text = await pulumiFailure(s.stack.cli, "up", "--yes", "--skip-preview");
    const refused = new RegExp(
      front.refusedAt === "order"
        ? `^\\[RIMU_ERR_BUDGET\\] (node-\\d): ordering it \\(\\+${re(usd(fee))} a month\\) would take the monthly ` +
            `fees of the account's 2 active orders from \\$0\\.00 to ${re(usd(3 * fee))} with this run's changes, over the ` +
            `monthly budget of ${re(budget)} \\(rimuhosting:monthlyBudgetUsd\\)\\. Nothing was ordered for \\1` +
            // The other two are ordered at once (in-flight.ts): returned before the refusal, or still under way.
            `(?:; before it, this run ordered node-\\d(?: and node-\\d)?|, and this run ordered or changed nothing ` +
            `before it)(?:; this run is still ordering or changing node-\\d(?: and node-\\d)?, counted)?\\.`
        : `^\\[RIMU_ERR_BUDGET\\] this run takes the account's monthly fees \\(every active order on it, with the ` +
            `changes of the 3 VPSs checked so far\\) from \\$0\\.00 to ${re(usd(3 * fee))}, over the monthly ` +
            `budget of ${re(budget)} \\(rimuhosting:monthlyBudgetUsd\\);.* ${CHECK_DONE}`,
    ).exec(refusal(text));
    expect(refused).not.toBeNull();
    expect(created(s, mark)).toBe(2);
    expect(orderedNames(s)).toEqual(Object.keys(fleetOf(3)).filter((name) => name !== refused![1]));
    expect(text).not.toMatch(/Nothing was ordered or changed\./);
  });

  test("up --skip-preview over maxMonthlyIncreaseUsd: one of two new VPSs ordered, the other refused, saying so", async () => {
    await converge(fleetOf(2));
    const most = usd(1.5 * fee);
    await limits({ maxMonthlyIncreaseUsd: most.slice(1) });
    await front.declare(s, fleetOf(4));
    const mark = s.mark();
    const text = await pulumiFailure(s.stack.cli, "up", "--yes", "--skip-preview");
    const refused = new RegExp(
      front.refusedAt === "order"
        ? `^\\[RIMU_ERR_BUDGET\\] (node-[23]): ordering it \\(\\+${re(usd(fee))} a month\\) would take this run's ` +
            `increase to ${re(usd(2 * fee))} a month \\(${re(usd(fee))} from its other changes\\), over the ${re(most)} ` +
            `one run may add \\(rimuhosting:maxMonthlyIncreaseUsd\\)\\. Nothing was ordered for \\1` +
            // The other is ordered at once (in-flight.ts): returned before the refusal, or still under way.
            `(?:; before it, this run ordered node-[23]|, and this run ordered or changed nothing before it; this ` +
            `run is still ordering or changing node-[23], counted)\\.`
        : `^\\[RIMU_ERR_BUDGET\\] this run takes the account's monthly fees .*; it adds ${re(usd(2 * fee))} a ` +
            `month .*, over the ${re(most)} one run may add \\(rimuhosting:maxMonthlyIncreaseUsd\\)\\..* ${CHECK_DONE}`,
    ).exec(refusal(text));
    expect(refused).not.toBeNull();
    expect(created(s, mark)).toBe(1);
    expect(orderedNames(s)).toEqual(Object.keys(fleetOf(4)).filter((name) => name !== refused![1]));
    expect(text).not.toMatch(/Nothing was ordered or changed\./);
  });

  test("up --target one new VPS: judged with the account's other VPSs, refused over the budget, ordered within", async () => {
    await converge(fleetOf(4));
    const budget = usd(4.5 * fee);
    await limits({ monthlyBudgetUsd: budget.slice(1) });
    await front.declare(s, fleetOf(5));
    const mark = s.mark();
    const target = ["--target", urnOf("node-4")];
    const checked =
      `[RIMU_ERR_BUDGET] this run takes the account's monthly fees (every active order on it, with the changes of ` +
      `the 1 VPS checked so far) from ${usd(4 * fee)} to ${usd(5 * fee)}, over the monthly budget of ${budget}`;
    expect(refusal(await pulumiFailure(s.stack.cli, "up", "--yes", ...target))).toContain(checked);
    expect(refusal(await pulumiFailure(s.stack.cli, "up", "--yes", "--skip-preview", ...target))).toContain(
      front.refusedAt === "check"
        ? checked
        : `[RIMU_ERR_BUDGET] node-4: ordering it (+${usd(fee)} a month) would take the monthly fees of the ` +
            `account's 4 active orders from ${usd(4 * fee)} to ${usd(5 * fee)} with this run's changes, over the monthly budget of ` +
            `${budget} (rimuhosting:monthlyBudgetUsd). Nothing was ordered for node-4`,
    );
    expect(changesSince(s, mark)).toEqual([]);
    await limits({ monthlyBudgetUsd: usd(5 * fee).slice(1) });
    // Within it: the order is the claim, judged by up's own checks; its preview would run the program once more.
    await pulumiText(s.stack.cli, "up", "--yes", "--skip-preview", ...target);
    expect(changesSince(s, mark)).toEqual([{ method: "POST", route: "createVps" }]);
  });

  test("up --target a resize of one VPS: refused when it takes the whole account over, changing nothing", async () => {
    // On the five the test before leaves (no up to get there): the account's fees are at the budget.
    await converge(fleetOf(5));
    await limits({ monthlyBudgetUsd: usd(5 * fee).slice(1) });
    await front.declare(s, { ...fleetOf(5), "node-0": { memoryMb: 2048 } });
    const mark = s.mark();
    const target = ["--target", urnOf("node-0")];
    const checked = new RegExp(
      `^\\[RIMU_ERR_BUDGET\\] this run takes the account's monthly fees \\(every active order on it, with the ` +
        `changes of the 1 VPS checked so far\\) from ${re(usd(5 * fee))} to \\$[\\d.]+, over the monthly budget ` +
        `of ${re(usd(5 * fee))} .*Adding the most: node-0 \\+\\$[\\d.]+ \\(${re(usd(fee))} → \\$[\\d.]+\\)`,
    );
    expect(refusal(await pulumiFailure(s.stack.cli, "up", "--yes", ...target))).toMatch(checked);
    expect(refusal(await pulumiFailure(s.stack.cli, "up", "--yes", "--skip-preview", ...target))).toMatch(
      front.refusedAt === "check"
        ? checked
        : new RegExp(
            `^\\[RIMU_ERR_BUDGET\\] node-0: resizing it \\(memoryMb\\) \\(\\+\\$[\\d.]+ a month\\) would take the ` +
              `monthly fees of the account's 5 active orders from ${re(usd(5 * fee))} to \\$[\\d.]+ with this run's changes, over the ` +
              `monthly budget of ${re(usd(5 * fee))} \\(rimuhosting:monthlyBudgetUsd\\)\\. Nothing was changed on ` +
              `node-0, and this run ordered or changed nothing before it\\.`,
          ),
    );
    expect(changesSince(s, mark)).toEqual([]);
  });

  if (front.onlyDeletes)
    test("a run that only deletes passes on an account over its budget", async () => {
      await converge(fleetOf(5));
      await limits({ monthlyBudgetUsd: usd(fee).slice(1), maxMonthlyIncreaseUsd: "0" });
      await front.declare(s, fleetOf(1));
      const mark = s.mark();
      await pulumiText(s.stack.cli, "up", "--yes");
      expect(orderedNames(s)).toEqual(["node-0"]);
      expect(changesSince(s, mark).filter((c) => !["cancelOrder", "deleteVps"].includes(c.route))).toEqual(
        [],
      );
    });

  test("a price unknown in preview: enforce fails with nothing ordered; warn only warns", async () => {
    await converge(fleetOf(1));
    // Room for base alone: the account's node-0 and base come to 2 fees of 2.5.
    await limits({ monthlyBudgetUsd: usd(2.5 * fee).slice(1) });
    await front.declare(s, {
      ...fleetOf(1),
      base: { memoryMb: 1024 },
      derived: { memoryOnceOrdered: "base" },
    });
    const mark = s.mark();
    const text = await pulumiFailure(s.stack.cli, "up", "--yes");
    expect(refusal(text)).toContain(
      "[RIMU_ERR_BUDGET] the budget cannot count this VPS's fee after this run (memoryMb not known until the " +
        "update runs), and never counts it as $0",
    );
    expect(text).toMatch(/resource 'derived' has a problem: \[RIMU_ERR_BUDGET\] the budget cannot count/);
    expect(changesSince(s, mark)).toEqual([]);
    await limits({ monthlyBudgetUsd: usd(2.5 * fee).slice(1), budgetEnforcement: "warn" });
    expect(await pulumiText(s.stack.cli, "preview")).toContain(
      "derived: not counted by the budget (rimuhosting:budgetEnforcement: warn): the budget cannot count this " +
        "VPS's fee after this run (memoryMb not known until the update runs)",
    );
    expect(changesSince(s, mark)).toEqual([]);
  });

  test("a quote that fails at the order: enforce refuses with nothing ordered; warn orders with a warning", async () => {
    await converge(fleetOf(1));
    await limits({ monthlyBudgetUsd: usd(10 * fee).slice(1) });
    await front.declare(s, fleetOf(2));
    // Every quote answered 503 (the client's retries included), until cleared.
    s.emulator.injectFault({
      route: "quoteNewVm",
      kind: "status",
      status: 503,
      retryAfterSeconds: 0,
      times: 1000,
    });
    try {
      const mark = s.mark();
      const refused = refusal(await pulumiFailure(s.stack.cli, "up", "--yes", "--skip-preview"));
      expect(refused).toMatch(
        front.refusedAt === "order"
          ? /^\[RIMU_ERR_BUDGET\] node-1: the budget cannot count ordering it: RimuHosting did not quote it \(RimuHosting answered 503 .*never counted as \$0\. Nothing was ordered for node-1, and this run ordered or changed nothing before it\. Run it again once RimuHosting quotes it, or set rimuhosting:budgetEnforcement to warn\./
          : /^\[RIMU_ERR_BUDGET\] the budget cannot count this VPS's fee after this run \(RimuHosting did not quote it \(RimuHosting answered 503 .*never counts it as \$0\. Run it again once RimuHosting quotes it, or set rimuhosting:budgetEnforcement to warn to go on with a warning\. Nothing was ordered or changed for node-1, and this run ordered or changed nothing before it\./,
      );
      expect(changesSince(s, mark)).toEqual([]);
      await limits({ monthlyBudgetUsd: usd(10 * fee).slice(1), budgetEnforcement: "warn" });
      const warned = await pulumiText(s.stack.cli, "up", "--yes", "--skip-preview");
      expect(warned).toMatch(
        front.refusedAt === "order"
          ? /warning: node-1: the budget cannot count ordering it: RimuHosting did not quote it .*\(rimuhosting:budgetEnforcement: warn\); it goes on\./
          : /warning: node-1: not counted by the budget \(rimuhosting:budgetEnforcement: warn\): the budget cannot count this VPS's fee after this run \(RimuHosting did not quote it/,
      );
      expect(warned).not.toContain("RIMU_ERR_BUDGET");
      expect(created(s, mark)).toBe(1);
    } finally {
      s.emulator.app.emulator.faults.clear();
    }
  });
}

const FIXTURE = path.join(REPO_ROOT, "test/engine/fixtures/budget-flags");

describeCliOnly("the budget under run flags on the dynamic Vps (a TypeScript program)", () => {
  flagScenarios({
    type: VPS_TYPE,
    start: (fleet) =>
      startScenario("budget-flags", { programDir: FIXTURE, config: { vpss: JSON.stringify(fleet) } }),
    declare: (s, fleet) => s.stack.setConfig("vpss", JSON.stringify(fleet)),
    refusedAt: "order",
    onlyDeletes: false,
  });
});

/**
 * The YAML program of `fleet`, the same VPSs as the TypeScript fixture's; `memoryOnceOrdered` is the other VPS's
 * order number here (YAML has no arithmetic), unknown in preview as there, and never valid as a size: only previewed.
 */
const yamlOf = (fleet: Fleet): string =>
  `resources:\n${Object.entries(fleet)
    .map(
      ([name, entry]) => `  ${name}:
    type: rimuhosting:index:Vps
    properties:
      domainName: ${name}.budget.example.com
      dcLocation: ${PLACE.dcLocation}
      pricingPlanCode: ${PLACE.pricingPlanCode}
      distro: deb12.64
      memoryMb: ${"memoryOnceOrdered" in entry ? `\${${entry.memoryOnceOrdered}.orderOid}` : entry.memoryMb}
      diskSpaceMb: ${PLACE.diskSpaceMb}
`,
    )
    .join("")}`;

describeNative("yaml", "the budget under run flags on the native plugin (a YAML program)", () => {
  flagScenarios({
    type: NATIVE_VPS_TYPE,
    // The plugin named with its version: the CLI caches its schema (native-programs.ts, CACHED_PLUGIN_ENTRY).
    start: (fleet) =>
      startNativeScenario(writeYamlProgram("budget-flags", yamlOf(fleet), { version: PLUGIN_VERSION })),
    declare: async (s, fleet) =>
      fs.writeFileSync(
        path.join(s.stack.cli.programDir, "Pulumi.yaml"),
        `name: budget-flags\nruntime: yaml\n${CACHED_PLUGIN_ENTRY}${yamlOf(fleet)}`,
      ),
    refusedAt: "check",
    onlyDeletes: true,
  });
});
