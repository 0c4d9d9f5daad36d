/**
 * One table of cases, three judges of the budget (docs/cost.md): the provider's check (provider/impl/budget/budget.ts's
 * judgeBudget over the run's fee ledger, cost/ledger.ts and cost/verdict.ts), the bill (provider/bill/judge.ts's
 * judgeScope) and the policy pack (policy-pack/monthly-budget.ts, on its copy of the verdict,
 * policy-pack/budget-verdict.ts). Each case is given to each judge in the form that judge reads (a planned fee per
 * check; a bill's VPS line with its kind and fees; a VPS's checked inputs and the stack), and all three must give
 * the same verdict and the same figures, in cents. The cases: three-judges-cases.ts; the bill's and the pack's
 * judges: three-judges-offline.ts.
 *
 * A fourth judge, the guard at the moment of ordering (provider/impl/ordering/order-guard.ts), runs each case for real: the
 * account's orders placed on an emulator over HTTP at the case's fees (the emulator prices by sizes, SIZES), then
 * the run's creates and updates through impl's create() and update(), non-adding changes first so that its last
 * verdict states the run's final totals. It judges only what orders or changes a fee: where it judges nothing (an
 * import, a delete, no limit set), only its verdict is compared.
 *
 * The provider's scope is the account: here an account that holds exactly the stack's orders. A VPS the run deletes
 * counts at its fee now until it is deleted, which the engine does after the run's orders and changes (the run's
 * highest point is judged: cost/fee.ts, "deleted"): every judge counts it so (I5). The pack learns it from the
 * stack's state (policy-pack/stack-state.ts), here given as the case's VPSs billed now; the guard deletes last.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import type { AccountView } from "../../provider/impl/account/account-view";
import { pricedOf, quoteRequest } from "../../provider/impl/budget/money";
import { plannedFeeOf, priceOf, type PlannedFee } from "../../provider/impl/budget/planned-fee";
import { accountView, configuredBaseUrl } from "../../provider/impl/lifecycle/runtime-config";
import { RunContext, currentRun } from "../../provider/impl/engine/run-context";
import * as testing from "../../provider/impl/testing";
import { UNKNOWN, knownValues, unknownKeys } from "../../provider/impl/inputs/unknowns";
import { RECORDED_ORDER_KEY } from "../../provider/impl/fields/vps-fields";
import type { VpsInputs } from "../../provider/impl/inputs/vps-input-schema";
import { liveOrderOf } from "../../provider/impl/lookahead/vps-lookahead";
import { orderFields } from "../../provider/wire-mapping/order-fields";
import { APP_INPUTS, stackConfig, useImplFixture, type ImplFixture } from "../provider/support/impl-fixture";
import { judgeBudget, readBudget } from "../../provider/impl/budget/budget";
import { FeeLedger } from "../../provider/impl/cost/ledger";
import { cents } from "../../provider/impl/cost/money";
import type { BudgetSetting } from "../../provider/impl/cost/setting";
import { judgeScope, judgeThresholds } from "../../provider/bill/judge";
import * as costModel from "../../provider/impl/cost/verdict";
import * as packRules from "../../policy-pack/budget-verdict";
import { feeAfterChange } from "../../provider/impl/cost/fee";
import * as impl from "../../provider/impl/index";
import { CASES, type Case, type Judged, type Row, type Verdict } from "./three-judges-cases";
import { billJudges, packJudges } from "./three-judges-offline";

// The provider's column runs against an emulator on 127.0.0.1: each VPS billed now is a real order placed at that
// fee, and its planned fee is worked out by plannedFeeOf (planned-fee.ts over cost/fee.ts) from RimuHosting's
// quotes, so a change to which fee counts shows up in this table.
// MIRO8B priced in NZ dollars only: the guard's column orders it for a price it cannot count (NOT_IN_USD).
const fixture = useImplFixture({ planCurrencies: { MIRO8B: "CUR_NZD" } });

/**
 * A program the emulator prices at `usd` a month in Dallas (emulator/catalog/pricing.ts: $2, plus $6 a GB of
 * memory, plus $0.10 a GB of disk): 256 MB of memory and the disk that makes up the rest.
 */
const pricedAt = (name: string, usd: number): VpsInputs => ({
  ...APP_INPUTS,
  domainName: `${name}.example.com`,
  creationScope: `three-judges/${name}`,
  memoryMb: 256,
  diskSpaceMb: Math.round((usd - 3.5) * 10) * 1024,
});

