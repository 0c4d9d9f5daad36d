/**
 * What `pulumi destroy` does with the orders a killed run of its stack left in no state (docs/troubleshooting.md, "A
 * run was killed"; docs/cost.md, I4): it cancels those this stack's backend provably records as a killed run's, and
 * names every other one of the stack's name that stays billed.
 *
 * A killed run's order is in no state, so the engine never asks the provider to delete it, and destroy does not run
 * the program, whose check would take it back (take-back.ts). So every order the provider places carries its stack's
 * token (a hash of the project and stack names, STACK_TOKEN_KEY), its stack identity (stack-identity.ts) and its
 * run's record (run-records.ts), and the first delete of a run that checked no VPS (a destroy, or an `up` whose
 * program has none left) lists the account's active orders carrying the token and judges each by the one rule of
 * may-cancel.ts: cancelled only on a positive record kept in this stack's backend (a pending create of its state
 * carrying the order's nonce; a record of the run that placed it, which kept no checkpoints and never finished);
 * otherwise named once, with its fee and how to end it. Many stacks share the token (a `dev` in every backend, a
 * copy of this backend): absence from their states proves nothing.
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
import { createHash } from "node:crypto";
import type { AboutOrder } from "../../../contract/index.js";
import type { RimuClient } from "../../client/index.js";
import { STACK_TOKEN_KEY } from "../../client/metadata-keys.js";
import type { AccountView } from "../account/account-view.js";
import { deleteBillLine } from "../budget/money.js";
import { dollars, cents } from "../cost/money.js";
import { VPS_ERROR_CODES, VpsError } from "../engine/errors.js";
import { log } from "../engine/log.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { isOrderGone, orderFields } from "../../wire-mapping/order-fields.js";
import { holderOf } from "./backend-states.js";
import { backendStates, stackRunRecords, thisRunsRecord } from "./backend-reader.js";
import { mayCancel, needsRunRecords, type Judgement, type OwnershipRecords } from "./may-cancel.js";
import { RUN_RECORD_KEY } from "./run-records.js";
import { stackOfScope } from "./stack-scope.js";
import { deploymentOfThisProcess } from "../engine/deployment.js";
import { identityOf, stackIdentity, STACK_IDENTITY_KEY } from "./stack-identity.js";
import { creationNonceOf } from "./order-marks.js";
import { carriesAnotherMark, otherMarkLine, shownAnotherStacks } from "./another-stacks.js";

export { STACK_TOKEN_KEY };

/** `stack-<32 hex>` from a creationScope's project and stack (`<project>/<stack>/<name>`), or undefined. */
export function stackTokenOf(creationScope: unknown): string | undefined {
  const scope = stackOfScope(creationScope);
  if (scope === undefined) return undefined;
  const hash = createHash("sha256").update(`${scope.project}/${scope.stack}`).digest("hex");
  return `stack-${hash.slice(0, 32)}`;
}

/** Runs that already said their orders carry no stack identity (once per run is enough). */
const UNMARKED = runState("a run's orders placed without a stack identity", () => ({ said: false }));

/**
 * The meta_data entries that tie a new order for `creationScope` to its stack: the stack token (its names) and the
 * stack identity (stack-identity.ts), when it can be read. Without an identity the order is placed all the same (a
 * create never waits on a backend that cannot be read), and the run says once that no later run will act on it.
 */
export async function stackMarks(
  run: RunContext,
  creationScope: unknown,
  domainName: string,
): Promise<{ key_name: string; value: string }[]> {
  const token = stackTokenOf(creationScope);
  const scope = stackOfScope(creationScope);
  if (token === undefined || scope === undefined) return [];
  const marks = [{ key_name: STACK_TOKEN_KEY, value: token }];
  const identity = await stackIdentity(run, scope, "mark");
  if ("mark" in identity)
    return [
      ...marks,
      { key_name: STACK_IDENTITY_KEY, value: identity.mark },
      ...(await runMark(run, scope, domainName)),
    ];
  const said = run.get(UNMARKED);
  if (!said.said && deploymentOfThisProcess() !== undefined) {
    said.said = true;
    log(
      run,
      `Warning: ${domainName} and the other orders of this run carry no stack identity, because ${identity.unread}. ` +
        `Should this run be killed before its state records them, no later \`pulumi up\` or \`pulumi destroy\` ` +
        `will take back or cancel them: each is named, to cancel or adopt (\`adoptOrderOid\`) by hand.`,
    );
  }
  return marks;
}

