/**
 * What `pulumi destroy` does with the orders a killed run of its stack left in no state (docs/troubleshooting.md, "A
 * run was killed"; docs/cost.md, I4): it cancels those that provably were never in any state of the stack, and names
 * every other one that stays billed.
 *
 * A killed run's order is in no state, so the engine never asks the provider to delete it, and destroy does not run
 * the program, whose check would take it back (take-back.ts). So every order the provider places carries its stack's
 * token (a hash of the project and stack names, STACK_TOKEN_KEY) and its stack identity (stack-identity.ts), and the
 * first delete of a run that checked no VPS (a destroy, or an `up` whose program has none left) lists the account's
 * active orders carrying the token. Many stacks share the token (a `dev` in every backend): only an order carrying
 * this stack's identity, or one a pending create of this stack's state proves its own (its nonce: the engine's own
 * record, whatever the mark), is judged further. Those with another readable identity are a same-named stack's of
 * another backend or this stack's from before `pulumi stack rm` (another-stacks.ts): not this stack's business,
 * counted in one line, never cancelled, never a warning. One with none (placed
 * before the identity existed, or when it could not be read), or any when this stack's identity cannot be read, is
 * not provably this stack's: it is named with how to adopt or cancel it, never cancelled. An order a state
 * of the backend holds (backend-states.ts: this stack's VPSs, being deleted by their own deletes, or another stack's)
 * is never touched. The rest carry the same token whether a killed run ordered them or they left the stack on
 * purpose: a VPS with `retainOnDelete` (the engine drops it from the state during the same destroy, without asking
 * the provider) or one removed with `pulumi state delete`. Those were recorded by an earlier operation of the stack
 * and a killed run's order never was (stack-history.ts reads every finished operation's copy of the state). So an
 * order is cancelled only when the stack's history was read and holds it nowhere; one it holds is named as kept; and
 * when the states or the history cannot be read, each is named with its fee and how to cancel or adopt it. An order
 * dated after this run began, or any when this run could not note its orders in the shared plan, is named too, never
 * cancelled: "its nonce is not in the plan" proves no killed run's order when a provider's note of it may have failed.
 *
 * A destroy that leaves a killed run's order of this stack billed, or that could not read what it judges by (the
 * account's orders; this stack's identity, when an order no state holds carries an identity; the states; the
 * history), fails (RIMU_ERR_LEFT_BILLED), and its state never lies: the engine keeps a VPS whose Delete failed in the
 * state (docs/dynamic-providers.md §12), so the delete that judges does so before it cancels its own VPS, and fails
 * with that VPS still billed. That VPS is the stack's way back: a destroy whose state holds no VPS never starts the
 * provider, so the kept one is what brings the next `pulumi destroy` here to judge again. The run's other deletes do
 * not wait for the judgement: each cancels its own VPS (the engine begins no further step once one has failed; those
 * not begun stay in the state, billed, and the next destroy cancels them). An order with no identity (placed
 * by a release before it) is not provably this stack's whether or not this stack's identity is read: it is named
 * (a warning, which makes killed-orders exit 1) and does not fail the destroy. One with another identity, or any
 * marked one when this stack has no identity by nature (no key material: it never marked one), is counted in the
 * one line of other stacks' orders, failing neither. A read of this
 * stack's identity, or of the states when an order carries another mark, that may succeed later fails the destroy.
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
import { holderOf, pendingCreateOf } from "./backend-states.js";
import { backendStates, stackHistory } from "./backend-reader.js";
import { stackOfScope } from "./stack-history.js";
import { deploymentOfThisProcess } from "../engine/deployment.js";
import { identityOf, stackIdentity, STACK_IDENTITY_KEY } from "./stack-identity.js";
import { creationNonceOf } from "./order-marks.js";
import { carriesAnotherMark, otherStacksLine } from "./another-stacks.js";
import { stillBilled, type LeftOrder } from "./still-billed.js";

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
  if ("mark" in identity) return [...marks, { key_name: STACK_IDENTITY_KEY, value: identity.mark }];
  const said = run.get(UNMARKED);
  if (!said.said && deploymentOfThisProcess() !== undefined) {
    said.said = true;
    log(
      `Warning: ${domainName} and the other orders of this run carry no stack identity, because ${identity.unread}. ` +
        `Should this run be killed before its state records them, no later \`pulumi up\` or \`pulumi destroy\` ` +
        `will take back or cancel them: each is named, to cancel or adopt (\`adoptOrderOid\`) by hand.`,
    );
  }
  return marks;
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
const HOW = "cancel it in the control panel, or adopt it with `adoptOrderOid`";

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * What the sweep left: the killed run's orders of this stack it leaves billed (named, with why in the log), and what
 * it could not read to judge (each why, naming the orders it concerns).
 */
