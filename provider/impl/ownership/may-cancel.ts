/**
 * May this run cancel this order? The one answer, for `pulumi destroy`'s sweep and the killed-orders command alike
 * (stack-strays.ts), to an active order carrying this stack's token (its project and stack names), given what this
 * stack's backend records. Only a positive record kept in this stack's backend says yes; no state, no history and no
 * plan line holding an order proves nothing (a copied backend's orders are in none of the copy's states either). The
 * rule, in the order it is asked:
 *
 * 1. **Held**: a state of the backend holds the order's number (backend-states.ts): its own delete ends it, or it is
 *    another stack's. Never the sweep's.
 * 2. **The engine's record**: a pending create of this stack's state carries the order's creation nonce (a create the
 *    engine began and never finished, kept with checkpoints on): a killed run of this stack placed it, whatever its
 *    mark (a lost tag race: another-stacks.ts). Cancel.
 * 3. **The mark**: an order with no identity mark (of this release's form) is not provably this stack's; one of
 *    another mark may be a same-named stack's of another backend (another-stacks.ts); neither is cancelled. When this
 *    stack's identity cannot be read, the order cannot be judged.
 * 4. **The provider's record** (run-records.ts): the order carries the id of a run this stack's backend records. That
 *    run never finished and kept no checkpoints: its order was never in any state, a killed run's. Cancel. It finished
 *    (an operation of the stack ended after it): the order was in its state and left on purpose (`retainOnDelete`,
 *    `pulumi state delete`): named as such, kept. It never finished but kept checkpoints: the engine wrote the order
 *    into a checkpoint (it has no pending create of it), so it may have left on purpose: named, kept.
 * 5. **Nothing recorded**: an order of this stack's mark whose run no record of this backend names (a copy of the
 *    backend made before that run; a release before the records) is named, never cancelled.
 *
 * A judgement that needs a record that could not be read (the states, this stack's identity, the run records) is
 * `unread`: the order may be provably this stack's, and the caller fails rather than say none is left.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { holderOf, type BackendStates } from "./backend-states.js";
import { carriesAnotherMark, pendingOfThisStack } from "./another-stacks.js";
import { identityOf } from "./order-marks.js";
import { runFinished, runIdOf, type RunRecords } from "./run-records.js";
import type { StackIdentity } from "./stack-identity.js";

/** What this stack's backend records, as one run read it (`runs`: undefined when not read: not needed). */
export interface OwnershipRecords {
  scope: { project: string; stack: string };
  identity: StackIdentity;
  states: BackendStates;
  runs: RunRecords | undefined;
}

/** The answer, and the record it rests on. */
export type Judgement =
  | { answer: "held"; stack: string }
  | { answer: "cancel"; proof: "pending create" | "run record"; lostRace: boolean }
  | { answer: "left the state"; run: string }
  | { answer: "no identity" }
  | { answer: "another mark" }
  | { answer: "unproven"; why: string }
  | { answer: "unread"; why: string };

/** True when judging `order` needs the stack's run records: of this stack's mark, unheld, with no pending create. */
export function needsRunRecords(order: AboutOrder, records: Omit<OwnershipRecords, "runs">): boolean {
  const first = judgeBeforeRuns(order, records);
  return first === undefined;
}

/** Steps 1 to 3 of the rule; undefined when the order carries this stack's mark and only the run records can tell. */
function judgeBeforeRuns(order: AboutOrder, records: Omit<OwnershipRecords, "runs">): Judgement | undefined {
  const { states, identity, scope } = records;
  const mark = identityOf(order);
  // An order with no identity is never this run's to cancel but on a pending create: with the states unread, named.
  // One of another stack's mark is that stack's once this stack's own state was read (another-stacks.ts).
  if (states.unread !== undefined) {
    if (mark === undefined) return { answer: "no identity" };
    if (carriesAnotherMark(order, identity, states, scope)) return { answer: "another mark" };
    return { answer: "unread", why: `the backend's states could not be read (${states.unread})` };
  }
  const holder = holderOf(states, order);
  if (holder !== undefined) return { answer: "held", stack: holder };
  if (pendingOfThisStack(states, order, scope))
    return {
      answer: "cancel",
      proof: "pending create",
      lostRace: !("mark" in identity) || mark !== identity.mark,
    };
  if (mark === undefined) return { answer: "no identity" };
  if (!("mark" in identity) && identity.none !== true)
    return { answer: "unread", why: `this stack's identity could not be read (${identity.unread})` };
  if (carriesAnotherMark(order, identity, states, scope)) return { answer: "another mark" };
  return undefined;
}

/** May this run cancel `order`? (The rule above.) */
export function mayCancel(order: AboutOrder, records: OwnershipRecords): Judgement {
  return judge(order, records, { checkpointedRunProves: false });
}

/**
 * May this run take `order` back (take-back.ts: the order carries a new resource of this stack's creation token, with
 * another nonce)? The same rule, answered "cancel" when the order is provably a killed run's of this stack, with one
 * difference at step 4: a run that never finished and kept checkpoints proves it too. Taking back cancels nothing: it
 * puts the VPS in this stack's state, where that run's checkpoint would have put it, and a run whose state held the
 * order and let it go finished (`left the state`: refused). So an order of this stack's mark whose run this backend
 * does not record (its copy's run, made after the copy; or a release before the records) is never taken: the mark
 * alone is a copy's too.
 */
export function mayTakeBack(order: AboutOrder, records: OwnershipRecords): Judgement {
  return judge(order, records, { checkpointedRunProves: true });
}

function judge(
  order: AboutOrder,
  records: OwnershipRecords,
  { checkpointedRunProves }: { checkpointedRunProves: boolean },
): Judgement {
  const first = judgeBeforeRuns(order, records);
  if (first !== undefined) return first;
  const { runs } = records;
  if (runs === undefined || "unread" in runs)
    return {
      answer: "unread",
      why: `this stack's run records could not be read (${runs === undefined ? "not read" : runs.unread})`,
    };
  // An order a later run took back is judged by that run's record (run-records.ts, TOOK_TAG_PREFIX).
  const id = runs.took?.get(order.order_oid) ?? runIdOf(order);
  const run = id === undefined ? undefined : runs.runs.get(id);
  if (id === undefined || run === undefined)
    return {
      answer: "unproven",
      why:
        id === undefined
          ? "it carries no run record (placed by a release before them, or by a run that could not write one)"
          : `no record of this stack's backend names its run ${id} (a copy of this backend made before that run, ` +
            "or that run's own backend)",
    };
  if (runFinished(runs, run)) return { answer: "left the state", run: id };
  if (!run.checkpoints || checkpointedRunProves)
    return { answer: "cancel", proof: "run record", lostRace: false };
  return {
    answer: "unproven",
    why:
      `its run ${id} kept checkpoints and the engine has no pending create of it, so a state held it once ` +
      "(it may have left on purpose: retainOnDelete, `pulumi state delete`)",
  };
}
