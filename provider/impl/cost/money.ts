/**
 * Money as every judge of the budget counts it (docs/cost.md): whole cents of a currency, so that summed fees never
 * drift ($10.30 + $10.40 is $20.70, not over it), and a price in another currency is never taken for US dollars.
 *
 * Owns: the rounding of an amount to cents, the USD rule of a price, the "$12.50" of a message.
 * Pure: imports nothing (no I/O): the policy pack imports this folder too (policy-pack/cost is a link to it).
 */

/** An amount in a currency, as RimuHosting prices (impl/budget/money.ts's Money has this shape). */
export interface Amount {
  amount: number;
  currency: string;
}

/** A price as the budget counts it: whole US cents, or why it cannot be counted (never $0). */
export type Priced = { cents: number } | { why: string };

/** Whole cents of an amount (half a cent rounds away from zero, as Math.round does for fees ≥ 0). */
export const cents = (amount: number): number => Math.round(amount * 100);

/** "$12.50"; "-$3.00" below zero. */
export const dollars = (amountCents: number): string =>
  `${amountCents < 0 ? "-" : ""}$${(Math.abs(amountCents) / 100).toFixed(2)}`;

/**
 * A price in US cents, or why it has none: a price in another currency is not converted (RimuHosting gives no
 * rate), so a budget in US dollars cannot count it. `shown`: the price as a message writes it ("NZ$36.00").
 */
export function pricedInUsd(price: Amount | undefined, shown?: string): Priced {
  if (price === undefined) return { why: "RimuHosting's answer carried no price" };
  if (price.currency === "USD" && Number.isFinite(price.amount)) return { cents: cents(price.amount) };
  return { why: notInUsd(shown ?? `${price.amount.toFixed(2)} ${price.currency}`) };
}

/** Why a price written `shown` ("NZ$36.00") is not counted: the one wording, the provider's and the bill's. */
export const notInUsd = (shown: string): string =>
  `RimuHosting priced it as ${shown} with no USD amount, and fees are counted in USD`;
