/**
 * The budget: the ledger's arithmetic (pure), its settings, and the hook check() runs for each VPS, called as the
 * dynamic provider's host calls it against a real emulator (L1). Through the real CLI: test/engine/budget.test.ts.
 */
import { FeeLedger, overBudgetMessage } from "../../../provider/impl/cost/ledger";
import type { VpsFee } from "../../../provider/impl/cost/verdict";
import type { AccountView } from "../../../provider/impl/account/account-view";
import { accountCentsOf, judgeBudget, readBudget } from "../../../provider/impl/budget/budget";
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { UNKNOWN } from "../../../provider/impl/inputs/unknowns";
import * as native from "../../../provider/native/vps-resource";
import { configureProvider } from "../../../provider/native/provider-config";
import {
  APP_INPUTS,
  DEMO_API_KEY,
  createChecked,
  stackConfig,
  stackConfigWith,
  unchecked,
  useImplFixture,
} from "../support/impl-fixture";

const NAMES = {
  monthlyBudgetUsd: "rimuhosting:monthlyBudgetUsd",
  maxMonthlyIncreaseUsd: "rimuhosting:maxMonthlyIncreaseUsd",
};

describe("the run's fee ledger", () => {
  const run: [string, VpsFee][] = [
    ["new", { name: "web", after: { cents: 1000 } }],
    ["resize", { name: "db", nowCents: 1000, after: { cents: 1600 } }],
    ["same", { name: "cache", nowCents: 750, after: { cents: 750 } }],
    ["shrink", { name: "old", nowCents: 2000, after: { cents: 1225 } }],
  ];
  const ledgerOf = (accountCents?: number) => {
    const ledger = new FeeLedger();
    if (accountCents !== undefined) ledger.billedNow({ cents: accountCents, unpriced: [] });
    for (const [key, fee] of run) ledger.record(key, fee);
    return ledger;
  };

  it("starts from the account's active orders: one this run does not check counts at its fee now", () => {
    // The account: db $10, cache $7.50, old $20 and an untargeted $12.50 one.
    expect(ledgerOf(5000).totals()).toMatchObject({
      count: 4,
      beforeCents: 5000,
      afterCents: 5825,
      increaseCents: 1600,
    });
    // The listing could not be read: only the VPSs checked so far.
    expect(ledgerOf().totals()).toMatchObject({ beforeCents: 3750, afterCents: 4575 });
  });

  it("counts a replacement once: its second check (no fee now) keeps the fee it is billed now", () => {
    const ledger = new FeeLedger();
    ledger.billedNow({ cents: 1000, unpriced: [] });
    ledger.record("web", { name: "web", nowCents: 1000, after: { cents: 1200 } });
    ledger.record("web", { name: "web", after: { cents: 1200 } });
    expect(ledger.totals()).toMatchObject({
      count: 1,
      beforeCents: 1000,
      afterCents: 1200,
      increaseCents: 200,
    });
  });

  it("says the account's totals before and after, the budget, the increase and who adds the most, in one message", () => {
    const message = overBudgetMessage(
      { monthlyBudgetUsd: 50, maxMonthlyIncreaseUsd: 20 },
      ledgerOf(5000).totals(),
      NAMES,
      true,
    );
    expect(message).toBe(
      "this run takes the account's monthly fees (every active order on it, with the changes of the 4 VPSs " +
        "checked so far) from $50.00 to $58.25, over the monthly budget of $50.00 (rimuhosting:monthlyBudgetUsd); " +
        "it adds $16.00 a month (new VPSs and growing changes; shrinks are not netted), within the $20.00 one run " +
        "may add (rimuhosting:maxMonthlyIncreaseUsd). Adding the most: web +$10.00 (new), db +$6.00 ($10.00 → " +
        "$16.00). A VPS this run deletes counts until it is deleted, which the engine does after the run's " +
        "orders and changes (delete it in a run of its own first to make room). Raise the limit, or order less in " +
        "this run",
    );
    expect(
      overBudgetMessage({ monthlyBudgetUsd: 58.25 }, ledgerOf(5000).totals(), NAMES, true),
    ).toBeUndefined();
    expect(overBudgetMessage({ maxMonthlyIncreaseUsd: 15 }, ledgerOf().totals(), NAMES, false)).toContain(
      "the monthly fees of the 4 VPSs checked so far (the account's orders could not be read) from $37.50 to " +
        "$45.75, no monthly budget is set; it adds $16.00 a month (new VPSs and growing changes; shrinks are not " +
        "netted), over the $15.00 one run may add",
    );
  });
});

