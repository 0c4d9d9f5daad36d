/**
 * What `pulumi destroy` does with the orders a killed run of its stack left in no state (docs/troubleshooting.md, "A
 * run was killed"; docs/cost.md, I4): it cancels those this stack's backend provably records as a killed run's, and
 * names every other one of the stack's name that stays billed.
 *
 * A killed run's order is in no state, so the engine never asks the provider to delete it, and destroy does not run
 * the program, whose check would take it back (take-back.ts). So every order the provider places carries its stack's
 * token (a hash of the project and stack names), its stack identity and its run's record (new-order-marks.ts), and
 * the first delete of a run that checked no VPS (a destroy, or an `up` whose
 * program has none left) lists the account's active orders carrying the token and judges each by the one rule of
 * may-cancel.ts: cancelled only on a positive record kept in this stack's backend (a pending create of its state
 * carrying the order's nonce; a record of the run that placed it, which kept no checkpoints and never finished);
 * otherwise named once, with its fee and how to end it. Many stacks share the token (a `dev` in every backend, a
 * copy of this backend): absence from their states proves nothing. Those carrying another stack's identity are not
 * this stack's business (another-stacks.ts): counted in one line, never cancelled, never a warning.
 *
 * A destroy that leaves billed an order the records prove this stack's killed run's (its cancellation failed, or it
 * may be a new order of another provider of this command), or that could not read what it judges by (the account's
 * orders, this stack's identity, the states, the run records), fails (RIMU_ERR_LEFT_BILLED), and its state never
 * lies: the engine keeps a VPS whose Delete failed in the state (docs/dynamic-providers.md §12), so the delete that
 * judges does so before it cancels its own VPS, and fails with that VPS still billed. That VPS is the stack's way
 * back: a destroy whose state holds no VPS never starts the provider, so the kept one brings the next `pulumi
 * destroy` here to judge again. The run's other deletes do not wait: each cancels its own VPS.
 *
 * A run that checked a VPS sweeps nothing: its program's check takes its stack's killed orders back, and a delete of
 * that run (a replacement's, a VPS left out of the program) must not cancel one that a later check would take.
 * Orders placed before the stack token existed carry none and are not found.
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { RimuClient } from "../../client/index.js";
import type { AccountView } from "../account/account-view.js";
import { deleteBillWords } from "../budget/money.js";
import { dollars, cents } from "../cost/money.js";
import { VPS_ERROR_CODES, VpsError } from "../engine/errors.js";
import { log } from "../engine/log.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { isOrderGone, orderFields } from "../../wire-mapping/order-fields.js";
import { holderOf } from "./backend-states.js";
import { backendStates, stackRunRecords } from "./backend-reader.js";
import { mayCancel, needsRunRecords, type Judgement, type OwnershipRecords } from "./may-cancel.js";
import { stackOfScope } from "./stack-scope.js";
import { identityOf, stackIdentity } from "./stack-identity.js";
import { creationNonceOf } from "./order-marks.js";
import { carriesAnotherMark, otherStacksLine } from "./another-stacks.js";
import { stillBilled, type LeftOrder } from "./still-billed.js";
import { ordersNotBeingDeleted } from "./run-deletes.js";
import { carriesToken, stackTokenOf } from "./new-order-marks.js";

const SWEEP = runState("the stack's orders in no state, judged once by a destroy", () => ({
  checked: false,
  judged: false,
}));

/** A check of this run saw a VPS of the program: its deletes sweep nothing (the check takes killed orders back). */
export function noteProgramChecked(run: RunContext): void {
  run.get(SWEEP).checked = true;
}

/** What to tell of a stray order: its number, domain name and fee. */
function named(order: AboutOrder): string {
  const fee = orderFields(order).monthlyFeeUsd;
  const feeWords = fee === undefined ? "its fee not reported" : `${dollars(cents(fee))} a month`;
  return `order ${order.order_oid} (${order.domain_name}, ${feeWords})`;
}

/** How to end or keep an order this run did not cancel. */
const HOW = "cancel it in the control panel, or adopt it with `adoptOrderOid`";

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * What the sweep left: orders the records prove a killed run's of this stack (`left`) or that it could not judge
 * (`unjudged`), each said only if still billed (still-billed.ts); what it could not read, naming no order (`unread`).
 */
interface Verdict {
  left: LeftOrder[];
  unjudged: LeftOrder[];
  unread: string[];
}

