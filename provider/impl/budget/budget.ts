/**
 * The budget a preview enforces (docs/cost.md): the provider settings `monthlyBudgetUsd`, `maxMonthlyIncreaseUsd`
 * and `budgetEnforcement` (stack config `rimuhosting:<setting>` for the default provider, or an explicit provider's
 * own arguments), read by cost/setting.ts's one rule, and the hook check() calls with each VPS's planned fee
 * (planned-fee.ts): counted in the run's fee ledger (cost/ledger.ts, kept by the account's shared view beside the
 * host-room ledger) and judged by cost/verdict.ts. Over a limit, `enforce` fails the check and `warn` warns.
 *
 * The scope is the account the API key reaches: the totals start from every active order on it (the listing the
 * look-ahead reads once per run), so VPSs this run does not check (untargeted, imported, other stacks', those it
 * deletes: the engine does not call the provider for a delete until the update itself) are counted at their fee
 * now. Only a preview is judged here (the native plugin's checks always run as one, also inside `pulumi up`);
 * create and update judge each order again at the moment of ordering (order-guard.ts), against the same ledger,
 * which the update phase's checks fill too. A check that may be the update's (the native plugin's) leaves an over
 * verdict that the latest preview's planned shrinks not checked yet would undo to the step the engine says is a
 * preview's (preview-verdicts.ts): whatever the order, it refuses only what no such shrink can make fit.
 */
import type { AccountView } from "../account/account-view.js";
import { previewedShrinksNotSeen } from "../account/previewed-plan.js";
import type { ChangeOrders } from "../account/shared-plan.js";
import type { AboutOrder } from "../../../contract/index.js";
import {
  accountOverWords,
  budgetSoFarWords,
  overBudgetMessage,
  totalsWords,
  unpricedAccountWords,
  type AccountBilled,
  type FeeLedger,
  type LimitNames,
} from "../cost/ledger.js";
import { cents } from "../cost/money.js";
import { addsOf, judgementOf, type BudgetTotals, type VpsFee } from "../cost/verdict.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import type { CheckFailure } from "../engine/check-failure.js";
import { VPS_ERROR_CODES } from "../engine/errors.js";
import { info, warning, type Note } from "../engine/notes.js";
import type { PlannedFee } from "./planned-fee.js";
import { settingName, settingPlace } from "../engine/settings-source.js";
import { RIMU_ERROR_CODES } from "../../client/errors.js";
import {
  hasLimit,
  readBudgetSettings,
  type BudgetSetting,
  type BudgetSettings,
  type ReadBudget,
} from "../cost/setting.js";

export { BUDGET_SETTINGS, ENFORCEMENTS } from "../cost/setting.js";
export type { BudgetSetting, BudgetSettings, Enforcement, ReadBudget } from "../cost/setting.js";

/**
 * Reads the budget's settings through `get` (the value of `<key>` as given: text from the stack config, a number
 * or text from a provider's arguments), by the one rule of cost/setting.ts. `provider`: the explicit provider they
 * belong to (messages name its arguments), undefined for the stack config.
 */
export function readBudget(get: (key: BudgetSetting) => unknown, provider?: string): ReadBudget {
  return readBudgetSettings(get, {
    name: (key) => settingName(key, provider),
    place: (key) => settingPlace(key, provider),
  });
}

const limitNames = (): LimitNames => ({
  monthlyBudgetUsd: settingName("monthlyBudgetUsd"),
  maxMonthlyIncreaseUsd: settingName("maxMonthlyIncreaseUsd"),
});

/** The fee of one checked VPS as the cost model counts it (cost/verdict.ts), from its planned fee. */
export function vpsFeeOf(name: string, fee: PlannedFee): VpsFee {
  return {
    name,
    ...(fee.nowUsd === undefined ? {} : { nowCents: cents(fee.nowUsd) }),
    after: fee.usd === undefined ? { why: fee.why ?? "its fee is not known" } : { cents: cents(fee.usd) },
  };
}

/**
 * What the account is billed now: every active order's monthly fee, in cents, and the orders that report none
 * (never counted as $0: the guard refuses to total such an account, and the preview judges as it does).
 */
export function accountCentsOf(orders: readonly AboutOrder[]): AccountBilled {
  const unpriced: number[] = [];
  let sum = 0;
  for (const order of orders) {
    const fee = orderFields(order).monthlyFeeUsd;
    if (fee === undefined) unpriced.push(order.order_oid);
    else sum += cents(fee);
  }
  return { cents: sum, unpriced };
}

