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
 * Which change it is, is diff()'s answer (the program against the recorded inputs), so the budget never prices a
 * change the engine does not plan: a VPS resized outside Pulumi and not refreshed is unchanged, at its live fee.
 *
 * This file finds the change's kind and its quote; which fee counts for which kind is cost/fee.ts's rule
 * (feeAfterChange), the one the bill applies, so the provider and the bill cannot count a change differently.
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
import type { AboutOrder, GetNewVmPricingResponse } from "../../../contract/index.js";
import type { AccountView } from "../account/account-view.js";
import { feeAfterChange, type ChangeKind } from "../cost/fee.js";
import { cents, pricedInUsd, type Priced } from "../cost/money.js";
import type { VpsFee } from "../cost/verdict.js";
import { serviceText } from "../engine/errors.js";
import {
  amountMoney,
  formatMoney,
  pricedOf,
  PRICED_INPUTS,
  quoteRequest,
  type Money,
  type Quoted,
  type QuotedValues,
} from "./money.js";
import { readFailure } from "../account/read-failures.js";
import { containsUnknown } from "../inputs/unknowns.js";
import { changedInputNames, computeChanges, type VpsChanges } from "../inputs/vps-changes.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import { orderOutputs } from "../inputs/vps-outputs.js";
import { orderFields } from "../../wire-mapping/order-fields.js";

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
  /** The new inputs still unknown in a preview, as the check parsed them (vps-values.ts, parseInputs). */
  readonly unknown: ReadonlySet<string>;
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

/** A price as the cost model counts it (cost/money.ts): whole US cents, or why not (the message's "NZ$36.00"). */
const pricedOfMoney = (price: Money | undefined): Priced => pricedInUsd(price, price && formatMoney(price));

/** A quote as the cost model counts it: its price, or why there is none. */
const pricedOfQuoted = (quoted: Quoted): Priced =>
  "price" in quoted ? pricedOfMoney(quoted.price) : { why: quoted.problem };

/** The cost model's fee in the checked inputs' USD (whole cents), keeping the currency a budget must refuse. */
function plannedOfFee(fee: VpsFee, currency?: string): PlannedFee {
  const nowUsd = fee.nowCents === undefined ? undefined : fee.nowCents / 100;
  if ("cents" in fee.after) return { usd: fee.after.cents / 100, nowUsd };
  return { nowUsd, why: fee.after.why, ...(currency === undefined ? {} : { currency }) };
}

/** The price as a planned fee: its USD value, or why there is none (another currency, no price). */
export function feeOfMoney(price: Money | undefined, nowUsd?: number): PlannedFee {
  const fee: VpsFee = {
    name: "",
    ...(nowUsd === undefined ? {} : { nowCents: cents(nowUsd) }),
    after: pricedOfMoney(price),
  };
  return plannedOfFee(fee, price && price.currency !== "USD" ? price.currency : undefined);
}

/**
 * What this run does to one VPS, as plannedFeeOf() found it: which change, what its order is billed now, and
 * RimuHosting's quote for it after. Which of those counts is cost/fee.ts's rule (feeAfterChange), the one the bill
 * applies too, so the provider and the bill cannot count a change differently.
 */
interface PlannedChange {
  kind: ChangeKind;
  nowUsd?: number;
  quote?: Quoted;
  /** RimuHosting answered without a price (said as such, never $0). */
  noPrice?: boolean;
}

function plannedOf(change: PlannedChange): PlannedFee {
  const { kind, nowUsd, quote } = change;
  const priced: Priced | undefined = change.noPrice
    ? pricedOfMoney(undefined)
    : quote && pricedOfQuoted(quote);
  const fee = feeAfterChange({
    name: "",
    kind,
    ...(nowUsd === undefined ? {} : { nowCents: cents(nowUsd) }),
    ...(priced === undefined ? {} : { quote: priced }),
  });
  const currency =
    quote && "price" in quote && quote.price.currency !== "USD" ? quote.price.currency : undefined;
  return plannedOfFee(fee, currency);
}

/** The priced inputs (and the host) still unknown in a preview. */
function unknownPriced(check: FeeCheck): string[] {
  return [...PRICED_INPUTS, "hostServerOid" as const].filter((name) => check.unknown.has(name));
}

const unknownWhy = (names: readonly string[]): string =>
  `${names.join(", ")} not known until the update runs`;

/**
 * An existing VPS with no adoption or creation nonce in its state came in by `pulumi import`: billed the same as an
 * unchanged one (cost/fee.ts), named apart so the kind says what the run does.
 */
const importedOrUnchanged = (before: VpsInputs): ChangeKind =>
  before.__creationNonce === undefined && before.adoptOrderOid === undefined ? "imported" : "unchanged";

