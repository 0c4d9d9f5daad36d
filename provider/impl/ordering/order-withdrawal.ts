/**
 * After a new order, the account read again (docs/cost.md, "Several runs at once"): other runs on the account
 * (other stacks, other providers, a person) may have ordered at the same moment, each judged on a listing without
 * the others. Every run applies one rule, so they agree on which order goes: the orders up to and including this
 * one by order number (RimuHosting numbers orders as it takes them), with this run's plan, are judged against
 * monthlyBudgetUsd; over it, this order is cancelled at once and the create fails, so no state holds it. An
 * earlier order is judged by its own run, a later one counts this one. In `warn` mode it is a warning, and kept.
 *
 * Owns: the rule and its words. The run's totals and what it did are order-guard.ts's, handed in.
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { AccountView } from "../account/account-view.js";
import type { RunContext } from "../engine/run-context.js";
import { cents, dollars } from "../cost/money.js";
import { limitsPassed, type BudgetTotals } from "../cost/verdict.js";
import { emitNotes, warning } from "../engine/notes.js";
import { settingName } from "../engine/settings-source.js";

export interface Placed {
  /** The run that placed it: its budget's settings, where its lines go. */
  context: RunContext;
  view: AccountView;
  /** The resource's name in the program, for messages. */
  name: string;
  /** The order just placed. */
  order: AboutOrder;
  /** The run's totals (its plan, applied or not) over these orders of the account. */
  totalsOf: (orders: readonly AboutOrder[]) => BudgetTotals;
  /** Cancels the order (the client's DELETE). */
  withdraw: (placed: AboutOrder) => Promise<unknown>;
  /** What the order adds to the monthly fee, in cents (a replacement: its quote less the order it replaces). */
  addsCents?: number;
}

/**
 * Withdraws `placed.order` when the rule says so: returns what was done, in words, for the refusal ("web-1: ordered
 * it as order N, then …; order N was cancelled at once …"); undefined when it is kept (within the budget, `warn`
 * mode, or a cancellation that failed, each said as a warning where it matters).
 */
export async function withdrawIfOver(placed: Placed): Promise<string | undefined> {
  const { settings } = placed.context.settings.budget;
  if (settings.monthlyBudgetUsd === undefined) return undefined;
  // An order that adds nothing (a replacement at its order's price or less) is never withdrawn, as no change that
  // adds nothing is refused (cost/verdict.ts): it cannot take the account past a budget, even one already past it.
  if (placed.addsCents === 0) return undefined;
  const { view, name, order } = placed;
  const listing = await view.activeOrders({ fresh: true });
  const upTo = listing.filter((o) => o.order_oid <= order.order_oid);
  const totals = placed.totalsOf(upTo);
  if (!limitsPassed(settings, totals).includes("monthlyBudgetUsd")) return undefined;
  const reason =
    // Every order numbered before it counts, whenever it was placed (this stack's own, long before, included): the
    // words say so, and claim no "meanwhile" for them.
    `ordered it as order ${order.order_oid}, then found the account's orders placed up to it (it and the ` +
    `${upTo.length - 1} placed before it, by any run or by hand) take the monthly fees to ${dollars(totals.afterCents)} ` +
    `with this run's changes, over the monthly budget of ${dollars(cents(settings.monthlyBudgetUsd))} ` +
    `(${settingName("monthlyBudgetUsd")})`;
  if (settings.enforcement === "warn") {
    await emitNotes(
      placed.context,
      [warning(`${name}: ${reason} (${settingName("budgetEnforcement")}: warn); it is kept.`)],
      undefined,
    );
    return undefined;
  }
  try {
    await placed.withdraw(order);
  } catch (error) {
    // Its answer lost after the cancellation was made (the money model's case): the account says it is gone, so no
    // state may hold it (I4).
    if (!(await stillActive(view, order.order_oid))) {
      view.noteGone(order.order_oid);
      return `${name}: ${reason}; order ${order.order_oid} was cancelled at once (RimuHosting credits what it billed)`;
    }
    // Not cancelled: the order stays this stack's (the create succeeds, the state records it), said as a warning.
    await emitNotes(
      placed.context,
      [
        warning(
          `${name}: ${reason}, and withdrawing it failed (${error instanceof Error ? error.message : String(error)}); ` +
            `it is kept in the stack. Remove it from the program and run \`pulumi up\`, or raise the limit.`,
        ),
      ],
      undefined,
    );
    return undefined;
  }
  view.noteGone(order.order_oid);
  return `${name}: ${reason}; order ${order.order_oid} was cancelled at once (RimuHosting credits what it billed)`;
}

/** Whether order `oid` is still active, read fresh; true when the account cannot be read (kept, as a warning says). */
async function stillActive(view: AccountView, oid: number): Promise<boolean> {
  try {
    return (await view.activeOrders({ fresh: true })).some((o) => o.order_oid === oid);
  } catch {
    return true;
  }
}