/** Why a fee cannot be counted, and how to go on: a check's failure in `enforce` mode, a warning in `warn`. */
function uncountable(fee: PlannedFee): string {
  const warn = `or set ${settingName("budgetEnforcement")} to warn to go on with a warning`;
  if (fee.currency !== undefined)
    return (
      `the budget counts fees in US dollars, and ${fee.why ?? "this price has no USD amount"}: it cannot be ` +
      `counted (and is never counted as $0). Choose a plan RimuHosting prices in USD, ${warn}`
    );
  const unknownInput = /not known until the update runs/.test(fee.why ?? "");
  return (
    `the budget cannot count this VPS's fee after this run (${fee.why ?? "its fee is not known"}), and never ` +
    `counts it as $0. ` +
    (unknownInput
      ? `Give its plan, sizes and data centre values known in the preview (not outputs of resources this run creates), `
      : `Run it again once RimuHosting quotes it, `) +
    warn
  );
}

/**
 * The account's totals so far, as a line of the preview, when they differ from the last said (the run's first check
 * says them too): the bill takes the account's figures from the run's last (docs/cost.md, "The bill in the pull
 * request"). A check that fails or warns says the same totals in its own words.
 */
function sayTotalsSoFar(
  settings: BudgetSettings,
  ledger: FeeLedger,
  totals: BudgetTotals,
  notes: Note[],
  name: string,
): void {
  const figures = `${totals.beforeCents}/${totals.afterCents}/${totals.increaseCents}`;
  if (ledger.saidSoFar === figures) return;
  ledger.saidSoFar = figures;
  notes.push(info(`${name}: ${budgetSoFarWords(settings, totals, limitNames(), ledger.ofAccount)}.`));
}

/**
 * The hook check() calls for one VPS: its fee now and after its change counted in the run's ledger, with the
 * account's other orders (the scope, docs/cost.md), and what the budget says (cost/verdict.ts): failures in
 * `enforce` mode, warnings in `warn` mode. Only a change that adds to the monthly fee is refused, and only while
 * the totals so far are over a limit; a fee that cannot be counted is refused whatever it adds. Bad settings fail
 * every check.
 */