describe("the budget's settings", () => {
  const read = (values: Record<string, unknown>, provider?: string) =>
    readBudget((key) => values[key], provider);

  it("takes amounts as numbers or numeric text, 0 or more, and enforce or warn", () => {
    expect(read({})).toEqual({ settings: { enforcement: "enforce" }, problems: [] });
    expect(read({ monthlyBudgetUsd: "25.5", maxMonthlyIncreaseUsd: 0, budgetEnforcement: "warn" })).toEqual({
      settings: { monthlyBudgetUsd: 25.5, maxMonthlyIncreaseUsd: 0, enforcement: "warn" },
      problems: [],
    });
  });

  it("names each bad setting where it was written, what is wrong and the value given", () => {
    expect(
      read({ monthlyBudgetUsd: "-3", maxMonthlyIncreaseUsd: true, budgetEnforcement: "Block" }).problems,
    ).toEqual([
      'rimuhosting:monthlyBudgetUsd must be a number of US dollars a month, 0 or more, such as 50 (given: "-3"): fix it in the stack config.',
      "rimuhosting:maxMonthlyIncreaseUsd must be a number of US dollars a month, 0 or more, such as 50 (given: true): fix it in the stack config.",
      'rimuhosting:budgetEnforcement must be enforce (a run over the budget fails) or warn (it only warns) (given: "Block"): fix it in the stack config.',
    ]);
    expect(read({ monthlyBudgetUsd: "lots" }, "alice").problems).toEqual([
      `provider 'alice': monthlyBudgetUsd must be a number of US dollars a month, 0 or more, such as 50 (given: "lots"): fix it in the arguments of provider 'alice' in the program.`,
    ]);
  });
});

