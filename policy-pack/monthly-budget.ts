/**
 * monthly-budget: the stack's monthly fee once the change is applied, judged by the cost model's rules
 * (budget-verdict.ts) from the fees the provider's checks gave each VPS (`plannedMonthlyFeeUsd`,
 * `currentMonthlyFeeUsd`), and the VPSs the run deletes at their fee now (stack-state.ts).
 */
import * as fs from "node:fs";
import { readProperty, isRimuHostingVps, type Reading } from "./readings";
import {
  cents,
  deletedFee,
  dollars,
  verdictOf,
  type Adder,
  type Limits,
  type RunVerdict,
  type VpsFee,
  MAX_BUDGET_USD,
} from "./budget-verdict";
import { deletesUnread, recordedVpss, type RecordedVps } from "./stack-state";
import { CHECK_DEPLOYMENT, CURRENT_FEE, PLANNED_FEE, RECORDED_FEE } from "./vps-names";
import {
  couldNotJudge,
  vpsLabel,
  type MonthlyBudgetConfig,
  type StackArgs,
  type StackPolicyReadingResources,
} from "./policy-shapes";

/** A VPS's fees as its check gave them: after this run's change, and billed now (absent for a new VPS). */
interface FeeReadings {
  planned: Reading;
  current: Reading;
  /** The deployment of the check that gave them (CHECK_DEPLOYMENT). */
  deployment: Reading;
}

const feesIn = (props: Record<string, unknown>): FeeReadings => ({
  planned: readProperty(props, PLANNED_FEE),
  current: readProperty(props, CURRENT_FEE),
  deployment: readProperty(props, CHECK_DEPLOYMENT),
});

/**
 * The arguments this process was started with. Pulumi's run-policy-pack drops the engine's address from
 * process.argv before it loads the pack; /proc/self/cmdline (Linux) still has it. Elsewhere, process.argv only.
 */
function startArguments(): string[] {
  let cmdline: string[] = [];
  try {
    cmdline = fs.readFileSync("/proc/self/cmdline", "utf8").split("\0");
  } catch {
    // Not Linux: no such file.
  }
  return [...cmdline.slice(1), ...process.argv.slice(2)];
}

/**
 * This run's deployment: the engine's address, which the engine starts the pack with as it starts the provider;
 * undefined when it cannot be found (then every check's fees are taken as this run's, as before).
 */
const thisDeployment = (): string | undefined => startArguments().find((arg) => /^[\w.[\]-]+:\d+$/.test(arg));

/**
 * Whether the fees came from an earlier run: the engine did not check this VPS (`pulumi preview --target` of
 * another) and handed the pack the inputs that run recorded. Fees without a deployment (an older provider) are
 * taken as this run's.
 */
function fromAnotherRun(readings: FeeReadings): boolean {
  const run = thisDeployment();
  const { deployment } = readings;
  return run !== undefined && deployment.kind === "known" && deployment.value !== run;
}

const knownNumber = (reading: Reading): number | undefined =>
  reading.kind === "known" && typeof reading.value === "number" ? reading.value : undefined;

/** "web +$7.20 ($12.00 → $19.20), db +$5.00 (new)": the VPSs that add the most. */
function addersWords(adders: readonly Adder[]): string {
  return adders
    .slice(0, 3)
    .map(
      ({ name, addsCents, nowCents, afterCents }) =>
        `${name} +${dollars(addsCents)} (${nowCents === undefined ? "new" : `${dollars(nowCents)} → ${dollars(afterCents)}`})`,
    )
    .join(", ");
}