/**
 * Each VPS billed now placed as a real order, by a run of its own: the served run's settings with no budget, so the
 * order guard lets it through, given to each call (serving) rather than set on the run the test serves.
 */
async function placeOrders(rows: readonly Row[]) {
  const served = currentRun();
  const placing = new RunContext(`three-judges placing ${randomUUID()}`, { log: served.log });
  placing.settings = { ...served.settings, budget: readBudget(() => undefined) };
  placing.tuning = served.tuning;
  const placed = new Map<string, VpsInputs>();
  for (const row of rows)
    if (row.now !== undefined) {
      const checked = await testing.serving(placing, () => impl.check({}, pricedAt(row.name, row.now!)));
      expect(checked.failures).toBeUndefined();
      await testing.serving(placing, () => impl.create(checked.inputs));
      placed.set(row.name, checked.inputs as VpsInputs);
    }
  testing.forgetRun(); // the check below is a new run: it reads the account's listing afresh
  return placed;
}

/** The planned fee of `row`, as the provider's check works it out (vps-lookahead.ts's checkAll). */
async function plannedFeeOfRow(row: Row, placed: VpsInputs | undefined): Promise<PlannedFee> {
  const at = { view: accountView(currentRun(), "Checking a Vps"), baseUrl: configuredBaseUrl(currentRun()) };
  const check = (before: VpsInputs, after: VpsInputs) => ({
    ...at,
    isNew: placed === undefined || row.kind === "adopt",
    before,
    after,
    known: knownValues(after),
    unknown: unknownKeys(after),
  });
  const wanted =
    row.after === "unknown"
      ? { ...pricedAt(row.name, 10), memoryMb: UNKNOWN as unknown as number }
      : pricedAt(row.name, row.after!);
  if (!placed) return plannedFeeOf(check({}, wanted), {});
  const { order: live } = liveOrderOf({ isNew: false, before: placed }, await at.view.activeOrders());
  const sizes = { memoryMb: wanted.memoryMb, diskSpaceMb: wanted.diskSpaceMb };
  switch (row.kind) {
    case "adopt": {
      // checkAdoption's quote: the order's sizes with the program's over them.
      const program = { ...wanted, adoptOrderOid: live!.order_oid };
      const fields = orderFields(live!);
      const quoted = await priceOf(at, {
        ...pricedOf(fields),
        ...pricedOf(program),
        dcLocation: fields.dcLocation,
      });
      return plannedFeeOf(check({}, program), { adopted: { order: live!, quoted } });
    }
    case "import": {
      // An imported state: the order it records, no creation nonce.
      const { __creationNonce: _nonce, ...imported } = placed;
      const before = { ...imported, [RECORDED_ORDER_KEY]: live!.order_oid };
      return plannedFeeOf(check(before, imported), { live });
    }
    case "move": {
      // The emulator prices every host alike, so the move's own check (host-checks.ts) is quoted for the case's
      // figure: a host the VPS costs more on.
      const host = ["764", "835"].find((oid) => oid !== live!.host_server_oid)!;
      const moveAnswer = await at.view.quote(quoteRequest({ ...wanted, hostServerOid: host }, true));
      return plannedFeeOf(check(placed, { ...placed, hostServerOid: host }), { live, moveAnswer });
    }
    case "replace": {
      const after = { ...placed, ...sizes, domainName: `new-${row.name}.example.com` };
      return plannedFeeOf(check(placed, after), { live });
    }
    case "resize":
      return plannedFeeOf(check(placed, { ...placed, ...sizes }), { live });
    default:
      return plannedFeeOf(check(placed, placed), { live });
  }
}