/** The planned fee of the VPS one check looked at (never fails: a fee that cannot be had says why). */
export async function plannedFeeOf(check: FeeCheck, found: FeeFindings): Promise<PlannedFee> {
  if (found.adopted) {
    const nowUsd = orderFields(found.adopted.order).monthlyFeeUsd;
    return plannedOf({ kind: "adopted", nowUsd, quote: found.adopted.quoted });
  }
  if (check.isNew) return plannedOf(await newChange(check, found, "new"));
  const live = found.live;
  // No order to price: which change it is cannot even be told (liveOrderOf says why).
  if (!live) return { why: found.missing ?? "its order was not found" };
  const nowUsd = orderFields(live).monthlyFeeUsd;
  // The budget's change is diff()'s (docs/cost.md): the program against the recorded inputs. A VPS changed outside
  // Pulumi whose program and state still agree is not changed by this run: billed its live fee, now and after.
  const planned = computeChanges(String(live.order_oid), check.before, check.after);
  if (!pricedChangePlanned(planned)) return plannedOf({ kind: importedOrUnchanged(check.before), nowUsd });
  // Which change it is, is diff()'s plan, never the live order's difference from the program: the engine replaces,
  // resizes or moves as diff() said, and update() leaves an input changed outside Pulumi as the order has it.
  if (planned.replaces.length > 0)
    return plannedOf({ ...(await newChange(check, found, "replacement")), nowUsd });
  if (planned.parameters.length > 0) {
    const unknown = unknownPriced(check);
    if (unknown.length > 0)
      return plannedOf({ kind: "resize", nowUsd, quote: { problem: unknownWhy(unknown) } });
    return plannedOf({ kind: "resize", nowUsd, quote: await priceOf(check, pricedAfterUpdate(live, check)) });
  }
  if (planned.move && found.moveAnswer) {
    const price = amountMoney(found.moveAnswer.monthly_recurring_amt);
    return plannedOf({ kind: "move", nowUsd, quote: price && { price }, noPrice: price === undefined });
  }
  // A move not quoted (its host unknown in a preview, or the order already on it) keeps the sizes and data centre
  // the price depends on.
  return plannedOf({ kind: importedOrUnchanged(check.before), nowUsd });
}

/**
 * The priced values of the order as update() leaves it (lifecycle/planned-update.ts, I6): the program's value of
 * each input diff() plans to change, the live order's of every other (one changed outside Pulumi and not planned
 * keeps its live value, and its fee). A resize's quote, and the sizes a move takes to its new host (host-checks.ts).
 */
export function pricedAfterUpdate(
  live: AboutOrder,
  check: Pick<FeeCheck, "before" | "after" | "known">,
): QuotedValues {
  const planned = computeChanges(String(live.order_oid), check.before, check.after);
  const names = new Set<string>(changedInputNames(planned, { settings: false, orderOnly: false }));
  const plannedKnown = Object.fromEntries(Object.entries(check.known).filter(([name]) => names.has(name)));
  return { ...pricedOf(orderOutputs(live, check.before)), ...pricedOf(plannedKnown as VpsInputs) };
}

/** Whether `changes` can change the fee: a replacement, a resize or a move. */
const pricedChangePlanned = (changes: VpsChanges): boolean =>
  changes.replaces.length > 0 || changes.parameters.length > 0 || changes.move;

/** The change planned for the live order: the new inputs against the old outputs as the order is now (as diff()). */
export function plannedChanges(live: AboutOrder, before: VpsInputs, after: VpsInputs): VpsChanges {
  return computeChanges(String(live.order_oid), orderOutputs(live, before), after);
}

/** A new VPS (or a replacement's): the order check's quote, or the same request asked here. */
async function newChange(
  check: FeeCheck,
  found: FeeFindings,
  kind: "new" | "replacement",
): Promise<PlannedChange> {
  const unknown = unknownPriced(check);
  if (unknown.length > 0) return { kind, quote: { problem: unknownWhy(unknown) } };
  if (found.orderAnswer) {
    const price = amountMoney(found.orderAnswer.monthly_recurring_amt);
    return { kind, quote: price && { price }, noPrice: price === undefined };
  }
  return { kind, quote: await priceOf(check, check.known, true) };
}

/**
 * The quoted monthly price of `inputs` (never fails: a price that cannot be had says why), each distinct request
 * once per run (AccountView.quote). The one quote helper of the look-ahead, the planned fee and the order guard, so
 * the same failure reads the same wherever it is said. `asOrder`: quote it as the order (quoteRequest).
 */
export async function priceOf(
  run: { readonly view: AccountView; readonly baseUrl: string },
  inputs: QuotedValues,
  asOrder = false,
): Promise<Quoted> {
  const unknown = PRICED_INPUTS.filter((name) => containsUnknown(inputs[name]));
  if (unknown.length > 0) return { problem: unknownWhy(unknown) };
  try {
    const price = amountMoney((await run.view.quote(quoteRequest(inputs, asOrder))).monthly_recurring_amt);
    return price ? { price } : { problem: "RimuHosting's answer carried no price" };
  } catch (error) {
    const failure = readFailure(error, run.baseUrl);
    if (failure.kind === "temporary") return { problem: `RimuHosting did not quote it (${failure.why})` };
    if (failure.kind === "refused")
      return { problem: `RimuHosting would not quote it: ${serviceText(failure.error)}` };
    return { problem: failure.error.detail };
  }
}
