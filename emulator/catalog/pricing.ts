/**
 * How the emulator prices a server. The real formula is not public; this one is linear in memory and
 * disk with a per-data-centre factor, so a quote (R16), a plan's listed price (R15) and an order's
 * monthly fee all agree with each other. Dallas is the reference location.
 */
import type { Amount, Currency } from "../../contract/index.js";
import type { DataCenter } from "./data-centers.js";

const PRICE_BASE_USD = 2;
const PRICE_PER_GB_MEMORY_USD = 6;
const PRICE_PER_GB_DISK_USD = 0.1;

export interface Sizes {
  memoryMb: number;
  diskMb: number;
  disk2Mb?: number;
  disk3Mb?: number;
}

/** Rounds money to cents without binary-float noise in the output. */
export function roundMoney(value: number): number {
  return Math.round(value * 100) / 100;
}

export function vpsMonthlyFeeUsd(sizes: Sizes, dc: DataCenter): number {
  const diskGb = (sizes.diskMb + (sizes.disk2Mb ?? 0) + (sizes.disk3Mb ?? 0)) / 1024;
  const raw =
    PRICE_BASE_USD + (sizes.memoryMb / 1024) * PRICE_PER_GB_MEMORY_USD + diskGb * PRICE_PER_GB_DISK_USD;
  return roundMoney(raw * dc.priceFactor);
}

export function usdAmount(usd: number): Amount {
  return { amt: usd, amt_usd: usd, currency: "CUR_USD" };
}

/**
 * A plan's price as R15 and R16 give it: in USD, or, for a plan priced in another currency only (the
 * planCurrencies option), the same figure in that currency with no USD value.
 */
export function planAmount(fee: number, currency: Currency | undefined): Amount {
  return currency ? { amt: fee, currency } : usdAmount(fee);
}

/** "12.00": money as the recorded messages print it. */
export function formatUsd(usd: number): string {
  return usd.toFixed(2);
}