export function judgeBudget(
  /** The run's budget settings as read (configure(), runtime-config.ts). */
  budget: ReadBudget,
  view: AccountView | undefined,
  /** `change`: the orders of its change, by which the other providers find it in a listing (shared-plan.ts). */
  vps: { resource: string; name: string; change?: ChangeOrders },
  fee: PlannedFee | undefined,
  preview: boolean,
  /** The check may be the update of `pulumi up` (the native plugin's, which is not told). */
  mayApply = false,
): { failures: CheckFailure[]; notes: Note[]; leftToPreviewStep?: CheckFailure } {
  const { settings, problems } = budget;
  if (problems.length > 0)
    return {
      failures: problems.map((reason) => ({ property: "", reason, code: RIMU_ERROR_CODES.RimuConfigError })),
      notes: [],
    };
  if (!view || !fee) return { failures: [], notes: [] };
  // A provider with no budget still shares its plan: another provider's budget on the account counts it.
  if (preview) view.sharedPlan?.record(vps.resource, vpsFeeOf(vps.name, fee), vps.change);
  if (!hasLimit(settings)) return { failures: [], notes: [] };
  const ledger = view.fees;
  ledger.record(vps.resource, vpsFeeOf(vps.name, fee));
  // Kept for the update after this preview, whose guard may wait for the check of a shrink planned here.
  view.previewed?.record(vps.resource, ledger.fee(vps.resource)!, preview);
  // In the update phase the run's plan is counted, not judged here: the guard judges each order and growing change
  // against it (order-guard.ts), so the changes the preview passed are counted the same way when ordering.
  if (!preview) return { failures: [], notes: [] };
  const accountOver = ledger.saidAccountOver
    ? undefined
    : accountOverWords(settings.monthlyBudgetUsd, ledger.billed, settingName("monthlyBudgetUsd"));
  if (accountOver !== undefined) ledger.saidAccountOver = true;
  // The account's other providers of this command count too: one budget covers the account (shared-plan.ts).
  const totals = totalsWithOthers(view);
  const recorded = ledger.fee(vps.resource)!;
  let judgement = judgementOf(settings, totals, recorded);
  const warn = settings.enforcement === "warn";
  const out = {
    failures: [] as CheckFailure[],
    notes: [accountOver].filter((n) => n !== undefined).map((n) => warning(`${n}.`)),
  };
  const mode = `${settingName("budgetEnforcement")}: warn`;
  // An active order with no fee reported leaves the account's total unknown: a change that adds to it cannot be
  // judged against monthlyBudgetUsd, as the guard at the moment of ordering says too (never counted as $0).
  const unpriced = settings.monthlyBudgetUsd === undefined ? [] : ledger.unpriced;
  const untotalled = judgement === "fits" && unpriced.length > 0 && (addsOf(recorded) ?? 0) > 0;
  if (untotalled) judgement = "unknown";
  if (judgement === "unknown") {
    const reason = untotalled
      ? `${unpricedAccountWords(unpriced)}. Leave out ${settingName("monthlyBudgetUsd")}, or set ` +
        `${settingName("budgetEnforcement")} to warn to go on with a warning`
      : uncountable(fee);
    if (warn) out.notes.push(warning(`${vps.name}: not counted by the budget (${mode}): ${reason}.`));
    else out.failures.push({ property: "", reason, code: VPS_ERROR_CODES.budget });
  }
  if (judgement !== "over") {
    // Warn mode, once a check went over: every later check says the totals too (the engine tells a provider of no
    // last check), so the run's last warning gives its final total, over a limit or back within them.
    if (warn && ledger.warnedOver) {
      const over = overBudgetMessage(settings, totals, limitNames(), ledger.ofAccount);
      out.notes.push(
        warning(
          over === undefined
            ? `${vps.name}: within budget again (${mode}), with the VPSs checked so far: ` +
                `${totalsWords(settings, totals, limitNames(), ledger.ofAccount)}.`
            : `${vps.name}: still over budget (${mode}), with the VPSs checked so far: ${over}.`,
        ),
      );
    } else if (judgement === "fits") sayTotalsSoFar(settings, ledger, totals, out.notes, vps.name);
    return out;
  }
  const message = overBudgetMessage(settings, totals, limitNames(), ledger.ofAccount)!;
  const refusal = { property: "", reason: message, code: VPS_ERROR_CODES.budget };
  if (!warn && mayApply && fitsWithPreviewedShrinks(settings, view, vps.resource))
    return { ...out, leftToPreviewStep: refusal };
  if (!warn) out.failures.push(refusal);
  else {
    // Warn mode: each check that adds while over says the totals with the VPSs checked so far.
    out.notes.push(warning(`${vps.name}: over budget (${mode}): ${message}.`));
    ledger.warnedOver = true;
  }
  return out;
}

/**
 * Whether `resource`'s change, over with the totals so far, would fit with the shrinks the stack's latest preview
 * planned that this run has not checked: the update of `pulumi up` may yet check them (its order can differ from the
 * preview's), and its guard waits for them (ordering/previewed-wait.ts). Never counted: only where the verdict is given.
 */
function fitsWithPreviewedShrinks(settings: BudgetSettings, view: AccountView, resource: string): boolean {
  const ledger = view.fees;
  // Another provider's check of the command is counted already (totalsWithOthers): not missing.
  const seen = (key: string) => ledger.checked().has(key) || view.sharedPlan?.checkedByOthers(key) === true;
  const missing = previewedShrinksNotSeen(view.previewed, resource, seen);
  if (missing.length === 0) return false;
  const supposed = totalsWithOthers(
    view,
    missing.map(([, fee]) => fee),
  );
  return judgementOf(settings, supposed, ledger.fee(resource)!) === "fits";
}

/**
 * The run's totals so far with the other providers' changes on the account (shared-plan.ts), each counted once
 * against the listing the ledger's totals start from, whether it was made before or after that listing was read.
 */
function totalsWithOthers(view: AccountView, supposing: readonly VpsFee[] = []): BudgetTotals {
  const ledger = view.fees;
  const others = view.sharedPlan?.othersOn(new Set(ledger.checked().keys()), view.ledgerListing);
  if (!others) return ledger.totals(supposing);
  const fees = [...others.planned, ...others.made, ...supposing];
  return ledger.totals(fees, others.addCents - others.leftOutCents);
}
