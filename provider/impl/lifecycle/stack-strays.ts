/**
 * What `pulumi destroy` does with the orders a killed run of its stack left in no state (docs/troubleshooting.md, "A
 * run was killed"; docs/cost.md, I4): it cancels those that provably were never in any state of the stack, and names
 * every other one that stays billed.
 *
 * A killed run's order is in no state, so the engine never asks the provider to delete it, and destroy does not run
 * the program, whose check would take it back (take-back.ts). So every order the provider places carries its stack's
 * token (a hash of the project and stack, STACK_TOKEN_KEY), and the first delete of a run that checked no VPS (a
 * destroy, or an `up` whose program has none left) lists the account's active orders carrying it. An order a state
 * of the backend holds (backend-states.ts: this stack's VPSs, being deleted by their own deletes, or another stack's)
 * is never touched. The rest carry the same token whether a killed run ordered them or they left the stack on
 * purpose: a VPS with `retainOnDelete` (the engine drops it from the state during the same destroy, without asking
 * the provider) or one removed with `pulumi state delete`. Those were recorded by an earlier operation of the stack
 * and a killed run's order never was (stack-history.ts reads every finished operation's copy of the state). So an
 * order is cancelled only when the stack's history was read and holds it nowhere; one it holds is named as kept; and
 * when the states or the history cannot be read, each is named with its fee and how to cancel or adopt it.
 *
 * A run that checked a VPS sweeps nothing: its program's check takes its stack's killed orders back, and a delete of
 * that run (a replacement's, a VPS left out of the program) must not cancel one that a later check would take.
 * Orders placed before the stack token existed carry none and are not found; `pulumi up` takes them back.
 */
import { createHash } from "node:crypto";
import type { AboutOrder } from "../../../contract/index.js";
import type { RimuClient } from "../../client/index.js";
import { STACK_TOKEN_KEY } from "../../client/metadata-keys.js";
import type { AccountView } from "../account/account-view.js";
import { deleteBillLine } from "../budget/money.js";
import { dollars, cents } from "../cost/money.js";
import { log } from "../engine/log.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import { backendStates, holderOf } from "./backend-states.js";
import { stackHistory, stackOfScope } from "./stack-history.js";

export { STACK_TOKEN_KEY };

/** `stack-<32 hex>` from a creationScope's project and stack (`<project>/<stack>/<name>`), or undefined. */
export function stackTokenOf(creationScope: unknown): string | undefined {
  const scope = stackOfScope(creationScope);
  if (scope === undefined) return undefined;
  const hash = createHash("sha256").update(`${scope.project}/${scope.stack}`).digest("hex");
  return `stack-${hash.slice(0, 32)}`;
}

/** The meta_data entry of a new order for `creationScope`, if it names a stack. */
export function stackTokenEntry(creationScope: unknown): { key_name: string; value: string }[] {
  const token = stackTokenOf(creationScope);
  return token === undefined ? [] : [{ key_name: STACK_TOKEN_KEY, value: token }];
}

const SWEEP = runState("the stack's orders in no state, swept once by a destroy", () => ({
  checked: false,
  swept: undefined as Promise<void> | undefined,
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

/**
 * After the delete of a VPS recorded with `creationScope` (order `deleted`): once per run, and only in a run that
 * checked no VPS, cancels the active orders carrying the same stack's token that no state of the backend holds,
 * naming each. Never throws: a failure is named, with the orders it leaves.
 */
export function sweepStackStrays(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  creationScope: unknown,
  deleted: number | undefined,
): Promise<void> {
  const held = run.get(SWEEP);
  const token = stackTokenOf(creationScope);
  if (held.checked || token === undefined) return Promise.resolve();
  const scope = stackOfScope(creationScope)!;
  return (held.swept ??= sweep(run, view, client, { token, scope }, deleted).catch((error: unknown) =>
    log(
      `Warning: could not look for orders of this stack that a killed run left in no state ` +
        `(${error instanceof Error ? error.message : String(error)}); \`pulumi preview\` names them.`,
    ),
  ));
}

async function sweep(
  run: RunContext,
  view: AccountView,
  client: RimuClient,
  stack: { token: string; scope: { project: string; stack: string } },
  deleted: number | undefined,
): Promise<void> {
  const strays = (await view.activeOrders({ fresh: true })).filter(
    (order) =>
      order.order_oid !== deleted &&
      order.meta_data?.some((m) => m.key_name === STACK_TOKEN_KEY && m.value === stack.token),
  );
  if (strays.length === 0) return;
  const states = await backendStates(run);
  const unheld = strays.filter((order) => holderOf(states, order) === undefined);
  if (unheld.length === 0) return;
  const history = states.unread === undefined ? await stackHistory(run, stack.scope) : undefined;
  for (const order of unheld) {
    const unread = states.unread ?? history?.unread;
    if (unread !== undefined) {
      log(
        `Warning: ${named(order)} carries this stack's token and no state holds it: an order of a killed run of ` +
          `this stack, or a VPS that left it (retainOnDelete, \`pulumi state delete\`). It stays billed, not ` +
          `cancelled, because ${unread}. To stop its bill, ${HOW}.`,
      );
      continue;
    }
    if (history !== undefined && holderOf(history, order) !== undefined) {
      log(
        `${named(order)} stays billed: it carries this stack's token and no state holds it, but an earlier ` +
          `operation of this stack recorded it (a VPS kept with retainOnDelete, or removed with ` +
          `\`pulumi state delete\`), so it is not cancelled. To stop its bill, cancel it in the control panel.`,
      );
      continue;
    }
    try {
      const cancelled = await client.deleteVps({ orderOid: order.order_oid, domainName: order.domain_name });
      view.noteGone(order.order_oid);
      log(
        `${named(order)}: cancelled. A killed run of this stack ordered it: no state of this backend holds it, ` +
          `and no finished operation of this stack recorded it.`,
      );
      log(
        deleteBillLine(
          String(order.order_oid),
          cancelled.cancel_messages ?? [],
          orderFields(order).monthlyFeeUsd,
        ),
      );
    } catch (error) {
      log(
        `Warning: ${named(order)}, which a killed run of this stack left in no state, could not be cancelled ` +
          `(${error instanceof Error ? error.message : String(error)}); it stays billed. To stop its bill, ${HOW}.`,
      );
    }
  }
}
