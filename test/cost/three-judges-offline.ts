/**
 * Two of the judges of three-judges.test.ts that need no emulator: the bill (provider/bill/judge.ts's judgeScope,
 * from a preview's VPS lines) and the policy pack (policy-pack/monthly-budget.ts, from each VPS's checked inputs and
 * the stack), each given a case of three-judges-cases.ts in the form it reads.
 */
import { cents } from "../../provider/impl/cost/money";
import { judgeScope, type ScopeInput } from "../../provider/bill/judge";
import { monthlyBudgetPolicy } from "../../policy-pack/policies";
import { setStackStateReader } from "../../policy-pack/stack-state";
import { priced, type Case, type Judged, type Verdict } from "./three-judges-cases";

/** The bill: the preview's VPS lines, each with its kind and its fees before and after. */
export function billJudges(c: Case, provider?: string): Judged {
  const fee = (usd: number | undefined, none: boolean) =>
    none
      ? { none: true as const }
      : usd === undefined
        ? { unknown: "price not quoted" }
        : { cents: cents(usd) };
  const input: ScopeInput = {
    provider,
    settings: c.settings,
    vpss: c.vpss.map((row) => ({
      name: row.name,
      kind: row.kind,
      before: fee(row.now, row.now === undefined),
      after: fee(priced(row), row.kind === "delete"),
    })),
    providerMessages: [],
    complete: true,
  };
  const verdict = judgeScope(input);
  return { verdict: verdict.status, afterCents: verdict.afterCents, increaseCents: verdict.increaseCents };
}

const UNKNOWN_IN_PREVIEW = (name: string) => ({
  enumerable: true,
  get() {
    throw new Error(`number value at .${name} can't be known during preview`);
  },
});

/** The pack: each VPS's checked inputs (validateResource), then the stack after the change (validateStack). */
export function packJudges(c: Case): Judged {
  const config = {
    maxMonthlyUsd:
      c.settings.monthlyBudgetUsd === undefined ? undefined : Number(c.settings.monthlyBudgetUsd),
    maxMonthlyIncreaseUsd:
      c.settings.maxMonthlyIncreaseUsd === undefined ? undefined : Number(c.settings.maxMonthlyIncreaseUsd),
  };
  // The stack after the change: a deleted VPS is not in it.
  const resources = c.vpss
    .filter((row) => row.kind !== "delete")
    .map((row) => {
      const props: Record<string, unknown> = row.now === undefined ? {} : { currentMonthlyFeeUsd: row.now };
      if (row.after === "unknown")
        Object.defineProperty(props, "plannedMonthlyFeeUsd", UNKNOWN_IN_PREVIEW("x"));
      else props.plannedMonthlyFeeUsd = row.after;
      return {
        type: "rimuhosting:index:Vps",
        name: row.name,
        urn: `urn:three-judges::${c.title}::${row.name}`,
        props,
      };
    });
  const notApplicable = (reason?: string): never => {
    throw new Error(`not applicable: ${reason}`);
  };
  const getConfig = <T extends object>() => config as T;
  // The stack's state before the run: every VPS billed now (those the program still declares are left aside).
  const urnOf = (name: string) => `urn:three-judges::${c.title}::${name}`;
  const recorded = c.vpss
    .filter((row) => row.now !== undefined)
    .map((row) => ({ urn: urnOf(row.name), name: row.name, feeUsd: row.now }));
  setStackStateReader(() => ({ vpss: recorded }));
  const monthlyBudget = monthlyBudgetPolicy(); // a pack of this case's own
  for (const r of resources)
    monthlyBudget.validateResource({ ...r, getConfig, notApplicable }, () => undefined);
  const violations: string[] = [];
  let applicable = true;
  try {
    monthlyBudget.validateStack({ resources, getConfig, notApplicable }, (m) => violations.push(m));
  } catch (error) {
    if (!String(error).includes("not applicable")) throw error;
    applicable = false;
  }
  // The pack's enforcement level is the engine's: `warn` is the pack's `advisory`, `enforce` its `mandatory`.
  const level = c.settings.budgetEnforcement === "warn" ? "warn" : "fail";
  const verdict: Verdict = !applicable ? "none" : violations.length > 0 ? level : "pass";
  setStackStateReader(undefined);
  const { totals } = monthlyBudget.budgetOf(resources, config, recorded).run;
  return { verdict, afterCents: totals.afterCents, increaseCents: totals.increaseCents };
}