/** A run over its limits (each passed, the VPSs adding the most, the fix); at a VPS's turn when it ends within. */
function overMessage(limits: Limits, run: RunVerdict, deletes = 0): string {
  const turn = run.passed.length === 0 ? run.firstOver : undefined;
  const { totals, passed } = turn ?? run;
  const parts: string[] = [];
  if (passed.includes("monthlyBudgetUsd")) {
    const budget = cents(limits.monthlyBudgetUsd!);
    const vpss = `${totals.count} VPS${totals.count === 1 ? "" : "s"}`;
    const when = turn
      ? `at ${vpsLabel(turn.name)}'s change, which is checked before the changes that lower the fees (the run ends at ${dollars(run.totals.afterCents)}; each VPS is judged with the changes checked before it, as the provider judges it)`
      : deletes > 0
        ? `while the ${deletes === 1 ? "VPS it deletes is" : `${deletes} it deletes are`} still billed (a delete counts until it is made, after the run's orders and changes)`
        : "after this change";
    parts.push(
      `The stack's ${turn ? "VPSs" : vpss} would cost ${dollars(totals.afterCents)} a month ${when}, over the budget of ` +
        `${dollars(budget)} (monthly-budget.maxMonthlyUsd) by ${dollars(totals.afterCents - budget)}.`,
    );
  }
  if (passed.includes("maxMonthlyIncreaseUsd")) {
    const limit = cents(limits.maxMonthlyIncreaseUsd!);
    parts.push(
      `This change adds ${dollars(totals.increaseCents)} a month (new VPSs and growing changes; shrinks are not ` +
        `netted), over the ${dollars(limit)} one change may add (monthly-budget.maxMonthlyIncreaseUsd) by ` +
        `${dollars(totals.increaseCents - limit)}.`,
    );
  }
  return (
    `${parts.join(" ")} Adding the most: ${addersWords(totals.adders)}. ${turn ? `Give ${vpsLabel(turn.name)} \`dependsOn\` the VPSs whose changes lower the fees (it is then checked after them), order ` : "Order "}smaller or fewer VPSs, or raise the ` +
    `limit in the policy pack's config.`
  );
}

/**
 * The stack's budget verdict (budget-verdict.ts, the cost model's rules): each VPS of the stack after the change at
 * its fees from its checked inputs (or, for a resource the pack was not handed, its outputs), and each VPS of the
 * state the program no longer declares (`recorded`: the run deletes it) at its fee now, until it is deleted.
 * `feesByUrn`: the checked inputs' fees the engine handed the pack (monthlyBudgetPolicy).
 */
export function budgetOfStack(
  resources: StackArgs["resources"],
  config: MonthlyBudgetConfig,
  feesByUrn: ReadonlyMap<string, FeeReadings>,
  recorded: readonly RecordedVps[] = [],
): { limits: Limits; run: RunVerdict; deletes: number } {
  const fees: VpsFee[] = [];
  for (const resource of resources) {
    if (!isRimuHostingVps(resource.type, resource.props)) continue;
    const checked = feesByUrn.get(resource.urn);
    if (checked && fromAnotherRun(checked)) {
      // Not changed by this run: billed what its state records (or what that run last counted), before and after.
      const fee =
        knownNumber(readProperty(resource.props, RECORDED_FEE)) ??
        knownNumber(checked.current) ??
        knownNumber(checked.planned);
      fees.push({
        name: resource.name,
        ...(fee === undefined ? {} : { nowCents: cents(fee) }),
        after: fee === undefined ? { why: "not known" } : { cents: cents(fee) },
      });
      continue;
    }
    const readings = checked?.planned.kind === "known" ? checked : feesIn(resource.props);
    const after = knownNumber(readings.planned);
    const now = knownNumber(readings.current);
    fees.push({
      name: resource.name,
      ...(now === undefined ? {} : { nowCents: cents(now) }),
      after: after === undefined ? { why: "not known" } : { cents: cents(after) },
    });
  }
  const declared = new Set(resources.map((r) => r.urn));
  const deleted = recorded.filter((vps) => !declared.has(vps.urn));
  for (const vps of deleted) fees.push(deletedFee(vps.name, vps.feeUsd));
  const limits: Limits = {
    monthlyBudgetUsd: config.maxMonthlyUsd,
    maxMonthlyIncreaseUsd: config.maxMonthlyIncreaseUsd,
  };
  const billedNow = fees.reduce((sum, fee) => sum + (fee.nowCents ?? 0), 0);
  return { limits, run: verdictOf(limits, billedNow, fees), deletes: deleted.length };
}

