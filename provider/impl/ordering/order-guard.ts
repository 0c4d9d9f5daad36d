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
import { cents } from "../cost/money.js";
import { addsOf, type BudgetTotals, type Judgement, type VpsFee } from "../cost/verdict.js";
import { creationNonceOf, creationTokenFor } from "../lifecycle/creation-token.js";
import { VPS_ERROR_CODES, VpsError, VpsIncompleteError } from "../engine/errors.js";
import { pricedOf } from "../budget/money.js";
import { resourceKey, resourceName } from "../engine/notes.js";
import type { RunContext } from "../engine/run-context.js";
import { guardOf, runTotals } from "./guard-run.js";
import { exclusive } from "./in-flight.js";
import { liveOrderOf } from "../lookahead/vps-lookahead.js";
import { movedQuote } from "../lookahead/host-checks.js";
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
import { describeDone, noteWith } from "./done-words.js";
import { judged, limitsSet, type Orders, type Planned } from "./judgement.js";
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
      // Kept (a failed withdrawal: it replaces its order again), and said so in the shared plan: only now may another
      // provider's failing run cancel the order it replaced (shared-plan.ts's noteKept). In a run already failing on
      // the budget, the orders it replaced are judged now (replaced-orders.ts), an account not read then said so.
      // Inside this handling (issue 91): whatever fails in them, the order kept is billed and reaches the state.
      if (withdrawn === undefined) {
        replaces(true);
        if (replaced !== undefined) view.sharedPlan?.noteKept(replaced.order_oid);
        return void (await cancelReplacedIfFailing(run, view, name));
      }
    } catch (error) {
      // The read-back failed (a 429, a 5xx, a timeout): the order is billed, so it must reach the state (I4).
      throw unread(result, error);
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
    limitsSet(context)
      ? judged(run, view, resource, { values: pricedOf(news) }, plan, order, placed)
      : order()
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
  const plan = (): { planned: Planned; priced: Parameters<typeof judged>[3] } | undefined => {
    if (!limitsSet(context)) return undefined;
    const { live, recorded, news } = target;
    const current = orderOutputs(live, recorded);
    const changes = computeChanges(String(live.order_oid), current, news);
    if (changes.parameters.length === 0 && !changes.move) return undefined;
    // The order's plan, data centre and sizes with the program's over them; a move keeps the data centre
    // (check() refuses a host in another, host-checks.ts). A move is quoted as the check quotes it (movedQuote): as
    // the order on its new host, whose answer also says the host has room for it; the same request, asked once.
    const priced = changes.move
      ? {
          values: movedQuote(live, { before: recorded as VpsInputs, after: news, known: news }),
          asOrder: true,
        }
      : { values: { ...pricedOf(current), ...pricedOf(news) } };
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