describe("the budget in check() (L1, the dynamic provider's host)", () => {
  const fixture = useImplFixture({ planCurrencies: { MIRO8B: "CUR_NZD" } });
  const PREVIEW = { __preview: true } as const;
  const configure = (settings: Record<string, string>) =>
    impl.configure({ config: stackConfigWith(fixture().emulator.baseUrl, settings) });
  const vps = (name: string) => ({
    ...APP_INPUTS,
    domainName: `${name}.example.com`,
    creationScope: `shop/prod/${name}`,
    ...PREVIEW,
  });
  const checkAll = async (names: string[]) => {
    const results = [];
    for (const name of names) results.push({ name, ...(await impl.check({}, vps(name))) });
    return results;
  };

  it("fails the check that takes the run over the budget, saying the totals, and passes when it fits", async () => {
    const fee = (await impl.check({}, vps("probe"))).inputs.plannedMonthlyFeeUsd as number;
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: String(3 * fee - 0.01) });
    const over = await checkAll(["web-1", "web-2", "web-3"]);
    expect(over.map((r) => r.failures?.length ?? 0)).toEqual([0, 0, 1]);
    const money = (n: number) => `$${n.toFixed(2)}`;
    expect(over[2]!.failures![0]!.reason).toBe(
      `[RIMU_ERR_BUDGET] this run takes the account's monthly fees (every active order on it, with the changes of ` +
        `the 3 VPSs checked so far) from $0.00 ` +
        `to ${money(3 * fee)}, over the monthly budget of ${money(3 * fee - 0.01)} (rimuhosting:monthlyBudgetUsd); it adds ` +
        `${money(3 * fee)} a month (new VPSs and growing changes; shrinks are not netted). Adding the most: ` +
        `web-1 +${money(fee)} (new), web-2 +${money(fee)} (new), web-3 +${money(fee)} (new). A VPS this run ` +
        `deletes counts until it is deleted, which the engine does after the run's orders and changes (delete it ` +
        `in a run of its own first to make room). Raise the limit, or order less in this run. Nothing was ordered ` +
        `or changed. See docs/cost.md.`,
    );
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: String(3 * fee) });
    expect((await checkAll(["web-1", "web-2", "web-3"])).map((r) => r.failures)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("maxMonthlyIncreaseUsd counts what the run adds, not what is already billed", async () => {
    const { inputs } = await createChecked(vps("db"));
    testing.forgetRun();
    await configure({ maxMonthlyIncreaseUsd: "15" });
    const unchanged = await impl.check(inputs, vps("db"));
    expect(unchanged.failures).toBeUndefined();
    const added = await checkAll(["web-1", "web-2"]);
    expect(added.map((r) => r.failures?.[0]?.reason ?? "")).toEqual([
      "",
      expect.stringMatching(
        /^\[RIMU_ERR_BUDGET\] .* over the \$15\.00 one run may add \(rimuhosting:maxMonthlyIncreaseUsd\)/,
      ),
    ]);
  });

  it("warn mode says the same as a warning for each check that adds while over, with the totals so far", async () => {
    // A run of its own: on Node 24 a check of the test before (its "web") was still counted in the run.
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: "1", budgetEnforcement: "warn" });
    const results = await checkAll(["web-1", "web-2"]);
    expect(results.map((r) => r.failures)).toEqual([undefined, undefined]);
    const warnings = fixture().logs.filter((l) => l.includes("over budget"));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^\[rimuhosting\] warning: web-1: over budget \(rimuhosting:budgetEnforcement: warn\): this run takes the account's monthly fees \(every active order on it, with the changes of the 1 VPS checked so far\) .* over the monthly budget of \$1\.00/,
      ),
      expect.stringMatching(/^\[rimuhosting\] warning: web-2: over budget .* the 2 VPSs checked so far/),
    ]);
  });

  it("warn mode, once over: every later check warns with the totals, so the last gives the run's final total", async () => {
    const { inputs } = await createChecked(vps("db"));
    const fee = inputs.plannedMonthlyFeeUsd as number;
    const money = (n: number) => `$${n.toFixed(2)}`;
    testing.forgetRun();
    // web-1 takes the account over; db's shrink (less memory) then brings it back within.
    await configure({ monthlyBudgetUsd: String(2 * fee - 0.5), budgetEnforcement: "warn" });
    expect((await impl.check({}, vps("web-1"))).failures).toBeUndefined();
    const shrunk = await impl.check(inputs, { ...vps("db"), memoryMb: 512 });
    expect(shrunk.failures).toBeUndefined();
    const after = fee + (shrunk.inputs.plannedMonthlyFeeUsd as number);
    expect(after).toBeLessThan(2 * fee - 0.5);
    const warnings = fixture().logs.filter((line) => line.includes("(rimuhosting:budgetEnforcement: warn)"));
    expect(warnings).toEqual([
      expect.stringContaining(`web-1: over budget`),
      `[rimuhosting] warning: db: within budget again (rimuhosting:budgetEnforcement: warn), with the VPSs ` +
        `checked so far: this run takes the account's monthly fees (every active order on it, with the changes of ` +
        `the 2 VPSs checked so far) from ${money(fee)} to ${money(after)}, within the monthly budget of ` +
        `${money(2 * fee - 0.5)} (rimuhosting:monthlyBudgetUsd); it adds ${money(fee)} a month (new VPSs and ` +
        `growing changes; shrinks are not netted).`,
    ]);
    // Still over after a later check that adds nothing: it says so, with the totals.
    testing.forgetRun();
    fixture().logs.length = 0;
    await configure({ monthlyBudgetUsd: "1", budgetEnforcement: "warn" });
    await impl.check({}, vps("web-2"));
    await impl.check(inputs, vps("db"));
    expect(fixture().logs.filter((line) => line.includes("(rimuhosting:budgetEnforcement: warn)"))).toEqual([
      expect.stringContaining("web-2: over budget"),
      expect.stringMatching(
        new RegExp(
          `db: still over budget .* from \\${money(fee)} to \\${money(2 * fee)}, over the monthly budget`,
        ),
      ),
    ]);
  });

  it("counts the account's orders this run does not check, and never blocks a check that adds nothing", async () => {
    const { inputs } = await createChecked(vps("db"));
    const fee = inputs.plannedMonthlyFeeUsd as number;
    // An order of the same account that this run does not check (another stack's, untargeted, ordered by hand).
    await createChecked(vps("elsewhere"));
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: String(fee) });
    // The account is over its budget already: an unchanged VPS passes, a new one fails and counts both orders.
    expect((await impl.check(inputs, vps("db"))).failures).toBeUndefined();
    const added = await impl.check({}, vps("web"));
    const money = (n: number) => `$${n.toFixed(2)}`;
    expect(added.failures?.[0]?.reason).toContain(
      `with the changes of the 2 VPSs checked so far) from ${money(2 * fee)} to ${money(3 * fee)}, over the monthly budget`,
    );
  });

  it("plans what diff() plans: a VPS shrunk by hand, program and state unchanged, adds nothing", async () => {
    const { id, inputs } = await createChecked({ ...vps("db"), memoryMb: 2048 });
    await fixture().byHand.changeParameters(Number(id), { memory_mb: 1024 });
    testing.forgetRun();
    await configure({ maxMonthlyIncreaseUsd: "0" });
    const checked = await impl.check(inputs, { ...vps("db"), memoryMb: 2048 });
    expect(checked.failures).toBeUndefined();
    const live = (await fixture().byHand.getOrder(Number(id))).about_order;
    const liveFee = Number(live.billing_info?.monthly_recurring_amt?.amt_usd);
    expect(checked.inputs.plannedMonthlyFeeUsd).toBe(liveFee);
    expect(checked.inputs.currentMonthlyFeeUsd).toBe(liveFee);
  });

  it("says, once, with the live figures, that the account is over its budget before the run", async () => {
    const { id, inputs } = await createChecked(vps("db"));
    await fixture().byHand.changeParameters(Number(id), { memory_mb: 2048 });
    const live = (await fixture().byHand.getOrder(Number(id))).about_order;
    const liveFee = Number(live.billing_info?.monthly_recurring_amt?.amt_usd);
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: String(liveFee - 1) });
    const money = (n: number) => `$${n.toFixed(2)}`;
    // A no-op preview passes, and says so; a second check of the run does not say it again.
    expect((await impl.check(inputs, vps("db"))).failures).toBeUndefined();
    expect((await impl.check(inputs, vps("db"))).failures).toBeUndefined();
    const said = fixture().logs.filter((line) => line.includes("over its monthly budget before this run"));
    expect(said).toEqual([
      expect.stringContaining(
        `its active orders are billed ${money(liveFee)} a month (this stack's, other stacks' and any made by ` +
          `hand), over the monthly budget of ${money(liveFee - 1)} (rimuhosting:monthlyBudgetUsd). Until it is ` +
          "back within, only changes that add nothing are let through; a VPS this run deletes counts until it is " +
          "deleted, after the run's orders and changes. If a VPS of this stack was changed by hand, `pulumi " +
          "refresh --preview-only` shows which, and `pulumi up --refresh` puts it back",
      ),
    ]);
  });

  it("an active order with no fee reported leaves the account's total unknown, never $0: as the guard judges", async () => {
    await createChecked(vps("db"));
    const listed = (await fixture().byHand.listOrders({ includeInactive: false })).about_orders ?? [];
    // RimuHosting's listing of an order that reports no monthly fee (the emulator always reports one).
    const orders = listed.map((order) => ({ ...order, billing_info: null }));
    const judged = (settings: Record<string, string>, fee: { usd: number; nowUsd?: number }) => {
      const budget = readBudget((key) => settings[key]);
      const view = { fees: new FeeLedger() } as unknown as AccountView;
      view.fees.billedNow(accountCentsOf(orders));
      return judgeBudget(budget, view, { resource: "web", name: "web" }, fee, true);
    };
    const oid = listed[0]!.order_oid;
    expect(judged({ monthlyBudgetUsd: "1000" }, { usd: 10 }).failures.map((f) => f.reason)).toEqual([
      `the budget cannot total the account: RimuHosting reports no monthly fee for order ${oid}, and a fee it ` +
        `cannot count is never counted as $0. Leave out rimuhosting:monthlyBudgetUsd, or set ` +
        `rimuhosting:budgetEnforcement to warn to go on with a warning`,
    ]);
    const warned = judged({ monthlyBudgetUsd: "1000", budgetEnforcement: "warn" }, { usd: 10 });
    expect(warned.failures).toEqual([]);
    expect(JSON.stringify(warned.notes)).toContain(`no monthly fee for order ${oid}`);
    // A change that adds nothing, or a limit that needs no account total, is judged as before.
    expect(judged({ monthlyBudgetUsd: "1000" }, { usd: 10, nowUsd: 10 }).failures).toEqual([]);
    expect(judged({ maxMonthlyIncreaseUsd: "1000" }, { usd: 10 }).failures).toEqual([]);
  });

  it("an unknown price is never counted as $0: enforce fails it, saying how to fix it; warn warns", async () => {
    await configure({ monthlyBudgetUsd: "1000" });
    const unknown = unchecked({ ...vps("later"), memoryMb: UNKNOWN });
    expect((await impl.check({}, unknown)).failures?.[0]?.reason).toBe(
      "[RIMU_ERR_BUDGET] the budget cannot count this VPS's fee after this run (memoryMb not known until the " +
        "update runs), and never counts it as $0. Give its plan, sizes and data centre values known in the preview " +
        "(not outputs of resources this run creates), or set rimuhosting:budgetEnforcement to warn to go on with a " +
        "warning. Nothing was ordered or changed. See docs/cost.md.",
    );
    await configure({ monthlyBudgetUsd: "1000", budgetEnforcement: "warn" });
    expect((await impl.check({}, unknown)).failures).toBeUndefined();
    expect(fixture().logs.filter((l) => l.includes("not counted by the budget"))).toEqual([
      expect.stringMatching(
        /^\[rimuhosting\] warning: later: not counted by the budget \(rimuhosting:budgetEnforcement: warn\): the budget cannot count/,
      ),
    ]);
  });

  it("a price with no USD amount is refused by name, never counted as $0; bad settings fail every check", async () => {
    await configure({ monthlyBudgetUsd: "1000" });
    const nzd = await impl.check({}, { ...vps("big"), pricingPlanCode: "MIRO8B", memoryMb: 8192 });
    expect(nzd.failures?.[0]?.reason).toMatch(
      /^\[RIMU_ERR_BUDGET\] the budget counts fees in US dollars, and RimuHosting priced it as NZ\$\d+\.\d\d with no USD amount.*never counted as \$0/,
    );
    await configure({ monthlyBudgetUsd: "a lot" });
    expect((await impl.check({}, vps("web"))).failures?.[0]?.reason).toMatch(
      /^\[RIMU_ERR_CONFIG\] rimuhosting:monthlyBudgetUsd must be a number of US dollars a month/,
    );
  });
});