interface Verdict {
  left: LeftOrder[];
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
  // Named only once this run's deletes of them ended and the account says they are still billed (still-billed.ts).
  const left = await stillBilled(run, view, verdict.left);
  if (left.length === 0 && verdict.unread.length === 0) return;
  const said: string[] = [];
  const who = own === undefined ? "This sweep" : "This destroy";
  if (left.length > 0)
    said.push(
      `${who} leaves billed ${left.length === 1 ? "an order" : `${left.length} orders`} that ` +
        `a killed run of this stack may have placed and no state is known to hold: ` +
        `${left.map((entry) => entry.words).join("; ")}.`,
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

function carriesToken(order: AboutOrder, token: string): boolean {
  return order.meta_data?.some((m) => m.key_name === STACK_TOKEN_KEY && m.value === token) ?? false;
}

/** How to adopt or end an order this run cannot prove its own stack's. */
const ADOPT_OR_CANCEL =
  "If it is this stack's, cancel it in the control panel, or adopt it (`pulumi import rimuhosting:index:Vps <name> " +
  "<oid>`, or `adoptOrderOid: <oid>` on the resource) and the stack's `pulumi destroy` ends it; if another " +
  "stack's, leave it";

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

async function sweep(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  stack: { token: string; scope: { project: string; stack: string }; otherStackMarks: ReadonlySet<string> },
  deleted: number | undefined,
): Promise<Verdict> {
  const first = await listed(view);
  if ("unread" in first) return { left: [], unread: [first.unread] };
  // Read after the listing: every order of this command's runs in it was noted before its POST (shared-plan.ts). Such
  // an order is another provider's of this command (with PULUMI_SKIP_CHECKPOINTS no state holds it yet), not a
  // killed run's: nothing ordered after this command started is. The plan is one per account *key* (shared-plan.ts):
  // a provider of this command with another API key on the same account notes its orders in another plan, so they
  // are not here. What keeps them then is the order date below (one placed after this run began is never cancelled)
  // and the state (a create that finished with checkpoints on is held); one placed before this run began whose
  // create is pending or unrecorded (PULUMI_SKIP_CHECKPOINTS) is not told apart (issue 92, item 7: not fixed here).
  const thisCommand = view.sharedPlan?.orderedByThisCommand() ?? new Set<string>();
  const carrying = first.filter(
    (order) =>
      order.order_oid !== deleted &&
      carriesToken(order, stack.token) &&
      !thisCommand.has(creationNonceOf(order) ?? ""),
  );
  if (carrying.length === 0) return NOTHING;
  const identity = await stackIdentity(run, stack.scope);
  const states = await backendStates(run);
  const unheldNow = carrying.filter((order) => holderOf(states, order) === undefined);
  if (unheldNow.length === 0) return NOTHING;
  // Listed again after the states were read: a VPS of this stack whose delete (another of this command's) ended
  // between the first listing and that read is in no state any more, and its order is cancelled already.
  const again = await listed(view);
  if ("unread" in again) return { left: [], unread: [again.unread] };
  const stillActive = new Set(again.map((order) => order.order_oid));
  const unheld = unheldNow.filter((order) => stillActive.has(order.order_oid));
  const where =
    states.unread === undefined
      ? "no state of this backend holds it"
      : `the backend's states could not be read (${states.unread})`;
  // The stack token names many stacks (a `dev` in every backend): only this stack's identity proves an order its own.
  // One with no identity (or an older form of it) is not provable whatever this stack's identity is: named, not
  // judged. One with an identity is judged by this stack's: when that cannot be read, the destroy cannot judge it.
  for (const order of unheld.filter((o) => identityOf(o) === undefined))
    log(
      `Warning: ${named(order)} carries this stack's name and ${where}, but it is not provably this stack's: it ` +
        "carries no stack identity (placed by a release before it, or by a run that could not read it). It may be " +
        "an order of a killed run of this stack, or a VPS of a stack of the same name in another backend, so it " +
        `stays billed. ${ADOPT_OR_CANCEL}.`,
    );
  const marked = unheld.filter((o) => identityOf(o) !== undefined);
  if (!("mark" in identity) && identity.none !== true) {
    if (marked.length === 0) return NOTHING;
    for (const order of marked)
      log(
        `Warning: ${named(order)} carries this stack's name and a stack identity, and ${where}, but this stack's ` +
          `identity could not be read (${identity.unread}), so it cannot be told from another stack's: it stays ` +
          `billed, not cancelled. ${ADOPT_OR_CANCEL}.`,
      );
    return {
      left: [],
      unread: [
        `this stack's identity could not be read (${identity.unread}), so ${marked.map(named).join(", ")} ` +
          "cannot be judged",
      ],
    };
  }
  // Another mark, unless the engine's record proves the order this stack's own (a lost tag race): another stack's
  // business (a same-named stack's of another backend, or this stack's before `pulumi stack rm`), counted in one
  // line, never a warning nor a failure (another-stacks.ts).
  const ownMark = "mark" in identity ? identity.mark : undefined;
  const another = marked.filter((o) => carriesAnotherMark(o, identity, states, stack.scope));
  if (another.length > 0) log(otherStacksLine(another, stack.scope, stack.otherStackMarks));
  // With the states unread, a mark not this stack's may still be this stack's killed create (its pending create
  // unread): not judged, so the run cannot say that none is left.
  const unjudged = marked.filter((o) => identityOf(o) !== ownMark && states.unread !== undefined);
  for (const order of unjudged)
    log(
      `Warning: ${named(order)} carries this stack's name and another stack identity, and ${where}: whether a ` +
        `pending create of this stack proves it this stack's is unknown, so it stays billed, not cancelled. ` +
        `${ADOPT_OR_CANCEL}.`,
    );
  const notJudged =
    unjudged.length === 0 ? [] : [`${where}, so ${unjudged.map(named).join(", ")} cannot be judged`];
  // This stack's mark, or another proven this stack's by a pending create of its own state carrying its nonce.
  const unheldOurs = marked.filter((o) => !another.includes(o) && !unjudged.includes(o));
  if (unheldOurs.length === 0) return { left: [], unread: notJudged };
  // The engine's own record first: a pending create of a state (a killed `up` with checkpoints on) carrying the
  // order's nonce says it was never in a state; the history tells the other ones from VPSs that left on purpose.
  const pendingOf = (order: AboutOrder) =>
    states.unread === undefined ? pendingCreateOf(states, order) : undefined;
  const needsHistory =
    states.unread === undefined && unheldOurs.some((order) => pendingOf(order) === undefined);
  const history = needsHistory ? await stackHistory(run, stack.scope) : undefined;
  const left: LeftOrder[] = [];
  // "Not in the plan" proves an order no provider's of this command only when every noting of one reached the plan
  // and the order is older than this run: a provider whose append failed left no nonce (shared-plan.ts).
  const planIncomplete = view.sharedPlan?.orderingIncomplete() ?? false;
  for (const order of unheldOurs) {
    const pending = pendingOf(order) !== undefined;
    const placed = order.billing_info?.order_date?.ms_since_epoch;
    const maybeThisCommand = planIncomplete || placed === undefined || placed >= run.startedAt;
    if (maybeThisCommand) {
      left.push({
        order,
        named: named(order),
        words: `${named(order)}: ordered after this command began, or its plan incomplete`,
        warning:
          `Warning: ${named(order)} carries this stack's identity and no state holds it, but it is not cancelled: ` +
          (planIncomplete
            ? "this run could not note its own orders in the command's shared plan"
            : "it was ordered after this command began (or its order date is not reported)") +
          `, so it may be a new order of another provider of this command. To stop its bill, ${HOW}.`,
      });
      continue;
    }
    const unread = pending ? undefined : (states.unread ?? history?.unread);
    if (unread !== undefined) {
      left.push({
        order,
        named: named(order),
        words: `${named(order)}: not judged, because ${unread}`,
        warning:
          `Warning: ${named(order)} carries this stack's identity and no state holds it: an order of a killed run ` +
          `of this stack, or a VPS that left it (retainOnDelete, \`pulumi state delete\`). It stays billed, not ` +
          `cancelled, because ${unread}. To stop its bill, ${HOW}.`,
      });
      continue;
    }
    if (!pending && history !== undefined && holderOf(history, order) !== undefined) {
      log(
        `${named(order)} stays billed: it carries this stack's identity and no state holds it, but an earlier ` +
          `operation of this stack recorded it (a VPS kept with retainOnDelete, or removed with ` +
          `\`pulumi state delete\`), so it is not cancelled. To stop its bill, cancel it in the control panel.`,
      );
      continue;
    }
    try {
      const cancelled = await client.deleteVps({ orderOid: order.order_oid, domainName: order.domain_name });
      view.noteGone(order.order_oid);
      log(
        `${named(order)}: cancelled. A killed run of this stack ordered it: ` +
          (pending
            ? "the engine's record of a create it never finished (a pending operation) carries its creation nonce" +
              (identityOf(order) === ownMark
                ? "."
                : ", though its stack identity is not this stack's (a lost tag race).")
            : "no state of this backend holds it, and no finished operation of this stack recorded it."),
      );
      log(
        deleteBillLine(
          String(order.order_oid),
          cancelled.cancel_messages ?? [],
          orderFields(order).monthlyFeeUsd,
        ),
      );
    } catch (error) {
      // Said only if it is still billed: one that ended meanwhile (its cancellation answered "gone") is not.
      left.push({
        order,
        named: named(order),
        words: `${named(order)}: its cancellation failed (${messageOf(error)})`,
        warning:
          `Warning: ${named(order)}, which a killed run of this stack left in no state, could not be cancelled ` +
          `(${messageOf(error)}); it stays billed. To stop its bill, ${HOW}.`,
      });
    }
  }
  return { left, unread: notJudged };
}
