/**
 * Taking back a killed run's order (docs/cost.md, I4): a new resource whose creation token an order already carries,
 * with another nonce than this state's, is that order's resource when this stack's backend records the order as a
 * killed run's of this stack (may-cancel.ts, mayTakeBack): a pending create of this stack's state carries its nonce,
 * or it carries this stack's identity and the id of a run this backend records, which never finished. The mark alone
 * proves nothing (a copy of the backend carries this stack's identity too, and its runs are not this backend's), nor
 * does no state holding the order. Then check() gives the resource that order's nonce, so create() finds it as its
 * own (vps-create.ts) instead of refusing it or ordering a second VPS; the rule after a new order is applied to it
 * then, as the killed run would have (ordering/take-back-judge.ts). Any other order is refused, and the refusal says
 * why (a state that holds it, a run that finished and let it go, a record that could not be read) and how to adopt
 * it when it is the user's to adopt.
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { backendStates, recordTakenBack, stackRunRecords } from "./backend-reader.js";
import { mayTakeBack, needsRunRecords, type Judgement } from "./may-cancel.js";
import { log } from "../engine/log.js";
import { runIdOf } from "./run-records.js";
import { stackOfScope } from "./stack-scope.js";
import { stackIdentity, type StackIdentity } from "./stack-identity.js";

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
  const judged = await judgedForTakeBack(context, news, fitting);
  if ("why" in judged) return { refused: { order: fitting[0]!, why: judged.why } };
  const proven = judged.filter((j) => j.judgement.answer === "cancel");
  if (proven.length > 1)
    return {
      refused: {
        order: proven[0]!.order,
        why: `${proven.length} orders carry it (${proven.map((p) => p.order.order_oid).join(", ")}) and none is in a state`,
      },
    };
  if (proven.length === 0) return { refused: { order: judged[0]!.order, why: whyNot(judged[0]!.judgement) } };
  const order = proven[0]!.order;
  context.get(TAKEN).add(order.order_oid);
  return { order };
}

/**
 * Each of `orders` (carrying `news`'s creation token) judged by mayTakeBack on the records of this stack's backend.
 * The token names many stacks (a `dev` in every backend), and a copy of this backend carries this stack's identity
 * too: only a record of this backend proves an order its own, never that no state holds it.
 */
async function judgedForTakeBack(
  context: RunContext,
  news: VpsInputs,
  orders: readonly AboutOrder[],
): Promise<{ order: AboutOrder; judgement: Judgement }[] | { why: string }> {
  const scope = stackOfScope(news.creationScope);
  if (scope === undefined) return { why: "the resource names no stack" };
  const identity: StackIdentity = await stackIdentity(context, scope);
  const states = await backendStates(context);
  const before = { scope, identity, states };
  const runs = orders.some((order) => needsRunRecords(order, before))
    ? await stackRunRecords(context, scope)
    : undefined;
  return orders.map((order) => ({ order, judgement: mayTakeBack(order, { ...before, runs }) }));
}

/**
 * Why `order`, found carrying `news`'s creation token and this state's nonce by a create that did not place it in this
 * run (vps-create.ts: its run id is another run's), is not this stack's to take, or undefined when this stack's backend
 * records it as a killed run's of this stack (or check() took it back). The nonce names the resource, not the order: a
 * replacement's order carries the nonce of the VPS it replaces, and a copy of the backend carries that nonce too, so
 * the copy's replacement would otherwise find the original's as its own.
 */
export async function notProvablyOurs(
  context: RunContext,
  news: VpsInputs,
  order: AboutOrder,
): Promise<string | undefined> {
  if (isTakenBack(context, order.order_oid)) return undefined;
  const judged = await judgedForTakeBack(context, news, [order]);
  if ("why" in judged) return judged.why;
  const { judgement } = judged[0]!;
  return judgement.answer === "cancel" ? undefined : whyNot(judgement);
}

/** Why an order judged so is not taken back (said after "It is not taken back"). */
function whyNot(judgement: Judgement): string {
  switch (judgement.answer) {
    case "held":
      return `the state of stack ${judgement.stack} holds it`;
    case "no identity":
      return (
        "it carries no stack identity (placed by a release before it, or by a run that could not read it), " +
        "so it is not provably this stack's"
      );
    case "another mark":
      return (
        "it carries another stack's identity: a stack of the same project and stack name in another backend " +
        "(or one removed with `pulumi stack rm`) placed it"
      );
    case "left the state":
      return (
        `its run ${judgement.run} finished, so this stack's state held it and let it go on purpose ` +
        "(retainOnDelete, `pulumi state delete`)"
      );
    case "unproven":
    case "unread":
      return `it is not provably this stack's: ${judgement.why}`;
    case "cancel":
      return "it is this stack's";
  }
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
