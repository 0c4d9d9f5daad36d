/**
 * GET /__emulator/accounts: each demo account with what it is billed a month. The orders counted are the ones R13
 * bills (the active ones: not removed, not past a cancellation date), so the total is what R13's listing adds up to.
 */
import { DEMO_ACCOUNTS } from "../accounts.js";
import type { EmulatorContext } from "./context.js";
import { isActive, settleExpiredCancellation } from "./lifecycle.js";

export interface AccountTotal {
  /** The account's name (`demo`, `alice`, `bob`); never its API key. */
  name: string;
  holder: string;
  /** Orders billed now. */
  activeOrders: number;
  /** The monthly fees of those orders, in USD, to the cent. */
  monthlyTotalUsd: number;
}

export function accountTotals(ctx: EmulatorContext): AccountTotal[] {
  const now = ctx.clock.now();
  return DEMO_ACCOUNTS.map((account) => {
    let cents = 0;
    let activeOrders = 0;
    for (const order of ctx.store.state.orders) {
      if (order.account !== account.name) continue;
      if (settleExpiredCancellation(order, now)) ctx.store.changed(order);
      if (!isActive(order, now)) continue;
      activeOrders++;
      cents += Math.round(order.monthlyFeeUsd * 100);
    }
    return { name: account.name, holder: account.holder, activeOrders, monthlyTotalUsd: cents / 100 };
  });
}