/** The provider: every VPS of the account checked in turn (deleted ones are only in the listing). */
async function providerJudges(c: Case, explicitProvider?: string): Promise<Judged> {
  const placed = await placeOrders(c.vpss);
  const fees = new Map<string, PlannedFee>();
  for (const row of c.vpss.filter((r) => r.kind !== "delete"))
    fees.set(row.name, await plannedFeeOfRow(row, placed.get(row.name)));
  const budget = readBudget((key) => c.settings[key], explicitProvider);
  const view = { fees: new FeeLedger() } as unknown as AccountView;
  view.fees.billedNow({ cents: c.vpss.reduce((sum, row) => sum + cents(row.now ?? 0), 0), unpriced: [] });
  let failures = 0;
  let warnings = 0;
  let limited = false;
  for (const row of c.vpss.filter((r) => r.kind !== "delete")) {
    const out = judgeBudget(budget, view, { resource: row.name, name: row.name }, fees.get(row.name), true);
    failures += out.failures.length;
    // The warnings of `budgetEnforcement: warn`; the account over its budget before the run is said apart.
    warnings += out.notes.filter((n) => /budgetEnforcement: warn/.test(JSON.stringify(n))).length;
    limited = c.settings.monthlyBudgetUsd !== undefined || c.settings.maxMonthlyIncreaseUsd !== undefined;
  }
  const totals = view.fees.totals();
  const verdict: Verdict = failures > 0 ? "fail" : warnings > 0 ? "warn" : limited ? "pass" : "none";
  return { verdict, afterCents: totals.afterCents, increaseCents: totals.increaseCents };
}

interface Sizes {
  memoryMb: number;
  diskSpaceMb: number;
}

/**
 * Sizes the emulator bills at each fee of the table, in Dallas ($2 + $6 a GB of memory + $0.10 a GB of disk); the
 * first whose disk is no smaller than the VPS's now is used (RimuHosting only grows disks, so a shrink to $12 is
 * less memory on a larger disk).
 */
const SIZES: Record<string, Sizes[]> = {
  "10": [{ memoryMb: 1024, diskSpaceMb: 20480 }],
  "12": [
    { memoryMb: 1024, diskSpaceMb: 40960 },
    { memoryMb: 512, diskSpaceMb: 71680 },
  ],
  "12.5": [{ memoryMb: 1024, diskSpaceMb: 46080 }],
  "19.2": [{ memoryMb: 2048, diskSpaceMb: 53248 }],
  "45": [{ memoryMb: 6144, diskSpaceMb: 71680 }],
};
/** A plan the emulator prices in NZ dollars only: a price the budget cannot count (the "unknown" rows). */
const NOT_IN_USD = { pricingPlanCode: "MIRO8B", memoryMb: 8192, diskSpaceMb: 163840 };

const sizesOf = (usd: number | "unknown" | undefined, now?: Sizes): Sizes & { pricingPlanCode?: string } => {
  if (usd === "unknown") return NOT_IN_USD;
  const sizes = SIZES[String(usd)]?.find((one) => one.diskSpaceMb >= (now?.diskSpaceMb ?? 0));
  if (!sizes)
    throw new Error(`SIZES has no sizes billed at $${usd} with a disk of ${now?.diskSpaceMb} MB or more`);
  return sizes;
};

/**
 * The guard at the moment of ordering: the case's account set up with no limit, then the run with the case's
 * settings, each create or update as the host calls it (`pulumi up --skip-preview`: check() with no preview flag).
 */
