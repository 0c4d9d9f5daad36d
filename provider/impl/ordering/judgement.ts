/**
 * One change judged by the budget at the moment of ordering, and applied (order-guard.ts says when and on what): the
 * verdict of the cost model (cost/verdict.ts) on the change's quote against the account's active orders read fresh
 * and the run's record (guard-run.ts), one judgement at a time (a lock), the change in flight from the moment it
 * passes until its call returns (in-flight.ts), and a refusal's words. order-guard.ts plans each kind of change (a
 * new order, a change to a live order) and does what follows a new order; this judges and applies any of them.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { unpricedAccountWords } from "../cost/ledger.js";
import { cents, dollars, type Priced } from "../cost/money.js";
import { addsOf, judgementOf, type VpsFee } from "../cost/verdict.js";
import { VPS_ERROR_CODES, VpsError, VpsIncompleteError } from "../engine/errors.js";
import type { QuotedValues } from "../budget/money.js";
import { emitNotes, warning } from "../engine/notes.js";
import { settingName } from "../engine/settings-source.js";
import { feeOfMoney } from "../budget/planned-fee.js";
import { runTotals, type Guard } from "./guard-run.js";
import type { RunContext } from "../engine/run-context.js";
import { waitForPreviewedShrinks } from "./previewed-wait.js";
import { exclusive, land, orderCountOf, takeOff, type StandsFor } from "./in-flight.js";
import { configuredBaseUrl } from "../lifecycle/runtime-config.js";
import { priceOf } from "../lookahead/vps-lookahead.js";
import type { AccountView } from "../account/account-view.js";
import { noteFailing, cancelReplacedIfFailing } from "./replaced-orders.js";
import { describeDone, overWords } from "./done-words.js";

/** A change to judge: its name, what it is, the quote of its request and what it replaces. */
export interface Planned {
  name: string;
  /** The resource (its key in the run's ledger). */
  resource: string;
  /** "ordering it", "resizing it (memoryMb)". */
  doing: string;
  /** What is refused: "ordered for web-3". */
  refused: string;
  /** The fee billed now of what this change replaces or changes (undefined: a new VPS; NaN: not known). */
  nowUsd?: number;
  /** When the create or update making it must be done (its time limit): the wait for a previewed shrink ends by then. */
  deadlineMs?: number;
  /** The listed order this change stands for while in flight (in-flight.ts). */
  holds: StandsFor["holds"];
  changes?: true;
}

export const limitsSet = (run: RunContext): boolean => {
  const { settings, problems } = run.settings.budget;
  return (
    problems.length === 0 &&
    (settings.monthlyBudgetUsd !== undefined || settings.maxMonthlyIncreaseUsd !== undefined)
  );
};

/** The account's active orders, read fresh once per judged change (never the run's kept listing). */
export type Orders = () => Promise<readonly AboutOrder[]>;

/**
 * Judges what `plan` says (undefined: nothing to judge), then applies it: throws the refusal before `apply` runs,
 * or runs it and counts it as applied once it applied (also when it failed after a change, VpsIncompleteError).
 * `priced`: what RimuHosting quotes, the plan, data centre and sizes the VPS has after the change; `asOrder`: quoted
 * as the order (quoteRequest), as the check quotes a move on its new host.
 */
export async function judged<T>(
  run: Guard,
  view: AccountView,
  resource: string,
  priced: { values: QuotedValues; asOrder?: boolean },
  plan: (orders: Orders) => Promise<Planned | undefined>,
  apply: () => Promise<T>,
  placed?: (result: T, fee: VpsFee) => Promise<void>,
): Promise<T> {
  // This engine run changes the account: it is an update, whatever its checks were tagged (previewed-plan.ts).
  view.previewed?.noteUpdate(resource);
  try {
    // A quote is a function of the priced inputs alone (no listing, no record of the run): asked before the lock, so
    // no judgement waits on another's quote. It never fails (a price that cannot be had says why) and is asked once
    // per distinct request per run (AccountView.quote); left unused when there is nothing to judge.
    const quoted = quoteOf(view, configuredBaseUrl(run.context), priced.values, priced.asOrder);
    // Judged one at a time; once passed, in flight (in-flight.ts) until its call returns: the calls run at once.
    const fee = await exclusive(run, async () => {
      let listing: Promise<readonly AboutOrder[]> | undefined;
      const orders = () => (listing ??= view.activeOrders({ fresh: true }));
      const planned = await plan(orders);
      if (!planned) return undefined;
      const fee = await judge(run, view, orders, planned, await quoted);
      takeOff(run, resource, fee, planned);
      return fee;
    });
    let result: T;
    try {
      result = await apply();
    } catch (error) {
      // Failed after a change (VpsIncompleteError): applied; failed before any: released. Either way the run fails,
      // so the orders it replaced are judged once the step has failed (replaced-orders.ts's stepFailed).
      if (fee)
        await exclusive(run, async () => land(run, resource, fee, error instanceof VpsIncompleteError));
      throw error;
    }
    if (!fee) return result;
    // It lands in the lock, so no judgement's listing is read while a change of the run lands (the listing, read
    // before, would not show what the record, now applied, says it shows); its read-back too, for the same reason.
    return await exclusive(run, async () => {
      land(run, resource, fee, true);
      await placed?.(result, fee);
      return result;
    });
  } finally {
    run.settled.add(resource);
  }
}

