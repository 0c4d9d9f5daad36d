/**
 * The rule after a new order (order-withdrawal.ts), applied to an order taken back from a killed run
 * (ownership/take-back.ts): the killed run never read the account back, so the run that takes the order back does
 * what it would have done. Each stack applies the one rule to its own order, so stacks whose runs were killed at the
 * same moment agree on which order goes: the account ends within its budget (docs/cost.md, I3 and I4).
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { AccountView } from "../account/account-view.js";
import { VPS_ERROR_CODES, VpsError } from "../engine/errors.js";
import type { RunContext } from "../engine/run-context.js";
import { guardOf, runTotals } from "./guard-run.js";
import { withdrawIfOver } from "./order-withdrawal.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import { noteTakenBack } from "../ownership/take-back.js";

/**
 * `order`, which check() took back in this run (order-guard.ts's guardedOrder decides that this rule judges it, and
 * calls nothing else on it): keeps it (returns, once the take-back is noted in the stack's backend: noteTakenBack), or
 * cancels it and throws the refusal, as the rule says. `news`: the resource that took it back.
 */
export async function judgeTakenBack(
  context: RunContext,
  view: AccountView,
  name: string,
  order: AboutOrder,
  withdraw: (placed: AboutOrder) => Promise<unknown>,
  news: VpsInputs,
): Promise<void> {
  const run = guardOf(context);
  const withdrawn = await withdrawIfOver({
    context,
    view,
    name,
    order,
    totalsOf: (orders) => runTotals(run, view, orders).totals,
    withdraw,
  });
  if (withdrawn === undefined) return noteTakenBack(context, news, order);
  throw new VpsError(
    VPS_ERROR_CODES.budget,
    `${withdrawn.replace(`${name}: ordered it`, `${name}: a killed run of this stack ordered it`)}, and ${name} is ` +
      `not in the stack. Run \`pulumi up\` again once the account has room, or raise the limit.`,
  );
}
