/**
 * The fee a VPS will be billed once this run's change to it is applied, known in a preview: check() returns it in
 * the checked inputs as `plannedMonthlyFeeUsd` (the contract policy packs, the bill and the budget read), for both
 * front ends.
 *
 * - a new VPS: RimuHosting's quote for the order (the same request the preview's order check asks, so no extra call);
 * - an adopted order: the quote for it once changed to match the program (the adoption line's quote);
 * - a replacement: the quote for the new VPS (the request of the replacement's own check, asked once);
 * - a resize: the quote for the new sizes (the request diff() asks for the resize's price line, asked once);
 * - a move: the quote naming the new host (the move's own check);
 * - no priced change: what the order is billed now (the account's listing, read by every check anyway).
 *
 * Absent when it cannot be known: an input unknown in a preview, a quote that failed or was not asked (the dynamic
 * `Vps` quotes only in a preview), an order not in the listing, a price in a currency with no USD amount (never
 * $0: values.ts has the USD rule). Check-time only, on purpose: it is not an input (a program never sets it; a
 * program that does is refused) nor an output (after the change the fee billed is `monthlyFeeUsd`, one source of
 * truth), so it is in no schema or SDK, and diff() never compares it (it compares the field table's inputs only).
 */
import type { AboutOrder, GetNewVmPricingResponse } from "../../contract/index.js";
import type { AccountView } from "./account-view.js";
import {
  amountMoney,
  formatMoney,
  pricedOf,
  PRICED_INPUTS,
  quoteRequest,
  type Money,
  type Quoted,
} from "./money.js";
import { readFailure } from "./read-failures.js";
import { containsUnknown } from "./unknowns.js";
import { computeChanges } from "./vps-changes.js";
import type { VpsInputs } from "./vps-input-schema.js";
import { orderOutputs, type RecordedOutputs } from "./vps-outputs.js";
import { orderFields } from "../wire-mapping/order-fields.js";

/** The key of the checked inputs that carries the planned fee. */
export const PLANNED_FEE_KEY = "plannedMonthlyFeeUsd";

/** What a VPS costs a month before and after this run's change to it, in USD. */
export interface PlannedFee {
  /** After the change; undefined when it cannot be known (`why` says why). */
  usd?: number;
  /** Billed now: an existing or adopted order's fee; undefined for a new VPS (or an order not found). */
  nowUsd?: number;
  /** Why `usd` is unknown: "memoryMb not known until the update runs". */
  why?: string;
  /** Set when the price came in this currency with no USD amount: a budget must refuse it, never count $0. */
  currency?: string;
}

/** What one check found that the fee depends on (vps-lookahead.ts fills it in as it goes). */
export interface FeeSources {
  view: AccountView;
  baseUrl: string;
  preview: boolean;
  isNew: boolean;
  /** Old inputs (empty for a new resource). */
  before: VpsInputs;
  /** New inputs, as given (unknowns included). */
  after: VpsInputs;
  known: VpsInputs;
  /** The existing resource's live order (the shared listing), when found. */
  live?: AboutOrder;
  /** The order being adopted, and its quote once changed to match the program (preview). */
  adopted?: { order: AboutOrder; quoted: Quoted };
  /** The preview's order check of a new VPS: RimuHosting's answer. */
  orderAnswer?: GetNewVmPricingResponse;
  /** A move's check: RimuHosting's answer for the VPS on its new host. */
  moveAnswer?: GetNewVmPricingResponse;
}

/** The price as a planned fee: its USD value, or why there is none (another currency, no price). */
export function feeOfMoney(price: Money | undefined, nowUsd?: number): PlannedFee {
  if (price === undefined) return { nowUsd, why: "RimuHosting's answer carried no price" };
  if (price.currency === "USD") return { usd: price.amount, nowUsd };
  return {
    nowUsd,
    currency: price.currency,
    why: `RimuHosting priced it as ${formatMoney(price)} with no USD amount, and fees are counted in USD`,
  };
}

const feeOfQuoted = (quoted: Quoted, nowUsd?: number): PlannedFee =>
  "price" in quoted ? feeOfMoney(quoted.price, nowUsd) : { nowUsd, why: quoted.problem };

const NOT_QUOTED = "prices are quoted only in a preview";

/** The priced inputs (and the host) still unknown in a preview. */
function unknownPriced(after: VpsInputs): string[] {
  return [...PRICED_INPUTS, "hostServerOid" as const].filter((name) => containsUnknown(after[name]));
}

const unknownWhy = (names: readonly string[]): string =>
  `${names.join(", ")} not known until the update runs`;

/** The planned fee of the VPS one check looked at (never fails: a fee that cannot be had says why). */
export async function plannedFeeOf(sources: FeeSources): Promise<PlannedFee> {
  if (sources.adopted) {
    const fee = orderFields(sources.adopted.order).monthlyFeeUsd;
    return feeOfQuoted(sources.adopted.quoted, fee);
  }
  if (sources.isNew) return newFee(sources);
  const live = sources.live;
  if (!live) return { why: "its order is not in the account's listing of active orders" };
  const nowUsd = orderFields(live).monthlyFeeUsd;
  // The old outputs as the order is now: what diff() compares the new inputs with.
  const outputs: RecordedOutputs = orderOutputs(live, sources.before);
  const changes = computeChanges(String(live.order_oid), outputs, sources.after);
  if (changes.replaces.length > 0) return { ...(await newFee(sources)), nowUsd };
  if (changes.parameters.length > 0) {
    if (!sources.preview) return { nowUsd, why: NOT_QUOTED };
    const unknown = unknownPriced(sources.after);
    if (unknown.length > 0) return { nowUsd, why: unknownWhy(unknown) };
    // The request diff() asks for the resize's price line (money.ts), so a preview asks it once.
    const request = quoteRequest({ ...pricedOf(outputs), ...pricedOf(sources.known) });
    return feeOfQuoted(await quoted(sources, request), nowUsd);
  }
  if (changes.move && sources.moveAnswer)
    return feeOfMoney(amountMoney(sources.moveAnswer.monthly_recurring_amt), nowUsd);
  if (nowUsd === undefined) return { why: "RimuHosting does not report the order's fee" };
  return { usd: nowUsd, nowUsd };
}

/** A new VPS (or a replacement's): the order check's quote, or the same request asked here. */
async function newFee(sources: FeeSources): Promise<PlannedFee> {
  const unknown = unknownPriced(sources.after);
  if (unknown.length > 0) return { why: unknownWhy(unknown) };
  if (!sources.preview) return { why: NOT_QUOTED };
  if (sources.orderAnswer) return feeOfMoney(amountMoney(sources.orderAnswer.monthly_recurring_amt));
  return feeOfQuoted(await quoted(sources, quoteRequest(sources.known, true)));
}

/** One quote (each distinct request once per run, AccountView.quote), as a price or why there is none. */
async function quoted(sources: FeeSources, request: ReturnType<typeof quoteRequest>): Promise<Quoted> {
  try {
    const price = amountMoney((await sources.view.quote(request)).monthly_recurring_amt);
    return price ? { price } : { problem: "RimuHosting's answer carried no price" };
  } catch (error) {
    const failure = readFailure(error, sources.baseUrl);
    if (failure.kind === "temporary") return { problem: `RimuHosting did not quote it (${failure.why})` };
    if (failure.kind === "refused") return { problem: "RimuHosting would not quote it" };
    return { problem: failure.error.detail };
  }
}