describe("the budget's settings from the environment, read as apiKey's are (both front ends)", () => {
  // Issue 55, item 7b: RIMUHOSTING_MONTHLYBUDGETUSD was ignored while messages said to fix "its environment variable".
  const fixture = useImplFixture();
  const ENV = {
    monthlyBudgetUsd: "RIMUHOSTING_MONTHLYBUDGETUSD",
    maxMonthlyIncreaseUsd: "RIMUHOSTING_MAXMONTHLYINCREASEUSD",
    budgetEnforcement: "RIMUHOSTING_BUDGETENFORCEMENT",
  };
  afterEach(async () => {
    for (const name of Object.values(ENV)) delete process.env[name];
    await impl.configure({ config: stackConfig(fixture().emulator.baseUrl) });
  });
  const vps = { ...APP_INPUTS, __preview: true };
  const configure = async (settings: Record<string, string> = {}) => {
    testing.forgetRun();
    await impl.configure({ config: stackConfigWith(fixture().emulator.baseUrl, settings) });
  };

  it("the dynamic Vps: each budget key from its variable when the stack config has none, named in messages", async () => {
    process.env[ENV.monthlyBudgetUsd] = "0.01";
    await configure();
    expect((await impl.check({}, vps)).failures?.[0]?.reason).toMatch(
      /^\[RIMU_ERR_BUDGET\] this run takes .* over the monthly budget of \$0\.01 \(RIMUHOSTING_MONTHLYBUDGETUSD\)/,
    );
    process.env[ENV.budgetEnforcement] = "warn";
    await configure();
    expect((await impl.check({}, vps)).failures).toBeUndefined();
    // The stack config is read first, as for apiKey and baseUrl.
    delete process.env[ENV.budgetEnforcement];
    await configure({ monthlyBudgetUsd: "1000" });
    expect((await impl.check({}, vps)).failures).toBeUndefined();
    process.env[ENV.maxMonthlyIncreaseUsd] = "a lot";
    await configure({ monthlyBudgetUsd: "1000" });
    expect((await impl.check({}, vps)).failures?.[0]?.reason).toBe(
      '[RIMU_ERR_CONFIG] RIMUHOSTING_MAXMONTHLYINCREASEUSD must be a number of US dollars a month, 0 or more, such as 50 (given: "a lot"): ' +
        "fix it in the environment (the variable is read when rimuhosting:maxMonthlyIncreaseUsd is not set). " +
        "Nothing was ordered or changed. Fix the setting named above in the stack config (or its environment variable).",
    );
  });

  it("the native plugin: its default provider and an explicit provider without the argument read it too", async () => {
    process.env[ENV.maxMonthlyIncreaseUsd] = "0";
    const settings = { apiKey: DEMO_API_KEY, baseUrl: fixture().emulator.baseUrl };
    const check = () =>
      native.check(
        "urn:pulumi:prod::shop::rimuhosting:index:Vps::app",
        {},
        { ...APP_INPUTS, creationScope: undefined },
      );
    for (const provider of ["default_0_1_0", "alice"]) {
      testing.forgetRun();
      await configureProvider(
        `urn:pulumi:prod::shop::pulumi:providers:rimuhosting::${provider}`,
        settings,
        new Map(),
      );
      expect((await check()).failures[0]?.reason).toMatch(
        /^\[RIMU_ERR_BUDGET\] .*over the \$0\.00 one run may add \(RIMUHOSTING_MAXMONTHLYINCREASEUSD\)/,
      );
    }
    // The provider's own argument is read first.
    testing.forgetRun();
    await configureProvider(
      "urn:pulumi:prod::shop::pulumi:providers:rimuhosting::alice",
      { ...settings, maxMonthlyIncreaseUsd: "1000" },
      new Map(),
    );
    expect((await check()).failures).toEqual([]);
  });
});
