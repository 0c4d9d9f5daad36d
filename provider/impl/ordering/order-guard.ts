/**
 * The budget at the moment of ordering (docs/cost.md): no order and no growing change is sent to RimuHosting
 * that would take the account over a limit, whatever the run's flags (`--skip-preview`, `--target`), on both
 * front ends (both call create() and update() of vps-provider.ts, which call here).
 *
 * Scope: the account the API key reaches. Just before a new order (a create, a replacement's create, a pending
 * create ordered in update) or a change that changes the fee (a resize, a move; an adopted order brought to the
 * program), the account's active orders are read fresh and their fees summed; this change's growth is
 * RimuHosting's quote of the request less what the VPS (or the VPS it replaces) is billed now. Refused when the
 * total after is over monthlyBudgetUsd, or this run's increase (what this process applied so far, and this) is
 * over maxMonthlyIncreaseUsd. A change that does not grow the fee is never refused. A price that cannot be had:
 * `enforce` refuses it (never counted as $0), `warn` goes on with a warning.
 *
 * One change is judged at a time in this process (a lock), and once it passes it is in flight until its call
 * returns: counted from the guard's record (in-flight.ts), so two creates running in parallel cannot both pass on
 * the same total, and the calls themselves run at once. The verdict is the cost model's (cost/verdict.ts's totals
 * and limits, in cost/money.ts's cents), the one rule the preview's check, the bill and the pack judge by; the
 * settings are budget.ts's. test/cost/three-judges.test.ts runs this guard through the same table of cases as they.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { unpricedAccountWords } from "../cost/ledger.js";
import { cents, dollars, type Priced } from "../cost/money.js";
import { addsOf, judgementOf, type BudgetTotals, type Judgement, type VpsFee } from "../cost/verdict.js";
import { creationNonceOf, creationTokenFor } from "../lifecycle/creation-token.js";
import { VPS_ERROR_CODES, VpsError, VpsIncompleteError } from "../engine/errors.js";
import { pricedOf, type QuotedValues } from "../budget/money.js";
import { emitNotes, resourceKey, resourceName, warning } from "../engine/notes.js";
import { settingName } from "../engine/settings-source.js";
import { feeOfMoney } from "../budget/planned-fee.js";
import type { RunContext } from "../engine/run-context.js";
import { guardOf, runTotals, type Guard } from "./guard-run.js";
import { waitForPreviewedShrinks } from "./previewed-wait.js";
import { exclusive, land, orderCountOf, takeOff, type StandsFor } from "./in-flight.js";
import { configuredBaseUrl } from "../lifecycle/runtime-config.js";
import { liveOrderOf, priceOf } from "../lookahead/vps-lookahead.js";
import { computeChanges, REPLACE_FORCING_INPUTS } from "../inputs/vps-changes.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import { orderOutputs, type RecordedOutputs } from "../inputs/vps-outputs.js";
import type { ParsedInputs } from "../inputs/vps-values.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import { carriesCreationToken } from "../../client/index.js";
import type { AccountView } from "../account/account-view.js";
import { same } from "../inputs/canonical-json.js";
import { withdrawIfOver } from "./order-withdrawal.js";
import { cancelReplacedIfFailing, noteFailing, replacedAllTheSame } from "./replaced-orders.js";
import { judgeTakenBack } from "./take-back-judge.js";
import { describeDone, noteWith, overWords } from "./done-words.js";
import { isTakenBack } from "../ownership/take-back.js";

/**
 * delete() cancelled order `oid` of `recorded`, billed `usd` a month. When this run's check planned its replacement
 * (`deleteBeforeReplace`: the engine deletes first), the replacement is counted as replacing it, as when the
 * replacement is ordered first: never as a whole new order (issue 64, case 1).
 */
export function noteCancelled(
  run: RunContext,
  recorded: Record<string, unknown>,
  oid: number,
  usd: number | undefined,
): void {
  if (usd !== undefined && isReplaced(run, recorded))
    guardOf(run).cancelledFirst.set(resourceKey(recorded), { oid, cents: cents(usd) });
}

/** This run's check planned the replacement of `recorded`'s VPS. */
export const isReplaced = (run: RunContext, recorded: Record<string, unknown>): boolean =>
  guardOf(run).replacing.has(resourceKey(recorded));

/**
 * check() of an existing resource whose change replaces it: the replacement's create (checked again with no old
 * inputs, so with a new nonce) counts its quote less what the order it replaces is billed.
 */
export function noteCheckedChange(run: RunContext, olds: VpsInputs, parsed: ParsedInputs): void {
  if (Object.keys(olds).length === 0) return;
  const news = parsed.values;
  if (REPLACE_FORCING_INPUTS.some((name) => !same(olds[name] ?? null, news[name] ?? null)))
    guardOf(run).replacing.set(resourceKey(news), olds);
}

/** The guard's verdicts in this run, each with its totals (testing.ts: for the table of cases). */
export const guardVerdicts = (
  run: RunContext,
): readonly { name: string; judgement: Judgement; totals: BudgetTotals }[] => guardOf(run).verdicts;

