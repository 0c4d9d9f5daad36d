/**
 * The cost model (provider/impl/cost/), pure: a budget setting's strict reading, money in cents, the fee of a VPS
 * after each kind of change, and the verdict. The table every judge runs: test/provider/impl/cost/judges.test.ts.
 */
import { dollars, pricedInUsd } from "../../../../provider/impl/cost/money";
import { amountOf, readBudgetSettings } from "../../../../provider/impl/cost/setting";
import { feeAfterChange } from "../../../../provider/impl/cost/fee";
import { totalsOf, verdictOf, type VpsFee } from "../../../../provider/impl/cost/verdict";

const WORDS = { name: (key: string) => `rimuhosting:${key}`, place: () => "the stack config" };

describe("a budget setting", () => {
  it("is a number, or plain decimal text, 0 or more", () => {
    expect([50, 0, 12.5, "50", "12.50", "0"].map(amountOf)).toEqual([50, 0, 12.5, 50, 12.5, 0]);
    expect(amountOf(undefined)).toBeUndefined();
  });

  it("refuses text with spaces around its amount, saying so, where it was read as the amount without a word", () => {
    for (const spaced of ["  5 ", " 12.50", "50\n"])
      expect([spaced, amountOf(spaced)]).toEqual([spaced, NaN]);
    expect(
      readBudgetSettings((key) => (key === "monthlyBudgetUsd" ? "  5 " : undefined), WORDS).problems,
    ).toEqual([
      'rimuhosting:monthlyBudgetUsd has spaces around its amount (given: "  5 "): write the number alone, such as 5; ' +
        "fix it in the stack config.",
    ]);
  });

  it("refuses exponents, hexadecimal, signs, infinity and other types", () => {
    for (const bad of ["1e3", "0x10", "-3", "+3", "Infinity", ".5", "5.", "1,000", -1, Infinity, NaN, true])
      expect([bad, amountOf(bad)]).toEqual([bad, NaN]);
  });

  it("refuses an amount above $1,000,000,000 a month, as it refuses Infinity: a 401-digit number is no budget", () => {
    const huge = "9".repeat(401);
    expect([1_000_000_000, "1000000000", "1000000000.00"].map(amountOf)).toEqual([1e9, 1e9, 1e9]);
    for (const bad of [huge, "1000000000.01", 1e9 + 1, Number.MAX_VALUE])
      expect([bad, amountOf(bad)]).toEqual([bad, NaN]);
    expect(
      readBudgetSettings((key) => (key === "monthlyBudgetUsd" ? huge : undefined), WORDS).problems,
    ).toEqual([
      "rimuhosting:monthlyBudgetUsd is over 1000000000, the largest budget accepted (US dollars a month; given: a " +
        "number of 401 digits): give a number from 0 to 1000000000, such as 50, or remove the setting to set no " +
        "limit; fix it in the stack config.",
    ]);
    expect(
      readBudgetSettings((key) => (key === "maxMonthlyIncreaseUsd" ? 2e9 : undefined), WORDS).problems,
    ).toEqual([
      "rimuhosting:maxMonthlyIncreaseUsd is over 1000000000, the largest budget accepted (US dollars a month; " +
        "given: 2000000000): give a number from 0 to 1000000000, such as 50, or remove the setting to set no " +
        "limit; fix it in the stack config.",
    ]);
  });

  it("refuses an empty value, naming the setting and where to fix it, never turning the limit off", () => {
    expect(readBudgetSettings((key) => (key === "monthlyBudgetUsd" ? " " : undefined), WORDS)).toEqual({
      settings: { enforcement: "enforce" },
      problems: [
        "rimuhosting:monthlyBudgetUsd is empty: give a number of US dollars a month, 0 or more, such as 50, or " +
          "remove the setting to set no limit; fix it in the stack config.",
      ],
    });
    expect(
      readBudgetSettings((key) => (key === "budgetEnforcement" ? "" : undefined), WORDS).problems,
    ).toEqual([
      'rimuhosting:budgetEnforcement must be enforce (a run over the budget fails) or warn (it only warns) (given: ""): fix it in the stack config.',
    ]);
    expect(
      readBudgetSettings((key) => (key === "maxMonthlyIncreaseUsd" ? "1e3" : undefined), WORDS).problems,
    ).toEqual([
      'rimuhosting:maxMonthlyIncreaseUsd must be a number of US dollars a month, 0 or more, such as 50 (given: "1e3"): fix it in the stack config.',
    ]);
  });
});

describe("money", () => {
  it("counts US dollars in whole cents and never takes another currency for them", () => {
    expect(pricedInUsd({ amount: 10.305, currency: "USD" })).toEqual({ cents: 1031 });
    expect(pricedInUsd({ amount: 36, currency: "NZD" }, "NZ$36.00")).toEqual({
      why: "RimuHosting priced it as NZ$36.00 with no USD amount, and fees are counted in USD",
    });
    expect(pricedInUsd(undefined)).toEqual({ why: "RimuHosting's answer carried no price" });
    expect([dollars(1250), dollars(-300), dollars(0)]).toEqual(["$12.50", "-$3.00", "$0.00"]);
  });
});