/**
 * The VPS whose delete judges: its words (`Vps 1234 (web.example.com)`) and its order, if it has one; undefined when
 * the sweep runs outside a delete (the killed-orders command).
 */
export interface JudgingDelete {
  words: string;
  oid: number | undefined;
}

/**
 * Before the delete of a VPS recorded with `creationScope` cancels its own order: once per run, and only in a run that
 * checked no VPS, cancels the active orders carrying this stack's identity that no state of the backend holds, naming
 * each. When a killed run's order of this stack stays billed, or the sweep could not read what it must judge by (the
 * account's orders, this stack's identity, the backend's states or history), this delete fails (RIMU_ERR_LEFT_BILLED)
 * **before** its own VPS is cancelled: a failed delete keeps its resource in the state (the engine records a failed
 * Delete as not done), so the state stays true, the command exits non-zero, and the kept VPS brings the next
 * `pulumi destroy` back here (a destroy with no VPS in the state never starts the provider). The other deletes of the
 * run do not wait for it: each cancels its own VPS (a destroy always works for the stack's own VPSs).
 */
export async function sweepStackStrays(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  creationScope: unknown,
  own: JudgingDelete | undefined,
  otherStackMarks: ReadonlySet<string> = new Set(),
): Promise<void> {
  const held = run.get(SWEEP);
  if (held.checked || held.judged) return;
  const token = stackTokenOf(creationScope);
  if (token === undefined) return;
  held.judged = true;
  const scope = stackOfScope(creationScope)!;
  const verdict = await sweep(run, view, client, { token, scope, otherStackMarks }, own?.oid).catch(
    (error: unknown): Verdict => ({ ...NOTHING, unread: [`looking for them failed (${messageOf(error)})`] }),
  );
  // Named only once this run's deletes of them ended and the account says they are still billed (still-billed.ts).
  const still = await stillBilled(run, view, [...verdict.left, ...verdict.unjudged]);
  const left = still.filter((entry) => verdict.left.includes(entry));
  const unjudged = still.filter((entry) => verdict.unjudged.includes(entry)).map((entry) => entry.words);
  const unread = [...verdict.unread, ...unjudged];
  if (left.length === 0 && unread.length === 0) return;
  const said: string[] = [];
  const who = own === undefined ? "This sweep" : "This destroy";
  if (left.length > 0)
    said.push(
      `${who} leaves billed ${left.length === 1 ? "an order" : `${left.length} orders`} that ` +
        `a killed run of this stack may have placed and no state is known to hold: ` +
        `${left.map((entry) => entry.words).join("; ")}.`,
    );
  if (unread.length > 0)
    said.push(
      `${who} cannot tell whether a killed run of this stack left orders billed in no state: ${unread.join("; ")}.`,
    );
  // Run from outside the engine (provider/adopt/killed-orders.ts), no VPS is being deleted: nothing is kept.
  const kept =
    own === undefined
      ? ""
      : ` ${own.words} is kept (not cancelled, still in the state) so that this destroy fails truthfully and ` +
        "`pulumi destroy`, run again once that is fixed, judges again.";
  throw new VpsError(VPS_ERROR_CODES.leftBilled, `${said.join(" ")}${kept}`);
}

/**
 * The active orders carrying `creationScope`'s stack token that no state of the backend holds (all of them when the
 * states cannot be read), each named with its fee: what a sweep would judge, for a command that must not cancel
 * (killed-orders.ts, when a command of the stack may be running). `another`: the one line that counts those of
 * another stack's identity (another-stacks.ts), as the sweep tells them, or none; `named`: the rest. Cancels nothing.
 */
export async function unheldOrdersOfStackName(
  run: RunContext,
  view: AccountView,
  creationScope: unknown,
  otherStackMarks: ReadonlySet<string> = new Set(),
): Promise<{ named: string[]; another: string[] }> {
  const token = stackTokenOf(creationScope);
  const scope = stackOfScope(creationScope);
  if (token === undefined || scope === undefined) return { named: [], another: [] };
  const carrying = (await view.activeOrders({ fresh: true })).filter((order) => carriesToken(order, token));
  if (carrying.length === 0) return { named: [], another: [] };
  const states = await backendStates(run);
  const unheld = carrying.filter(
    (order) => states.unread !== undefined || holderOf(states, order) === undefined,
  );
  const identity = unheld.some((order) => identityOf(order) !== undefined)
    ? await stackIdentity(run, scope)
    : undefined;
  const isAnother = (order: AboutOrder) =>
    identity !== undefined && carriesAnotherMark(order, identity, states, scope);
  const another = unheld.filter(isAnother);
  return {
    named: unheld.filter((order) => !isAnother(order)).map(named),
    another: another.length === 0 ? [] : [otherStacksLine(another, scope, otherStackMarks)],
  };
}