/** Runs that already said their orders carry no run record. */
const UNRECORDED = runState("a run's orders placed without a run record", () => ({ said: false }));

/**
 * The run record's mark (run-records.ts): this run's id, once its record is in the stack's backend (written before
 * its first order). Without it the order is placed all the same, and the run says once what that costs.
 */
async function runMark(
  run: RunContext,
  scope: { project: string; stack: string },
  domainName: string,
): Promise<{ key_name: string; value: string }[]> {
  const record = await thisRunsRecord(run, scope);
  if ("id" in record) return [{ key_name: RUN_RECORD_KEY, value: record.id }];
  const said = run.get(UNRECORDED);
  if (!said.said && deploymentOfThisProcess() !== undefined) {
    said.said = true;
    log(
      run,
      `Warning: ${domainName} and the other orders of this run carry no run record, because ${record.why}. ` +
        "Should this run be killed without checkpoints (PULUMI_SKIP_CHECKPOINTS) before its state records them, " +
        "no later `pulumi destroy` will cancel them: each is named, to cancel or adopt (`adoptOrderOid`) by hand.",
    );
  }
  return [];
}

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
const HOW =
  "cancel it in the control panel (or `pulumi up` with the program that ordered it, then `pulumi destroy`), or " +
  "adopt it with `adoptOrderOid`";

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * What the sweep left: the killed run's orders of this stack it leaves billed (named, with why in the log), and what
 * it could not read to judge (each why, naming the orders it concerns).
 */
