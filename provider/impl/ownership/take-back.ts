/**
 * Taking back a killed run's order (docs/cost.md, I4): a new resource whose creation token an order already carries,
 * with another nonce than this state's, is that order's resource when the order carries this stack's identity
 * (stack-identity.ts: no same-named stack of another backend carries it) and no state of the backend holds the order
 * (backend-states.ts): the run that placed it was killed before its state recorded it (or the state that recorded it
 * is gone, `pulumi stack rm`). Then check() gives the resource that order's nonce, so create() finds it as its own
 * (vps-create.ts) instead of refusing it or ordering a second VPS; the rule after a new order is applied to it then,
 * as the killed run would have (ordering/take-back-judge.ts). An order a state holds is never taken: the foreign-order
 * refusal names that stack. When the states cannot be read, nothing is taken (the refusal says why).
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { holderOf } from "./backend-states.js";
import { backendStates, recordTakenBack } from "./backend-reader.js";
import { log } from "../engine/log.js";
import { runIdOf } from "./run-records.js";
import { stackOfScope } from "./stack-scope.js";
import { identityOf, stackIdentity, type StackIdentity } from "./stack-identity.js";

/** What to do with the orders of other states carrying a new resource's token. */
export type TakeBack = { order: AboutOrder } | { refused: { order: AboutOrder; why: string } };

/**
 * The orders check() decided to take back in this run, by order number (create() judges them: order-guard.ts,
 * take-back-judge.ts).
 */
const TAKEN = runState("orders taken back from a killed run", () => new Set<number>());

/** Whether `news` (a new resource's inputs) may be what `order` was ordered as: its name and data centre. */
function fits(order: AboutOrder, news: VpsInputs): boolean {
  if (order.domain_name !== news.domainName) return false;
  const dc = order.location?.data_center_location_code;
  return news.dcLocation === undefined || !dc || dc === news.dcLocation;
}

/**
 * The order of `others` (active orders carrying this new resource's token, placed by another state) to take back,
 * or the one that must be refused and why it is not taken back.
 */
export async function takeBackOf(
  context: RunContext,
  news: VpsInputs,
  others: readonly AboutOrder[],
): Promise<TakeBack> {
  const first = others[0]!;
  const fitting = others.filter((order) => fits(order, news));
  if (fitting.length === 0)
    return { refused: { order: first, why: `it is not what this resource orders (${first.domain_name})` } };
  // The token names many stacks (a `dev` in every backend): only this stack's identity proves the order its own.
  const scope = stackOfScope(news.creationScope);
  const identity: StackIdentity =
    scope === undefined ? { unread: "the resource names no stack" } : await stackIdentity(context, scope);
  if (!("mark" in identity) && !identity.none)
    return {
      refused: {
        order: fitting[0]!,
        why: `this stack's identity could not be read (${identity.unread}), so the order is not provably this stack's`,
      },
    };
  // A stack with none (no key material, or no tag yet) never marked an order: none is proven its own.
  const mark = "mark" in identity ? identity.mark : undefined;
  const proven = fitting.filter((order) => mark !== undefined && identityOf(order) === mark);
  if (proven.length === 0) {
    const order = fitting[0]!;
    return {
      refused: {
        order,
        why:
          identityOf(order) === undefined
            ? "it carries no stack identity (placed by a release before it, or by a run that could not read it), " +
              "so it is not provably this stack's"
            : "it carries another stack's identity: a stack of the same project and stack name in another backend " +
              "(or one removed with `pulumi stack rm`) placed it",
      },
    };
  }
  const states = await backendStates(context);
  const held = proven.map((order) => ({ order, stack: holderOf(states, order) }));
  const free = held.filter((h) => h.stack === undefined);
  const heldBy = held.find((h) => h.stack !== undefined);
  if (heldBy) return { refused: { order: heldBy.order, why: `the state of stack ${heldBy.stack} holds it` } };
  if (states.unread !== undefined)
    return {
      refused: { order: first, why: `the backend's states could not all be read (${states.unread})` },
    };
  if (free.length > 1)
    return {
      refused: {
        order: first,
        why: `${free.length} orders carry it (${free.map((f) => f.order.order_oid).join(", ")}) and none is in a state`,
      },
    };
  const order = free[0]!.order;
  context.get(TAKEN).add(order.order_oid);
  return { order };
}

/** True when check() took `oid` back in this run (create() then applies the rule after an order to it). */
export function isTakenBack(context: RunContext, oid: number): boolean {
  return context.get(TAKEN).has(oid);
}

/**
 * Records in the stack's backend that this run took back `order` (a killed run's, carrying that run's id: its record
 * says no state ever held it), so that once this run's state held it, an order that left the state on purpose later
 * (`retainOnDelete`, `pulumi state delete`) is judged by this run's record, not cancelled as the killed run's
 * (may-cancel.ts). When it cannot be written the take-back goes on (the order is the stack's VPS either way) and the
 * run says what that leaves open.
 */
export async function noteTakenBack(context: RunContext, news: VpsInputs, order: AboutOrder): Promise<void> {
  const scope = stackOfScope(news.creationScope);
  if (scope === undefined || runIdOf(order) === undefined) return;
  const recorded = await recordTakenBack(context, scope, order.order_oid);
  if ("why" in recorded)
    log(
      context,
      `Warning: ${news.domainName} took back order ${order.order_oid}, but this run could not record that in the ` +
        `stack's backend (${recorded.why}): should it leave the state (retainOnDelete, \`pulumi state delete\`), ` +
        "a `pulumi destroy` without checkpoints would cancel it as the killed run's.",
    );
}
