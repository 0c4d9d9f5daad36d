/**
 * The budget: the ledger's arithmetic (pure), its settings, and the hook check() runs for each VPS, called as the
 * dynamic provider's host calls it against a real emulator (L1). Through the real CLI: test/engine/budget.test.ts.
 */
import {
  FeeLedger,
  limitsPassed,
  overBudgetMessage,
  type BudgetLimits,
  type FeeEntry,
} from "../../../provider/impl/budget-ledger";
import { readBudget } from "../../../provider/impl/budget";
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { APP_INPUTS, createChecked, stackConfig, useImplFixture } from "../support/impl-fixture";

const NAMES = {
  monthlyBudgetUsd: "rimuhosting:monthlyBudgetUsd",
  maxMonthlyIncreaseUsd: "rimuhosting:maxMonthlyIncreaseUsd",
};

const ledgerOf = (entries: [string, FeeEntry][]) => {
  const ledger = new FeeLedger();
  for (const [key, entry] of entries) ledger.record(key, entry);
  return ledger;
};

describe("the fee ledger's arithmetic", () => {
  const run: [string, FeeEntry][] = [
    ["new", { name: "web", plannedUsd: 10 }],
    ["resize", { name: "db", nowUsd: 10, plannedUsd: 16 }],
    ["same", { name: "cache", nowUsd: 7.5, plannedUsd: 7.5 }],
    ["shrink", { name: "old", nowUsd: 20, plannedUsd: 12.25 }],
    ["unknown", { name: "later", nowUsd: 5 }],
  ];

  it("adds the fees before and after, and counts new VPSs and growth, never netting shrinks", () => {
    const totals = ledgerOf(run).totals();
    expect(totals).toMatchObject({ count: 5, beforeCents: 4250, afterCents: 5075, increaseCents: 1600 });
    expect(totals.adders.map((a) => [a.name, a.addsCents])).toEqual([
      ["web", 1000],
      ["db", 600],
    ]);
  });

  it("counts a replacement once: its second check (no fee now) keeps the fee it is billed now", () => {
    const ledger = ledgerOf([["web", { name: "web", nowUsd: 10, plannedUsd: 12 }]]);
    ledger.record("web", { name: "web", plannedUsd: 12 });
    expect(ledger.totals()).toMatchObject({
      count: 1,
      beforeCents: 1000,
      afterCents: 1200,
      increaseCents: 200,
    });
  });

  it("reaches the same verdict in every order of checks, and its sums never fall as checks arrive", () => {
    const limits: BudgetLimits = { monthlyBudgetUsd: 50, maxMonthlyIncreaseUsd: 15.99 };
    const permutations = (items: [string, FeeEntry][]): [string, FeeEntry][][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) =>
            permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
          );
    const verdicts = new Set<string>();
    for (const order of permutations(run)) {
      const ledger = new FeeLedger();
      let last = { afterCents: 0, increaseCents: 0 };
      for (const [key, entry] of order) {
        ledger.record(key, entry);
        const totals = ledger.totals();
        expect(totals.afterCents).toBeGreaterThanOrEqual(last.afterCents);
        expect(totals.increaseCents).toBeGreaterThanOrEqual(last.increaseCents);
        last = totals;
      }
      verdicts.add(limitsPassed(limits, ledger.totals()).join());
    }
    expect([...verdicts]).toEqual(["monthlyBudgetUsd,maxMonthlyIncreaseUsd"]);
  });

  it("says the totals before and after, the budget, the increase and who adds the most, in one message", () => {
    const message = overBudgetMessage(
      { monthlyBudgetUsd: 50, maxMonthlyIncreaseUsd: 20 },
      ledgerOf(run).totals(),
      NAMES,
    );
    expect(message).toBe(
      "this run takes the monthly fees of the 5 VPSs this provider has checked so far from $42.50 to $50.75, " +
        "over the monthly budget of $50.00 (rimuhosting:monthlyBudgetUsd); it adds $16.00 a month (new VPSs and " +
        "growing changes; shrinks are not netted), within the $20.00 one run may add " +
        "(rimuhosting:maxMonthlyIncreaseUsd). Adding the most: web +$10.00 (new), db +$6.00 ($10.00 → $16.00). " +
        "Raise the limit, or order less in this run",
    );
    expect(overBudgetMessage({ monthlyBudgetUsd: 50.75 }, ledgerOf(run).totals(), NAMES)).toBeUndefined();
    expect(overBudgetMessage({ maxMonthlyIncreaseUsd: 15 }, ledgerOf(run).totals(), NAMES)).toContain(
      "no monthly budget is set; it adds $16.00 a month (new VPSs and growing changes; shrinks are not netted), over the $15.00 one run may add",
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
  const configure = (settings: Record<string, string>) => {
    const base = stackConfig(fixture().emulator.baseUrl);
    return impl.configure({
      config: { get: (key) => settings[key.replace("rimuhosting:", "")] ?? base.get(key) },
    });
  };
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
      `[RIMU_ERR_BUDGET] this run takes the monthly fees of the 3 VPSs this provider has checked so far from $0.00 ` +
        `to ${money(3 * fee)}, over the monthly budget of ${money(3 * fee - 0.01)} (rimuhosting:monthlyBudgetUsd); it adds ` +
        `${money(3 * fee)} a month (new VPSs and growing changes; shrinks are not netted). Adding the most: ` +
        `web-1 +${money(fee)} (new), web-2 +${money(fee)} (new), web-3 +${money(fee)} (new). Raise the limit, or ` +
        `order less in this run. Nothing was ordered or changed (see docs/cost.md).`,
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

  it("warn mode says the same as a warning, once, and the check passes", async () => {
    await configure({ monthlyBudgetUsd: "1", budgetEnforcement: "warn" });
    const results = await checkAll(["web-1", "web-2"]);
    expect(results.map((r) => r.failures)).toEqual([undefined, undefined]);
    const warnings = fixture().logs.filter((l) => l.includes("over budget"));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^\[rimuhosting\] warning: web-1: over budget \(rimuhosting:budgetEnforcement: warn\): this run takes .* over the monthly budget of \$1\.00/,
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