/** How to adopt or end an order this run cannot prove its own stack's. */
const ADOPT_OR_CANCEL =
  "If it is this stack's, cancel it in the control panel, or adopt it (`pulumi import rimuhosting:index:Vps <name> " +
  "<oid>`, or `adoptOrderOid: <oid>` on the resource) and the stack's `pulumi destroy` ends it; if another " +
  "stack's, leave it";

const NOTHING: Verdict = { left: [], unjudged: [], unread: [] };

/** The account's active orders now, or why they could not be listed. */
async function listed(view: AccountView): Promise<AboutOrder[] | { unread: string }> {
  try {
    const now = Date.now();
    return (await view.activeOrders({ fresh: true })).filter((order) => !isOrderGone(order, now));
  } catch (error) {
    return { unread: `the account's orders could not be listed (${messageOf(error)})` };
  }
}

/** Whose the sweep judges: the stack's token and names, and the marks the user showed another stack's. */
interface SweptStack {
  token: string;
  scope: { project: string; stack: string };
  otherStackMarks: ReadonlySet<string>;
}

/**
 * The orders the sweep judges: active, carrying this stack's token, not the judging delete's own, and not ordered by
 * this command (read after the listing: every order of this command's runs in it was noted before its POST, by every
 * provider of the command whatever its API key, account/command-orders.ts; with PULUMI_SKIP_CHECKPOINTS no state
 * holds such an order yet, and its run's record reads as a killed run's: never finished, no checkpoints).
 */
async function ordersToJudge(
  view: AccountView,
  stack: SweptStack,
  deleted: number | undefined,
): Promise<AboutOrder[] | { unread: string }> {
  const first = await listed(view);
  if ("unread" in first) return first;
  // Per command, not per key: a sibling provider with another key on this account, started before this one, placed
  // an order this run's record reading alone would call a killed run's (test/engine/two-keys-sweep.test.ts).
  const thisCommand = view.sharedPlan?.orderedByThisCommand() ?? new Set<string>();
  return first.filter(
    (order) =>
      order.order_oid !== deleted &&
      carriesToken(order, stack.token) &&
      !thisCommand.has(creationNonceOf(order) ?? ""),
  );
}

/** What this stack's backend records, read for `orders`: the run records only when an order's judgement needs them. */
async function recordsFor(
  run: RunContext,
  stack: SweptStack,
  orders: readonly AboutOrder[],
): Promise<OwnershipRecords> {
  const identity = await stackIdentity(run, stack.scope);
  const states = await backendStates(run);
  const before = { scope: stack.scope, identity, states };
  const needed = orders.some((order) => needsRunRecords(order, before));
  return { ...before, runs: needed ? await stackRunRecords(run, stack.scope) : undefined };
}

async function sweep(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  stack: SweptStack,
  deleted: number | undefined,
): Promise<Verdict> {
  const carrying = await ordersToJudge(view, stack, deleted);
  if ("unread" in carrying) return { ...NOTHING, unread: [carrying.unread] };
  // An order whose delete this run began is held (run-deletes.ts): when those are all it found, once the run's deletes
  // stopped arriving, nothing is left to judge and the backend is not read. Any other: every one judged, as before.
  if ((await ordersNotBeingDeleted(run, carrying)).length === 0) return NOTHING;
  const records = await recordsFor(run, stack, carrying);
  const judged = carrying.map((order) => ({ order, judgement: mayCancel(order, records) }));
  const toAct = judged.filter(({ judgement }) => judgement.answer !== "held");
  if (toAct.length === 0) return NOTHING;
  // Listed again after the records were read: a VPS of this stack whose delete (another of this command's) ended
  // between the first listing and that read is in no state any more, and its order is cancelled already.
  const again = await listed(view);
  if ("unread" in again) return { ...NOTHING, unread: [again.unread] };
  const stillActive = new Set(again.map((order) => order.order_oid));
  const verdict: Verdict = { left: [], unjudged: [], unread: [] };
  const acting = toAct.filter(({ order }) => stillActive.has(order.order_oid));
  // Other stacks' orders are not this stack's business: counted in one line, never a warning (another-stacks.ts).
  const another = acting.filter((one) => one.judgement.answer === "another mark").map((one) => one.order);
  if (another.length > 0) log(run, otherStacksLine(another, stack.scope, stack.otherStackMarks));
  for (const { order, judgement } of acting) await act(run, view, client, order, judgement, verdict);
  return verdict;
}

