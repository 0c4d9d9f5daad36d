/**
 * What a check says of an order it takes back from a killed run (ownership/take-back.ts): the order and its fee, and,
 * when the account's active orders are over the monthly budget with it, a warning with the figures (docs/cost.md, I4).
 * The fee is counted as billed now and after (the order is on the account already), never as a new order's.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { accountCentsOf } from "../budget/budget.js";
import { cents, dollars } from "../cost/money.js";
import { info, warning, type Note } from "../engine/notes.js";
import { settingName } from "../engine/settings-source.js";
import { orderFields } from "../../wire-mapping/order-fields.js";

export function takenBackNotes(
  name: string,
  order: AboutOrder,
  orders: readonly AboutOrder[],
  /** The run's monthly budget (undefined: none). */
  budget: number | undefined,
): Note[] {
  const fee = orderFields(order).monthlyFeeUsd;
  const feeWords = fee === undefined ? "its fee not reported" : `${dollars(cents(fee))} a month`;
  const notes: Note[] = [
    info(
      `${name}: takes back order ${order.order_oid} (${order.domain_name}, ${feeWords}), which carries this ` +
        `resource's creation token and which no state of this backend holds: a run of this stack ordered it and ` +
        `was killed before its state recorded it. Nothing new is ordered for ${name}.`,
    ),
  ];
  const billed = accountCentsOf(orders);
  if (budget !== undefined && billed.cents > cents(budget))
    notes.push(
      warning(
        `${name}: the account is over its monthly budget: its ${orders.length} active orders are billed ` +
          `${dollars(billed.cents)} a month against ${dollars(cents(budget))} (${settingName("monthlyBudgetUsd")}), ` +
          `counting order ${order.order_oid} that a killed run of this stack left. \`pulumi up\` cancels it if the ` +
          `account's orders up to it (by order number) are over the budget, as the killed run would have.`,
      ),
    );
  return notes;
}
