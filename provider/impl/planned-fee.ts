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
 * Both in a preview and in the update that follows it: the dynamic `Vps` checks again there (with the program's
 * inputs, no longer a preview's), and a policy pack judges that phase from this figure too, so the update asks the
 * quote again (each distinct request once per run).
 *
 * Absent when it cannot be known: an input unknown in a preview, a quote that failed, an order not found
 * (liveOrderOf says why), a price in a currency with no USD amount (never $0: values.ts has the USD rule). Check-time only, on purpose: it is not an input (a program never sets it; a
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
import { computeChanges, type VpsChanges } from "./vps-changes.js";
import type { VpsInputs } from "./vps-input-schema.js";
import { orderOutputs, type RecordedOutputs } from "./vps-outputs.js";
import { orderFields } from "../wire-mapping/order-fields.js";

/** The key of the checked inputs that carries the planned fee. */
export const PLANNED_FEE_KEY = "plannedMonthlyFeeUsd";
/**
 * The key of the checked inputs that carries what the VPS (or the order it adopts or replaces) is billed now,
 * before this run's change (`PlannedFee.nowUsd`), absent for a new VPS: with the planned fee, a policy pack tells
 * what each change adds, as the budget does (cost/verdict.ts), in a preview and in the update alike.
 */
export const CURRENT_FEE_KEY = "currentMonthlyFeeUsd";

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

/** The check the fee is planned for: its resource's inputs, and where to ask for a quote. */
export interface FeeCheck {
  readonly view: AccountView;
  readonly baseUrl: string;
  readonly isNew: boolean;
  /** Old inputs (empty for a new resource). */
  readonly before: VpsInputs;
  /** New inputs, as given (unknowns included). */
  readonly after: VpsInputs;
  readonly known: VpsInputs;
}

/**
 * What the look-ahead's checks found that the fee depends on, each returned by its check (vps-lookahead.ts,
 * host-checks.ts) and handed here explicitly, so the order the checks run in cannot change the fee.
 */
export interface FeeFindings {
  /** The existing resource's live order (the shared listing), when found. */
  live?: AboutOrder;
  /** Why it was not found (vps-lookahead.ts, liveOrderOf), said as the reason its fee is unknown. */
  missing?: string;
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

/** The priced inputs (and the host) still unknown in a preview. */
function unknownPriced(after: VpsInputs): string[] {
  return [...PRICED_INPUTS, "hostServerOid" as const].filter((name) => containsUnknown(after[name]));
}

const unknownWhy = (names: readonly string[]): string =>
  `${names.join(", ")} not known until the update runs`;

/** The planned fee of the VPS one check looked at (never fails: a fee that cannot be had says why). */
export async function plannedFeeOf(check: FeeCheck, found: FeeFindings): Promise<PlannedFee> {
  if (found.adopted) {
    const fee = orderFields(found.adopted.order).monthlyFeeUsd;
    return feeOfQuoted(found.adopted.quoted, fee);
  }
  if (check.isNew) return newFee(check, found);
  const live = found.live;
  if (!live) return { why: found.missing ?? "its order was not found" };
  const nowUsd = orderFields(live).monthlyFeeUsd;
  const outputs: RecordedOutputs = orderOutputs(live, check.before);
  const changes = plannedChanges(live, check.before, check.after);
  if (changes.replaces.length > 0) return { ...(await newFee(check, found)), nowUsd };
  if (changes.parameters.length > 0) {
    const unknown = unknownPriced(check.after);
    if (unknown.length > 0) return { nowUsd, why: unknownWhy(unknown) };
    // The request diff() asks for the resize's price line (money.ts), so a preview asks it once.
    const request = quoteRequest({ ...pricedOf(outputs), ...pricedOf(check.known) });
    return feeOfQuoted(await quoted(check, request), nowUsd);
  }
  if (changes.move && found.moveAnswer)
    return feeOfMoney(amountMoney(found.moveAnswer.monthly_recurring_amt), nowUsd);
  if (nowUsd === undefined) return { why: "RimuHosting does not report the order's fee" };
  return { usd: nowUsd, nowUsd };
}

/** The change planned for the live order: the new inputs against the old outputs as the order is now (as diff()). */
export function plannedChanges(live: AboutOrder, before: VpsInputs, after: VpsInputs): VpsChanges {
  return computeChanges(String(live.order_oid), orderOutputs(live, before), after);
}

/** A new VPS (or a replacement's): the order check's quote, or the same request asked here. */
async function newFee(check: FeeCheck, found: FeeFindings): Promise<PlannedFee> {
  const unknown = unknownPriced(check.after);
  if (unknown.length > 0) return { why: unknownWhy(unknown) };
  if (found.orderAnswer) return feeOfMoney(amountMoney(found.orderAnswer.monthly_recurring_amt));
  return feeOfQuoted(await quoted(check, quoteRequest(check.known, true)));
}

/** One quote (each distinct request once per run, AccountView.quote), as a price or why there is none. */
async function quoted(check: FeeCheck, request: ReturnType<typeof quoteRequest>): Promise<Quoted> {
  try {
    const price = amountMoney((await check.view.quote(request)).monthly_recurring_amt);
    return price ? { price } : { problem: "RimuHosting's answer carried no price" };
  } catch (error) {
    const failure = readFailure(error, check.baseUrl);
    if (failure.kind === "temporary") return { problem: `RimuHosting did not quote it (${failure.why})` };
    if (failure.kind === "refused") return { problem: "RimuHosting would not quote it" };
    return { problem: failure.error.detail };
  }
}