/** What the sweep does with `order` by its judgement (may-cancel.ts): cancels it, or names it; `verdict` gathers. */
async function act(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  order: AboutOrder,
  judgement: Judgement,
  verdict: Verdict,
): Promise<void> {
  const what = named(order);
  switch (judgement.answer) {
    case "held":
    case "another mark":
      return;
    case "unread":
      verdict.unjudged.push({
        order,
        named: what,
        words: `${judgement.why}, so ${what} cannot be judged`,
        warning:
          `Warning: ${what} carries this stack's name and is in no state known to this run, but it cannot be ` +
          `judged: ${judgement.why}. It stays billed, not cancelled. ${ADOPT_OR_CANCEL}.`,
      });
      return;
    case "no identity":
      log(
        run,
        `Warning: ${what} carries this stack's name and no state of this backend holds it, but it is not provably ` +
          "this stack's: it carries no stack identity (placed by a release before it, or by a run that could not " +
          "read it). It may be an order of a killed run of this stack, or a VPS of a stack of the same name in " +
          `another backend, so it stays billed. ${ADOPT_OR_CANCEL}.`,
      );
      return;
    case "left the state":
      log(
        run,
        `${what} stays billed: it left this stack's state on purpose (a VPS kept with retainOnDelete, or removed ` +
          `with \`pulumi state delete\`): its run ${judgement.run}, recorded in this stack's backend, finished with ` +
          "it in its state. To stop its bill, cancel it in the control panel.",
      );
      return;
    case "unproven":
      log(
        run,
        `${what} carries this stack's identity and no state of this backend holds it, but nothing this backend ` +
          `records proves it this stack's: ${judgement.why}. It stays billed, not cancelled. To stop its bill, ${HOW}.`,
      );
      return;
    case "cancel":
      return cancelProven(run, view, client, order, judgement, verdict);
  }
}

/** Cancels an order the records prove a killed run's of this stack (or names it when it may be this command's). */
async function cancelProven(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  order: AboutOrder,
  judgement: Extract<Judgement, { answer: "cancel" }>,
  verdict: Verdict,
): Promise<void> {
  const what = named(order);
  // "Not in the plan" proves an order no provider's of this command only when every noting of one reached the plan
  // and the order is older than this run: a provider whose append failed left no nonce (shared-plan.ts).
  const planIncomplete = view.sharedPlan?.orderingIncomplete() ?? false;
  const placed = order.billing_info?.order_date?.ms_since_epoch;
  if (planIncomplete || placed === undefined || placed >= run.startedAt) {
    verdict.left.push({
      order,
      named: what,
      words: `${what}: ordered after this command began, or its plan incomplete`,
      warning:
        `Warning: ${what} carries this stack's identity and no state holds it, but it is not cancelled: ` +
        (planIncomplete
          ? "this run could not note its own orders in the command's shared plan"
          : "it was ordered after this command began (or its order date is not reported)") +
        `, so it may be a new order of another provider of this command. To stop its bill, ${HOW}.`,
    });
    return;
  }
  try {
    const cancelled = await client.deleteVps({ orderOid: order.order_oid, domainName: order.domain_name });
    view.noteGone(order.order_oid);
    // One line: the order, why it was this stack's to cancel, and what its cancellation did to the bill.
    log(
      run,
      `${what}: cancelled. A killed run of this stack ordered it: ` +
        (judgement.proof === "pending create"
          ? "the engine's record of a create it never finished (a pending operation) carries its creation nonce" +
            (judgement.lostRace ? ", though its stack identity is not this stack's (a lost tag race)." : ".")
          : "this stack's backend records the run that placed it, which kept no checkpoints and never finished, so " +
            "no state ever held it.") +
        // Its fee is in `what`: the bill's words without it.
        ` It is ${deleteBillWords(cancelled.cancel_messages ?? [], undefined)}`,
    );
  } catch (error) {
    verdict.left.push({
      order,
      named: what,
      words: `${what}: its cancellation failed (${messageOf(error)})`,
      warning:
        `Warning: ${what}, which a killed run of this stack left in no state, could not be cancelled ` +
        `(${messageOf(error)}); it stays billed. To stop its bill, ${HOW}.`,
    });
  }
}
