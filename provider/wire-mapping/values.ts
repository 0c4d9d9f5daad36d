/** Value conversions every wire-to-camelCase mapping uses (the Vps outputs and the data sources). */
import type { Amount, Timestamp } from "../../contract/index.js";

/** Removes undefined values: google.protobuf.Struct cannot carry them. */
export function compact<T extends object>(bag: T): T {
  return Object.fromEntries(Object.entries(bag).filter(([, value]) => value !== undefined)) as T;
}

/**
 * An amount's value in USD: its `amt_usd`, else its `amt` when its currency is USD. Undefined for an amount in
 * another currency only: that is no USD price (never $0).
 */
export function amountUsd(amount: Amount | null | undefined): number | undefined {
  if (!amount) return undefined;
  if (typeof amount.amt_usd === "number") return amount.amt_usd;
  return amount.currency === "CUR_USD" ? amount.amt : undefined;
}

/**
 * A monthly fee in USD (an order's billing, a pricing plan): `monthly_recurring_fee`, which the service gives in
 * USD, else the USD value of `monthly_recurring_amt`; undefined when the service gives neither. The one place USD
 * is derived from a fee.
 */
export function monthlyFeeUsd(
  price: { monthly_recurring_fee?: number | null; monthly_recurring_amt?: Amount | null } | null | undefined,
): number | undefined {
  return price?.monthly_recurring_fee ?? amountUsd(price?.monthly_recurring_amt);
}

/** A wire timestamp as ISO-8601. */
export function isoTime(timestamp: Timestamp | null | undefined): string | undefined {
  return timestamp?.iso_format ?? undefined;
}