describe("the fee of a VPS after a change", () => {
  const quote = { cents: 2000 };
  it("is the quote for a new VPS and any priced change, the fee now for an unchanged or imported one", () => {
    expect(feeAfterChange({ name: "a", kind: "new", quote })).toEqual({ name: "a", after: quote });
    for (const kind of ["resize", "move", "replacement", "adopted"] as const)
      expect(feeAfterChange({ name: "a", kind, nowCents: 1000, quote })).toEqual({
        name: "a",
        nowCents: 1000,
        after: quote,
      });
    for (const kind of ["unchanged", "imported"] as const)
      expect(feeAfterChange({ name: "a", kind, nowCents: 1000 })).toEqual({
        name: "a",
        nowCents: 1000,
        after: { cents: 1000 },
      });
  });

  it("says why when the price is not known, never $0", () => {
    expect(feeAfterChange({ name: "a", kind: "resize", nowCents: 1000 }).after).toEqual({
      why: "its price was not quoted",
    });
    expect(feeAfterChange({ name: "a", kind: "unchanged" }).after).toEqual({
      why: "RimuHosting does not report the order's fee",
    });
  });
});

describe("the verdict", () => {
  const fees: VpsFee[] = [
    { name: "web", after: { cents: 1000 } },
    { name: "db", nowCents: 1000, after: { cents: 1600 } },
    { name: "old", nowCents: 2000, after: { cents: 1225 } },
  ];

  it("starts from what the scope is billed now, moves each VPS to its fee after, and never nets shrinks in the increase", () => {
    // The scope is billed $50: db's $10 and old's $20 among it.
    expect(totalsOf(5000, fees)).toMatchObject({ beforeCents: 5000, afterCents: 5825, increaseCents: 1600 });
  });

  it("fails the VPSs whose change adds when the totals are over a limit, compared with the budget rounded to cents", () => {
    const verdict = verdictOf({ monthlyBudgetUsd: 58.244 }, 5000, fees);
    expect(verdict).toMatchObject({
      judgement: "over",
      passed: ["monthlyBudgetUsd"],
      blocked: ["web", "db"],
    });
    expect(verdictOf({ maxMonthlyIncreaseUsd: 15.99 }, 5000, fees).passed).toEqual(["maxMonthlyIncreaseUsd"]);
  });

  it("judges each VPS at its turn, in the order given (the preview's checks): a growing change before the shrink that makes room fails", () => {
    // The run ends at $58.25, on a budget of $58.245 rounded to cents; web and db add while old is not shrunk yet.
    const growFirst = verdictOf({ monthlyBudgetUsd: 58.245 }, 5000, fees);
    expect(growFirst).toMatchObject({ judgement: "over", passed: [], blocked: ["web", "db"] });
    expect(growFirst.totals.afterCents).toBe(5825);
    expect(growFirst.firstOver).toMatchObject({ name: "web", passed: ["monthlyBudgetUsd"] });
    expect(growFirst.firstOver?.totals.afterCents).toBe(6000);
    // The shrink checked first makes the room: every judge passes it.
    const shrinkFirst = verdictOf({ monthlyBudgetUsd: 58.245 }, 5000, [fees[2]!, fees[0]!, fees[1]!]);
    expect(shrinkFirst).toMatchObject({ judgement: "fits", passed: [], blocked: [] });
    expect(shrinkFirst.firstOver).toBeUndefined();
  });

  it("never blocks a run that only lowers or keeps the total, even over budget", () => {
    const shrinkOnly = [fees[2]!, { name: "same", nowCents: 500, after: { cents: 500 } }];
    expect(verdictOf({ monthlyBudgetUsd: 1 }, 9000, shrinkOnly)).toMatchObject({
      judgement: "fits",
      blocked: [],
    });
    expect(verdictOf({ monthlyBudgetUsd: 1 }, 9000, [])).toMatchObject({ judgement: "fits", blocked: [] });
  });

  it("cannot count an unknown price while a limit is set, and never counts it as $0", () => {
    const unknown: VpsFee = { name: "later", nowCents: 500, after: { why: "memoryMb not known" } };
    const verdict = verdictOf({ monthlyBudgetUsd: 1000 }, 5500, [...fees, unknown]);
    expect(verdict).toMatchObject({ judgement: "unknown", blocked: ["later"] });
    expect(verdict.totals.unknown).toEqual([{ name: "later", why: "memoryMb not known" }]);
    expect(verdictOf({}, 5500, [unknown]).judgement).toBe("none");
  });
});