async function guardJudges(fx: ImplFixture, c: Case): Promise<Judged & { judged: boolean }> {
  const configure = (settings: Partial<Record<BudgetSetting, string>>) => {
    const base = stackConfig(fx.emulator.baseUrl);
    return impl.configure({
      config: { get: (key) => settings[key.replace("rimuhosting:", "") as BudgetSetting] ?? base.get(key) },
    });
  };
  const inputsOf = (name: string, usd: Row["after"], extra: Record<string, unknown> = {}) => ({
    ...APP_INPUTS,
    domainName: `${name}.guard.example.com`,
    creationScope: `three-judges/guard/${name}`,
    ...sizesOf(usd),
    ...extra,
  });
  const up = async (inputs: Record<string, unknown>) => {
    const checked = await impl.check({}, inputs);
    expect(checked.failures).toBeUndefined();
    return { ...(await impl.create(checked.inputs)), inputs: checked.inputs, program: inputs };
  };
  const byHand = async (name: string, usd: number) => {
    const { memoryMb, diskSpaceMb } = sizesOf(usd);
    const placed = await fx.byHand.createVps({
      instantiation_options: { domain_name: `${name}.guard.example.com`, distro: "deb12.64" },
      vps_parameters: { memory_mb: memoryMb, disk_space_mb: diskSpaceMb },
      dc_location: "DCDALLAS",
    });
    return placed.about_order.order_oid;
  };
  // The account before the run: no limit, so nothing is judged.
  await configure({});
  const setUp = new Map<string, Awaited<ReturnType<typeof up>> | number>();
  for (const row of c.vpss) {
    if (row.now === undefined) continue;
    if (["same", "import", "adopt"].includes(row.kind)) setUp.set(row.name, await byHand(row.name, row.now));
    else
      setUp.set(
        row.name,
        await up(inputsOf(row.name, row.now, row.kind === "move" ? { hostServerOid: "764" } : {})),
      );
    // `pulumi import`: read() records the order; the run then leaves it as it is.
    if (row.kind === "import") await impl.read(String(setUp.get(row.name)), {});
  }
  testing.forgetRun();
  await configure(c.settings);
  const change = async (row: Row, extra: Record<string, unknown>) => {
    const created = setUp.get(row.name) as Awaited<ReturnType<typeof up>>;
    const news = { ...created.program, ...sizesOf(row.after, sizesOf(row.now)), ...extra };
    const checked = await impl.check(created.inputs, news);
    expect(checked.failures).toBeUndefined();
    await impl.update(created.id, created.outs as never, checked.inputs);
  };
  // What the run does to each kind of row; "same" and "import" rows it leaves as they are.
  const steps: Partial<Record<Row["kind"], (row: Row) => Promise<unknown>>> = {
    create: (row) => up(inputsOf(row.name, row.after)),
    resize: (row) => change(row, {}),
    // A move keeps the data centre; the table's move also grows the disk, so its quote differs.
    move: (row) => change(row, { hostServerOid: "835" }),
    replace: async (row) => {
      const created = setUp.get(row.name) as Awaited<ReturnType<typeof up>>;
      const renamed = inputsOf(`${row.name}-2`, row.after);
      await impl.check(created.inputs, renamed); // the engine's check with the old inputs
      return up(renamed);
    },
    adopt: (row) =>
      up({
        ...inputsOf(row.name, row.after),
        adoptOrderOid: setUp.get(row.name) as number,
      }),
    delete: async (row) => {
      const created = setUp.get(row.name) as Awaited<ReturnType<typeof up>>;
      await impl.delete(created.id, created.outs);
    },
  };
  const adds = (row: Row) =>
    row.kind !== "delete" && (row.now === undefined || typeof row.after !== "number" || row.after > row.now);
  // As the engine runs them: the changes that add nothing, those that add, then the deletes (after every order).
  const deletes = c.vpss.filter((row) => row.kind === "delete");
  const ordered = [
    ...c.vpss.filter((row) => !adds(row) && row.kind !== "delete"),
    ...c.vpss.filter(adds),
    ...deletes,
  ];
  let failures = 0;
  for (const row of ordered) {
    try {
      await steps[row.kind]?.(row);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("[RIMU_ERR_BUDGET]")) throw error;
      failures += 1;
    }
  }
  const warnings = fx.logs.filter((line) => /budgetEnforcement: warn\); it goes on/.test(line));
  const limited = c.settings.monthlyBudgetUsd !== undefined || c.settings.maxMonthlyIncreaseUsd !== undefined;
  const last = testing.guardVerdicts().at(-1);
  testing.forgetRun(); // the provider's column below is a run of its own
  return {
    verdict: failures > 0 ? "fail" : warnings.length > 0 ? "warn" : limited ? "pass" : "none",
    afterCents: last?.totals.afterCents ?? NaN,
    increaseCents: last?.totals.increaseCents ?? NaN,
    judged: last !== undefined,
  };
}

describe("one table of cases, three judges: the same verdict and the same figures", () => {
  it("has at least 12 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(12);
  });

  it.each(CASES.map((c) => [c.title, c] as const))("%s", async (_title, c) => {
    const expected: Judged = { verdict: c.verdict, afterCents: c.afterCents, increaseCents: c.increaseCents };
    // First, on the test's fresh account: the guard totals every order on it.
    const { judged, ...guard } = await guardJudges(fixture(), c);
    const guardVerdict = c.guard ?? c.verdict;
    if (judged)
      expect({ judge: "guard", ...guard }).toEqual({ judge: "guard", ...expected, verdict: guardVerdict });
    else
      expect({ judge: "guard", verdict: guard.verdict }).toEqual({ judge: "guard", verdict: guardVerdict });
    const provider = await providerJudges(c);
    // With no limit set the provider judges nothing, and so counts nothing.
    if (c.verdict === "none") expect(provider.verdict).toBe("none");
    else expect({ judge: "provider", ...provider }).toEqual({ judge: "provider", ...expected });
    expect({ judge: "bill", ...billJudges(c) }).toEqual({ judge: "bill", ...expected });
    expect({ judge: "pack", ...packJudges(c) }).toEqual({ judge: "pack", ...expected });
  });
});