/** A change's quote as the cost model counts it (quoteOf). */
type Quote = { after: Priced; failed?: true };

/**
 * The quote of `priced` as the cost model counts it (cost/money.ts): whole US cents, or why there is none (a quote
 * that failed, `failed`; a price with no USD amount).
 */
async function quoteOf(
  view: AccountView,
  baseUrl: string,
  priced: QuotedValues,
  asOrder = false,
): Promise<Quote> {
  const quoted = await priceOf({ view, baseUrl }, priced, asOrder);
  if ("problem" in quoted) return { after: { why: quoted.problem }, failed: true };
  const fee = feeOfMoney(quoted.price);
  return {
    after: fee.usd === undefined ? { why: fee.why ?? "it has no USD amount" } : { cents: cents(fee.usd) },
  };
}

/**
 * The verdict on `planned` by the cost model (cost/verdict.ts), the rule the preview, the bill and the pack judge
 * by: the VPS at its fee now and after, with the changes this run applied before it; the account's active orders,
 * read fresh, are what is billed now (the scope, budget.ts). Returns its fee as the model counts it when it may go
 * on; throws the refusal otherwise (`warn`: a warning, and it goes on).
 */
async function judge(
  run: Guard,
  view: AccountView,
  listing: Orders,
  planned: Planned,
  quoted: Quote,
  waited = false,
): Promise<VpsFee> {
  const { settings } = run.context.settings.budget;
  const warn = settings.enforcement === "warn";
  const stop = async (reason: string, advice: string): Promise<void> => {
    if (!warn) {
      noteFailing(run, view);
      const cancelled = await cancelReplacedIfFailing(run, view);
      throw new VpsError(
        VPS_ERROR_CODES.budget,
        `${planned.name}: ${reason}. ${describeDone(run, planned.refused)}${cancelled}. ${advice}.`,
      );
    }
    await emitNotes(
      run.context,
      [warning(`${planned.name}: ${reason} (${settingName("budgetEnforcement")}: warn); it goes on.`)],
      undefined,
    );
  };
  const fee: VpsFee = {
    name: planned.name,
    ...(planned.nowUsd === undefined || Number.isNaN(planned.nowUsd)
      ? {}
      : { nowCents: cents(planned.nowUsd) }),
    after: Number.isNaN(planned.nowUsd)
      ? { why: "RimuHosting does not report what it is billed now" }
      : quoted.after,
  };
  // The account, read fresh: the totals every verdict states (the table of cases compares them with the others').
  const orders = await listing();
  const judging = { resource: planned.resource, fee };
  const { counted, account, totals } = runTotals(run, view, orders, judging);
  const { verdicts } = run;
  const adds = addsOf(fee);
  const untotalled =
    settings.monthlyBudgetUsd !== undefined && account.unpriced.length > 0 && (adds ?? 0) > 0;
  const judgement = untotalled ? "unknown" : judgementOf(settings, totals, fee);
  // Over only for a shrink the preview counted and this update has not checked yet: judged again once it has
  // (previewed-wait.ts), on the account read again. Never on the passing path.
  if (
    judgement === "over" &&
    !warn &&
    !waited &&
    (await waitForPreviewedShrinks(run, view, settings, orders, judging, planned.deadlineMs))
  ) {
    let again: Promise<readonly AboutOrder[]> | undefined;
    return judge(run, view, () => (again ??= view.activeOrders({ fresh: true })), planned, quoted, true);
  }
  verdicts.push({ name: planned.name, judgement, totals });
  if (adds === undefined) {
    await stop(
      `the budget cannot count ${planned.doing}: ${"why" in fee.after ? fee.after.why : ""}, ` +
        `and a price it cannot count is never counted as $0`,
      `${quoted.failed ? "Run it again once RimuHosting quotes it" : "Choose a plan RimuHosting prices in USD"}, ` +
        `or set ${settingName("budgetEnforcement")} to warn`,
    );
    return fee;
  }
  if (untotalled) {
    await stop(
      unpricedAccountWords(account.unpriced),
      `Leave out ${settingName("monthlyBudgetUsd")}, or set ${settingName("budgetEnforcement")} to warn`,
    );
    return fee;
  }
  if (judgement !== "over") return fee;
  await stop(
    `${planned.doing} (+${dollars(adds)} a month) would ${overWords(settings, totals, orderCountOf(run, counted), adds)}`,
    "Raise the limit, or order less in this run",
  );
  return fee;
}