/** A limit over MAX_BUDGET_USD (or Infinity), said as the provider says it of its own budget settings. */
function limitsTooBig(config: MonthlyBudgetConfig): string[] {
  return (["maxMonthlyUsd", "maxMonthlyIncreaseUsd"] as const)
    .filter((key) => typeof config[key] === "number" && config[key] > MAX_BUDGET_USD)
    .map(
      (key) =>
        `monthly-budget.${key} is over ${MAX_BUDGET_USD}, the largest budget accepted (US dollars a month; given: ` +
        `${String(config[key])}): give a number from 0 to ${MAX_BUDGET_USD}, such as 50, or remove it to set no ` +
        `limit; fix it in the policy pack's config.`,
    );
}

/** The policy, and the verdict it judges the stack by from what this pack was handed (budgetOfStack). */
export interface MonthlyBudgetPolicy extends StackPolicyReadingResources {
  budgetOf(
    resources: StackArgs["resources"],
    config: MonthlyBudgetConfig,
    recorded?: readonly RecordedVps[],
  ): ReturnType<typeof budgetOfStack>;
}

/**
 * The monthly-budget policy of one pack, with its own record of each VPS's fees from its checked inputs, by URN, as
 * the engine hands every resource to the pack before it asks about the stack (in the same process). The stack
 * policy is given outputs instead, and an unchanged VPS's outputs are its recorded state, without these fees: its
 * checked inputs carry them. Made per pack (RimuHostingGuard), never shared: what the engine handed one pack is no
 * other's.
 */
export function monthlyBudgetPolicy(): MonthlyBudgetPolicy {
  const feesByUrn = new Map<string, FeeReadings>();
  return {
    budgetOf: (resources, config, recorded) => budgetOfStack(resources, config, feesByUrn, recorded),
    name: "monthly-budget",
    description: "The stack's VPSs cost at most the configured amount a month once the change is applied.",
    configSchema: {
      properties: {
        maxMonthlyUsd: {
          type: "number",
          minimum: 0,
          maximum: MAX_BUDGET_USD,
          description: "The most the stack's VPSs may cost a month, in USD, once the change is applied.",
        },
        maxMonthlyIncreaseUsd: {
          type: "number",
          minimum: 0,
          maximum: MAX_BUDGET_USD,
          description:
            "The most one change may add to the stack's monthly fees, in USD (shrinks are not netted).",
        },
      },
    },
    validateResource(args) {
      if (isRimuHostingVps(args.type, args.props)) feesByUrn.set(args.urn, feesIn(args.props));
    },
    validateStack(args, reportViolation) {
      const config = args.getConfig<MonthlyBudgetConfig>();
      if (config.maxMonthlyUsd === undefined && config.maxMonthlyIncreaseUsd === undefined)
        return args.notApplicable(
          "no budget configured (monthly-budget.maxMonthlyUsd or monthly-budget.maxMonthlyIncreaseUsd)",
        );
      // A limit the schema's maximum should have stopped (RimuHostingGuard's arguments are not checked by it).
      const tooBig = limitsTooBig(config);
      if (tooBig.length > 0) return tooBig.forEach((message) => reportViolation(message));
      // The cost model's verdict: only a change that adds fails, and only over a limit; never a fee counted as $0.
      let { limits, run, deletes } = budgetOfStack(args.resources, config, feesByUrn);
      // The VPSs the run deletes can only take a fitting run over the monthly budget: read only then (stack-state.ts).
      if (run.judgement === "fits" && config.maxMonthlyUsd !== undefined && run.totals.increaseCents > 0) {
        const state = recordedVpss(args.resources.map((r) => r.urn));
        if ("why" in state) return reportViolation(deletesUnread(state.why));
        ({ limits, run, deletes } = budgetOfStack(args.resources, config, feesByUrn, state.vpss));
      }
      if (run.judgement === "unknown") {
        const unjudged = run.totals.unknown.map(({ name }) => vpsLabel(name));
        reportViolation(
          couldNotJudge(
            "monthly-budget",
            "the stack's monthly fee",
            `the fee of ${unjudged.join(", ")} is not known in this preview (the provider gives no ` +
              `${PLANNED_FEE} when an input is unknown, the quote failed, or its currency cannot be converted)`,
            "Give those VPSs inputs known before the update, or see the preview's warnings for why the quote failed.",
          ),
        );
      } else if (run.judgement === "over") reportViolation(overMessage(limits, run, deletes));
    },
  };
}
