/**
 * What `pulumi destroy` does with the orders a killed run of its stack left in no state (docs/troubleshooting.md, "A
 * run was killed"; docs/cost.md, I4): it cancels them, so that nothing of the stack stays billed, and names each.
 *
 * A killed run's order is in no state, so the engine never asks the provider to delete it, and destroy does not run
 * the program, whose check would take it back (take-back.ts). So every order the provider places carries its stack's
 * token (a hash of the project and stack, STACK_TOKEN_KEY), and the first delete of a run that checked no VPS (a
 * destroy, or an `up` whose program has none left) lists the account's active orders carrying it. Each is cancelled
 * when no state of the backend holds it, by the take-back's judge (backend-states.ts): an order a state holds (this
 * stack's VPSs, being deleted by their own deletes, or another stack's) is never touched. When the states cannot be
 * read, nothing is cancelled: each order is named with its fee and how to cancel or adopt it.
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

export { STACK_TOKEN_KEY };

/** `stack-<32 hex>` from a creationScope's project and stack (`<project>/<stack>/<name>`), or undefined. */
export function stackTokenOf(creationScope: unknown): string | undefined {
  if (typeof creationScope !== "string") return undefined;
  const [project, stack, ...name] = creationScope.split("/");
  if (!project || !stack || name.length === 0) return undefined;
  return `stack-${createHash("sha256").update(`${project}/${stack}`).digest("hex").slice(0, 32)}`;
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
  return (held.swept ??= sweep(run, view, client, token, deleted).catch((error: unknown) =>
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
  token: string,
  deleted: number | undefined,
): Promise<void> {
  const strays = (await view.activeOrders({ fresh: true })).filter(
    (order) =>
      order.order_oid !== deleted &&
      order.meta_data?.some((m) => m.key_name === STACK_TOKEN_KEY && m.value === token),
  );
  if (strays.length === 0) return;
  const states = await backendStates(run);
  for (const order of strays) {
    if (holderOf(states, order) !== undefined) continue;
    if (states.unread !== undefined) {
      log(
        `Warning: ${named(order)} carries this stack's token and may be an order of a killed run of this stack; ` +
          `it stays billed, not cancelled, because ${states.unread}. To stop its bill, ${HOW}.`,
      );
      continue;
    }
    try {
      const cancelled = await client.deleteVps({ orderOid: order.order_oid, domainName: order.domain_name });
      view.noteGone(order.order_oid);
      log(
        `${named(order)}: cancelled. A killed run of this stack ordered it, and no state of this backend holds it.`,
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