interface Verdict {
  left: string[];
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
  const token = stackTokenOf(creationScope);
  if (held.checked || token === undefined || held.judged) return;
  held.judged = true;
  const scope = stackOfScope(creationScope)!;
  const verdict = await sweep(run, view, client, { token, scope, otherStackMarks }, own?.oid).catch(
    (error: unknown): Verdict => ({ left: [], unread: [`looking for them failed (${messageOf(error)})`] }),
  );
  if (verdict.left.length === 0 && verdict.unread.length === 0) return;
  const said: string[] = [];
  const who = own === undefined ? "This sweep" : "This destroy";
  if (verdict.left.length > 0)
    said.push(
      `${who} leaves billed ${verdict.left.length === 1 ? "an order" : `${verdict.left.length} orders`} that ` +
        `a killed run of this stack may have placed and no state is known to hold: ${verdict.left.join("; ")}.`,
    );
  if (verdict.unread.length > 0)
    said.push(
      `${who} cannot tell whether a killed run of this stack left orders billed in no state: ` +
        `${verdict.unread.join("; ")}.`,
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
 * (killed-orders.ts, when a command of the stack may be running). `another`: those the user showed another stack's
 * (their marks in `otherStackMarks`: another-stacks.ts), each told as the sweep tells it; `named`: the rest.
 * Cancels nothing.
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
    identity !== undefined &&
    carriesAnotherMark(order, identity, states, scope) &&
    shownAnotherStacks(order, otherStackMarks);
  return {
    named: unheld.filter((order) => !isAnother(order)).map(named),
    another: unheld
      .filter(isAnother)
      .map((order) => otherMarkLine(named(order), order, identity!, scope, otherStackMarks)),
  };
}

function carriesToken(order: AboutOrder, token: string): boolean {
  return order.meta_data?.some((m) => m.key_name === STACK_TOKEN_KEY && m.value === token) ?? false;
}

/** How to adopt or end an order this run cannot prove its own stack's. */
const ADOPT_OR_CANCEL =
  "if it is this stack's, adopt it (`pulumi import rimuhosting:index:Vps <name> <oid>`, or `adoptOrderOid: <oid>` " +
  "on the resource) and `pulumi destroy` again, or cancel it in the control panel; if another stack's, leave it";

const NOTHING: Verdict = { left: [], unread: [] };

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
 * this command (read after the listing: every order of this command's runs in it was noted before its POST,
 * shared-plan.ts; with PULUMI_SKIP_CHECKPOINTS no state holds such an order yet, and it is no killed run's).
 */
async function ordersToJudge(
  view: AccountView,
  stack: SweptStack,
  deleted: number | undefined,
): Promise<AboutOrder[] | { unread: string }> {
  const first = await listed(view);
  if ("unread" in first) return first;
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
  if ("unread" in carrying) return { left: [], unread: [carrying.unread] };
  if (carrying.length === 0) return NOTHING;
  const records = await recordsFor(run, stack, carrying);
  const judged = carrying.map((order) => ({ order, judgement: mayCancel(order, records) }));
  const toAct = judged.filter(({ judgement }) => judgement.answer !== "held");
  if (toAct.length === 0) return NOTHING;
  // Listed again after the records were read: a VPS of this stack whose delete (another of this command's) ended
  // between the first listing and that read is in no state any more, and its order is cancelled already.
  const again = await listed(view);
  if ("unread" in again) return { left: [], unread: [again.unread] };
  const stillActive = new Set(again.map((order) => order.order_oid));
  const verdict: Verdict = { left: [], unread: [] };
  for (const { order, judgement } of toAct.filter(({ order }) => stillActive.has(order.order_oid)))
    await act(run, view, client, stack, order, judgement, verdict);
  return verdict;
}

/** What the sweep does with `order` by its judgement (may-cancel.ts): cancels it, or names it; `verdict` gathers. */
async function act(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  stack: SweptStack,
  order: AboutOrder,
  judgement: Judgement,
  verdict: Verdict,
): Promise<void> {
  const what = named(order);
  switch (judgement.answer) {
    case "held":
      return;
    case "unread":
      log(
        run,
        `Warning: ${what} carries this stack's name and is in no state known to this run, but it cannot be judged: ` +
          `${judgement.why}. It stays billed, not cancelled. ${ADOPT_OR_CANCEL}.`,
      );
      verdict.unread.push(`${judgement.why}, so ${what} cannot be judged`);
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
    case "another mark": {
      const identity = await stackIdentity(run, stack.scope);
      log(run, otherMarkLine(what, order, identity, stack.scope, stack.otherStackMarks));
      return;
    }
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
    log(
      run,
      `Warning: ${what} carries this stack's identity and no state holds it, but it is not cancelled: ` +
        (planIncomplete
          ? "this run could not note its own orders in the command's shared plan"
          : "it was ordered after this command began (or its order date is not reported)") +
        `, so it may be a new order of another provider of this command. To stop its bill, ${HOW}.`,
    );
    verdict.left.push(`${what}: ordered after this command began, or its plan incomplete`);
    return;
  }
  try {
    const cancelled = await client.deleteVps({ orderOid: order.order_oid, domainName: order.domain_name });
    view.noteGone(order.order_oid);
    log(
      run,
      `${what}: cancelled. A killed run of this stack ordered it: ` +
        (judgement.proof === "pending create"
          ? "the engine's record of a create it never finished (a pending operation) carries its creation nonce" +
            (judgement.lostRace ? ", though its stack identity is not this stack's (a lost tag race)." : ".")
          : "this stack's backend records the run that placed it, which kept no checkpoints and never finished, so " +
            "no state ever held it."),
    );
    log(
      run,
      deleteBillLine(
        String(order.order_oid),
        cancelled.cancel_messages ?? [],
        orderFields(order).monthlyFeeUsd,
      ),
    );
  } catch (error) {
    log(
      run,
      `Warning: ${what}, which a killed run of this stack left in no state, could not be cancelled ` +
        `(${messageOf(error)}); it stays billed. To stop its bill, ${HOW}.`,
    );
    verdict.left.push(`${what}: its cancellation failed (${messageOf(error)})`);
  }
}