/** A change to judge: its name, what it is, the quote of its request and what it replaces. */
interface Planned {
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

const limitsSet = (run: RunContext): boolean => {
  const { settings, problems } = run.settings.budget;
  return (
    problems.length === 0 &&
    (settings.monthlyBudgetUsd !== undefined || settings.maxMonthlyIncreaseUsd !== undefined)
  );
};

/** The account's active orders, read fresh once per judged change (never the run's kept listing). */
type Orders = () => Promise<readonly AboutOrder[]>;

/**
 * Judges what `plan` says (undefined: nothing to judge), then applies it: throws the refusal before `apply` runs,
 * or runs it and counts it as applied once it applied (also when it failed after a change, VpsIncompleteError).
 * `priced`: what RimuHosting quotes, the plan, data centre and sizes the VPS has after the change.
 */
async function judged<T>(
  run: Guard,
  view: AccountView,
  resource: string,
  priced: QuotedValues,
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
    const quoted = quoteOf(view, configuredBaseUrl(run.context), priced);
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
async function quoteOf(view: AccountView, baseUrl: string, priced: QuotedValues): Promise<Quote> {
  const quoted = await priceOf({ view, baseUrl }, priced);
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

/**
 * A new order (create(), a replacement's create, a pending create ordered by update()), judged and placed by
 * `order` ("found": an order of this state's that `order` found by its creation token and nonce instead of placing
 * one). `unread`: the error to throw when the account cannot be read again after the order (order-withdrawal.ts), an
 * incomplete create that records the order: the caller knows what to record.
 *
 * What `order` returns is judged after it by exactly one rule, decided here and nowhere else (docs/cost.md, I3):
 * - placed by this call, or found by this call after its own answer was lost (the judged change's listing showed
 *   no order of this state's, so the order is this call's, committed before the answer went missing): the rule
 *   after a new order (`placed`), the order it replaces noted as replaced, as when the answer arrives;
 * - a killed run's order that check() took back (ownership/take-back.ts): the same rule, as that run would have
 *   applied it (take-back-judge.ts), and only that: `placed` leaves it alone;
 * - found already on the account when the change was judged (a pending create of an earlier run): nothing ordered
 *   now, and the account's listing counts it.
 */
export async function guardedOrder<T extends { found: boolean; order: AboutOrder }>(
  context: RunContext,
  view: AccountView,
  news: VpsInputs,
  nonce: string,
  order: () => Promise<T>,
  withdraw: (placed: AboutOrder) => Promise<unknown>,
  unread: (placed: T, error: unknown) => Error = (_placed, error) => error as Error,
  /** When the create must be done (its time limit, engine/time-limits.ts). */
  deadlineMs?: number,
): Promise<T> {
  const run = guardOf(context);
  const name = resourceName(news);
  const resource = resourceKey(news);
  let replacedOrder: AboutOrder | undefined;
  const plan = async (listing: Orders): Promise<Planned | undefined> => {
    const orders = await listing();
    const token = creationTokenFor(news);
    if (orders.some((o) => carriesCreationToken(o, token) && creationNonceOf(o) === nonce)) return undefined;
    // Its order, once placed, carries this state's nonce; one listed already is not this call's.
    const listedBefore = new Set(orders.filter((o) => creationNonceOf(o) === nonce).map((o) => o.order_oid));
    const old = run.replacing.get(resource);
    const replaced = old === undefined ? undefined : liveOrderOf({ isNew: false, before: old }, orders).order;
    replacedOrder = replaced;
    // deleteBeforeReplace: the order it replaces was cancelled by this run just before (runTotals counts it).
    const cancelled = replaced ? undefined : run.cancelledFirst.get(resource);
    const doing = replaced
      ? `ordering its replacement (for order ${replaced.order_oid})`
      : cancelled
        ? `ordering its replacement (for order ${cancelled.oid}, cancelled first: deleteBeforeReplace)`
        : "ordering it";
    return {
      name,
      resource,
      doing,
      refused: `ordered for ${name}`,
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      holds: (o) => creationNonceOf(o) === nonce && !listedBefore.has(o.order_oid),
      nowUsd: replaced
        ? (orderFields(replaced).monthlyFeeUsd ?? NaN)
        : cancelled
          ? cancelled.cents / 100
          : undefined,
    };
  };
  // A killed run's order taken back is judged by its own rule below, once (the doc comment above).
  const takenBack = (result: T): boolean => result.found && isTakenBack(context, result.order.order_oid);
  let judgedAsNew = false;
  // Called only once `plan` found no order of this state's on the account, so a `found` order here is this call's
  // own, its answer lost and found again by its token (the money model's seed 4242): judged as any new order.
  const placed = async (result: T, fee: VpsFee): Promise<void> => {
    if (takenBack(result)) return;
    judgedAsNew = true;
    // Made: the other providers count it as made from now on, in a listing read before it too (shared-plan.ts).
    view.sharedPlan?.made(resource, result.order.order_oid);
    // The replaced order is this one's fee now until the run cancels it (runTotals): never counted beside it. Being
    // withdrawn, this one replaces it no more from before its withdrawal starts: it stays billed and counts again
    // (issue 64, case 4), and another provider failing on the budget meanwhile must not cancel it (issue 80 item 5).
    const replaced = replacedOrder;
    const replaces = (yes: boolean): void => {
      if (replaced === undefined || yes === run.replaced.has(replaced.order_oid)) return;
      if (yes) run.replaced.set(replaced.order_oid, replaced);
      else run.replaced.delete(replaced.order_oid);
      if (yes) view.sharedPlan?.noteReplaced(replaced.order_oid, result.order.order_oid);
      else view.sharedPlan?.forgetReplaced(replaced.order_oid);
    };
    replaces(true);
    // This order is applied now: the listing holds it, as it holds the run's other applied changes.
    let withdrawn: string | undefined;
    try {
      withdrawn = await withdrawIfOver({
        context: run.context,
        view,
        name,
        order: result.order,
        totalsOf: (orders) => runTotals(run, view, orders).totals,
        withdraw: (placedOrder) => (replaces(false), withdraw(placedOrder)),
        addsCents: addsOf(fee),
      });
    } catch (error) {
      // The read-back failed (a 429, a 5xx, a timeout): the order is billed, so it must reach the state (I4).
      throw unread(result, error);
    }
    // Kept (a failed withdrawal: it replaces its order again), and said so in the shared plan: only now may another
    // provider's failing run cancel the order it replaced (shared-plan.ts's noteKept). In a run already failing on
    // the budget, the orders it replaced are judged now (replaced-orders.ts).
    if (withdrawn === undefined) {
      replaces(true);
      if (replaced !== undefined) view.sharedPlan?.noteKept(replaced.order_oid);
      return void (await cancelReplacedIfFailing(run, view, name));
    }
    noteFailing(run, view);
    run.applied.delete(resource);
    // Withdrawn: no change of it is made (shared-plan.ts).
    view.sharedPlan?.forget(resource);
    const cancelled = await cancelReplacedIfFailing(run, view);
    const message =
      `${withdrawn}, and ${name} is not in the stack. ${describeDone(run, `kept for ${name}`)}${cancelled}. Run \`pulumi up\` again ` +
      `once the account has room, or raise the limit.`;
    noteWith(run, "withdrew", name);
    throw new VpsError(VPS_ERROR_CODES.budget, message);
  };
  // A replacement the engine records though it failed replaced its order all the same (replaced-orders.ts).
  const ordered = await (
    limitsSet(context) ? judged(run, view, resource, pricedOf(news), plan, order, placed) : order()
  ).catch((error: unknown) => Promise.reject(replacedAllTheSame(run, error, replacedOrder)));
  if (!ordered.found || judgedAsNew) noteWith(run, "ordered", name);
  if (takenBack(ordered))
    await exclusive(run, () => judgeTakenBack(context, view, name, ordered.order, withdraw, news));
  return ordered;
}

/**
 * A change to a live order (update(), or an adopted order brought to the program), judged when it resizes or
 * moves the VPS, and applied by `change`. `what`: the word for what this run then did ("changed", "adopted").
 */
export async function guardedChange<T>(
  context: RunContext,
  view: AccountView,
  target: { live: AboutOrder; recorded: RecordedOutputs; news: VpsInputs },
  what: string,
  change: () => Promise<T>,
  /** When the update must be done (its time limit, engine/time-limits.ts). */
  deadlineMs?: number,
): Promise<T> {
  const name = resourceName(target.news);
  const plan = (): { planned: Planned; priced: QuotedValues } | undefined => {
    if (!limitsSet(context)) return undefined;
    const { live, recorded, news } = target;
    const current = orderOutputs(live, recorded);
    const changes = computeChanges(String(live.order_oid), current, news);
    if (changes.parameters.length === 0 && !changes.move) return undefined;
    // The order's plan, data centre and sizes with the program's over them; a move keeps the data centre
    // (check() refuses a host in another, host-checks.ts), and RimuHosting prices a VPS by those alone.
    const priced: QuotedValues = { ...pricedOf(current), ...pricedOf(news) };
    const steps = [
      ...(changes.parameters.length > 0 ? [`resizing it (${changes.parameters.join(", ")})`] : []),
      ...(changes.move ? [`moving it to host ${String(news.hostServerOid)}`] : []),
    ];
    const planned: Planned = {
      name,
      resource: resourceKey(news),
      doing: steps.join(" and "),
      refused: `changed on ${name}`,
      nowUsd: orderFields(live).monthlyFeeUsd ?? NaN,
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      holds: (o) => o.order_oid === live.order_oid,
      changes: true,
    };
    return { planned, priced };
  };
  const run = guardOf(context);
  const resource = resourceKey(target.news);
  try {
    const judging = plan();
    const result = judging
      ? await judged(run, view, resource, judging.priced, async () => judging.planned, change)
      : await change();
    noteWith(run, what, name);
    return result;
  } catch (error) {
    if (error instanceof VpsIncompleteError) noteWith(run, what, name);
    throw error;
  } finally {
    run.settled.add(resource);
  }
}