describe("the pack applies the cost model's rules, not a copy (policy-pack/cost is provider/impl/cost)", () => {
  it("its verdict, totals and limits are the cost model's own functions", () => {
    expect({
      verdictOf: packRules.verdictOf === costModel.verdictOf,
      totalsOf: packRules.totalsOf === costModel.totalsOf,
      limitsPassed: packRules.limitsPassed === costModel.limitsPassed,
      cents: packRules.cents === cents,
    }).toEqual({ verdictOf: true, totalsOf: true, limitsPassed: true, cents: true });
  });

  const deletes = CASES.flatMap((c) =>
    c.vpss.filter((row) => row.kind === "delete").map((row) => [c.title, row] as const),
  );
  it.each(deletes)("%s: a deleted VPS at its recorded fee, as cost/fee.ts counts a delete", (_title, row) => {
    expect(packRules.deletedFee(row.name, row.now)).toEqual(
      feeAfterChange({ name: row.name, kind: "deleted", nowCents: cents(row.now!) }),
    );
  });
});

describe("two providers: each budget judges its own VPSs, the provider and the bill alike", () => {
  // The pack has one budget for the whole stack (monthly-budget.maxMonthlyUsd), not one per provider, so it is not
  // a judge of this case.
  const scopes: { provider?: string; settings: Case["settings"]; vpss: Row[]; verdict: Verdict }[] = [
    {
      provider: "alice",
      settings: { monthlyBudgetUsd: "40" },
      vpss: [{ name: "a1", kind: "create", after: 30 }],
      verdict: "pass",
    },
    {
      settings: { monthlyBudgetUsd: "5" },
      vpss: [{ name: "d1", kind: "create", after: 4 }],
      verdict: "pass",
    },
    {
      provider: "bob",
      settings: { maxMonthlyIncreaseUsd: "1" },
      vpss: [{ name: "b1", kind: "resize", now: 12, after: 19.2 }],
      verdict: "fail",
    },
  ];

  it.each(scopes.map((s) => [s.provider ?? "the stack config", s] as const))("%s", async (_name, scope) => {
    const c: Case = { title: _name, ...scope, afterCents: 0, increaseCents: 0 };
    const provider = await providerJudges(c, scope.provider);
    expect(billJudges(c, scope.provider)).toEqual(provider);
    expect(provider.verdict).toBe(scope.verdict);
  });
});

describe("thresholds by percentage (the bill's --fail-over <n>%) on each judge's figures", () => {
  it.each([
    [
      "+$7.20 on $12.00 (60 %) is over 50 %",
      { name: "db", kind: "resize", now: 12, after: 19.2 } as Row,
      50,
      "fail",
    ],
    [
      "+$0.50 on $12.00 (about 4 %) is not over 5 %",
      { name: "db", kind: "move", now: 12, after: 12.5 } as Row,
      5,
      "pass",
    ],
  ] as const)("%s", async (title, row, percent, status) => {
    const c: Case = {
      title,
      settings: { monthlyBudgetUsd: "1000" },
      vpss: [row],
      verdict: "pass",
      afterCents: 0,
      increaseCents: 0,
    };
    for (const judged of [await providerJudges(c), billJudges(c), packJudges(c)]) {
      const change = { beforeCents: cents(row.now!), afterCents: judged.afterCents, unpriced: [] };
      expect(judgeThresholds(change, { warn: [], fail: [{ percent }] }).status).toBe(status);
    }
  });
});

describe("the settings: what the provider refuses, the bill refuses, in the same words", () => {
  it.each(["1e3", "0x10", "-3", "", " ", "Infinity", "12,50"])("monthlyBudgetUsd %j", (value) => {
    const provider = readBudget((key) => (key === "monthlyBudgetUsd" ? value : undefined));
    expect(provider.problems).toHaveLength(1);
    const bill = judgeScope({
      settings: { monthlyBudgetUsd: value },
      vpss: [{ name: "web", kind: "create", before: { none: true }, after: { cents: 100 } }],
      providerMessages: [],
      complete: true,
    });
    expect(bill.status).toBe("fail");
    expect(bill.lines[0]).toBe(provider.problems[0]);
  });
});
