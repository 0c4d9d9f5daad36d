/**
 * What the bill does: quoted prices shown in a preview, and the fee, price change and credit the service
 * reports after a create, resize, move or delete. Lines only: nothing here fails an operation (a price that
 * cannot be had is said in one line, and the preview carries on).
 *
 * Money is shown in its own currency: `$9.57` for USD (the fees RimuHosting bills and reports, e.g.
 * monthlyFeeUsd), `NZ$9.57`, `€9.57` … for the others (an Amount or a price change that names another
 * currency). A difference is only computed between amounts of one currency.
 *
 * Where a preview line comes from: check() quotes a new VPS and an adoption (vps-lookahead.ts); diff()
 * quotes a resize or a replacement (it has the old outputs, with the fee the service bills now). Both only in
 * a preview (isPreview), never in a refresh's diff (refresh-diff.ts: it plans no change), and each distinct
 * request once per run (AccountView.quote). The stack-wide running total counts each VPS once, whatever the number
 * of lines about it.
 */
import type { Amount, ChangePricing, NewVpsRequestInput } from "../../../contract/index.js";
import { PREVIEW_FLAG } from "../fields/vps-fields.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { ipRequest, toWire } from "../inputs/vps-requests.js";
import { amountUsd } from "../../wire-mapping/values.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import type { RecordedOutputs } from "../inputs/vps-outputs.js";

/** An amount with its currency (an ISO code such as "USD"). */
export interface Money {
  amount: number;
  currency: string;
}

const usd = (amount: number): Money => ({ amount, currency: "USD" });

/** True when these (new) inputs come from a preview run of the program (the Vps class sets PREVIEW_FLAG). */
export const isPreview = (news: VpsInputs): boolean =>
  news[PREVIEW_FLAG] === true || typeof news[PREVIEW_FLAG] === "string";

/** A currency's format (undefined: not an ISO currency code). */
function formatOf(currency: string): Intl.NumberFormat | undefined {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency });
  } catch {
    return undefined;
  }
}

/**
 * The format of USD, made once as this module loads: a function of code alone. Nearly every amount is in USD (the
 * fees RimuHosting bills and reports); another currency's format is made when an amount of it is written.
 */
const USD_FORMAT = formatOf("USD")!;

/** "$9.57", "NZ$9.57", "€9.57", "-$1.20": the one way money is written. */
export function formatMoney(money: Money): string {
  const format = money.currency === "USD" ? USD_FORMAT : formatOf(money.currency);
  // not an ISO currency code: the number and the code as given
  return format ? format.format(money.amount) : `${money.amount.toFixed(2)} ${money.currency}`;
}

/** "+$6.43", "-$6.43", "±$0.00". */
export function signed(money: Money): string {
  const cents = Math.round(money.amount * 100);
  if (cents === 0) return `±${formatMoney({ ...money, amount: 0 })}`;
  return `${cents > 0 ? "+" : "-"}${formatMoney({ ...money, amount: Math.abs(cents) / 100 })}`;
}

const roundCents = (value: number): number => Math.round(value * 100) / 100;

/** "CUR_NZD" → "NZD" (the wire's currency enum), and a plain code as given. */
function currencyCode(wire: string | null | undefined): string {
  if (!wire) return "USD";
  return wire.startsWith("CUR_") ? wire.slice(4) : wire;
}

/** An Amount (§3.6) as money: its USD value when it has one, else the amount in its own currency. */
export function amountMoney(amount: Amount | null | undefined): Money | undefined {
  if (!amount) return undefined;
  const inUsd = amountUsd(amount);
  if (inUsd !== undefined) return usd(inUsd);
  return { amount: amount.amt, currency: currencyCode(amount.currency) };
}

/** A price of ResourceChangeResult (a bare number, read as USD like the fees, or `{amt, cur}`). */
function changePricingMoney(pricing: ChangePricing | null | undefined): Money | undefined {
  if (typeof pricing === "number") return usd(pricing);
  if (!pricing) return undefined;
  return { amount: pricing.amt, currency: currencyCode(pricing.cur ?? pricing.currency) };
}

// ------------------------------------------------------------------------------------------- quotes

/** The inputs the price depends on. */
export const PRICED_INPUTS = [
  "pricingPlanCode",
  "dcLocation",
  "memoryMb",
  "diskSpaceMb",
  "diskSpace2Mb",
] as const;

type PricedInput = (typeof PRICED_INPUTS)[number];

/** What a quote is asked for: inputs, or what a state or an order records (the order's sizes under the inputs'). */
export type QuotedValues = VpsInputs | RecordedOutputs;

/** What a quote that stands for an order also carries: what R16 judges the way R4 would (§8.2). */
const ORDER_INPUTS = ["hostServerOid", "distro"] as const;

/**
 * The quote request for these inputs: plan, data centre and sizes (no name, password or files: a quote needs
 * none of them). `asOrder` adds the host server, the distro and the IP request, which makes the quote a dry
 * run of the order (docs/rimuhosting-api.md §8.2). Unset values are left out: the service applies its defaults.
 */
export function quoteRequest(inputs: QuotedValues, asOrder = false): NewVpsRequestInput {
  if (!asOrder) return toWire(inputs, PRICED_INPUTS) as NewVpsRequestInput;
  const request = toWire(inputs, [...PRICED_INPUTS, ...ORDER_INPUTS]) as NewVpsRequestInput;
  const ips = ipRequest(inputs);
  return ips === undefined ? request : { ...request, ip_request: ips };
}

/** The priced inputs that are set in `values`. */
export function pricedOf(values: Pick<RecordedOutputs, PricedInput>): Pick<RecordedOutputs, PricedInput> {
  const set = PRICED_INPUTS.filter((name) => values[name] !== undefined);
  return Object.fromEntries(set.map((name) => [name, values[name]]));
}

/** A quoted monthly price, or why there is none ("memoryMb not known until the update runs"). */
export type Quoted = { price: Money } | { problem: string };

// ------------------------------------------------------------------------------------- preview lines

/**
 * The preview's running total: each VPS's monthly change, keyed by the resource, so a VPS counts once however
 * many lines mention it (a replacement is priced by diff() and checked again for its create).
 */
const PREVIEW_CHANGES = runState("each VPS's priced monthly change", () => new Map<string, number>());
const previewChanges = (run: RunContext): Map<string, number> => run.get(PREVIEW_CHANGES);
/** Resources whose replacement diff() priced: the check() of the replacement's create adds no "new VPS" line. */
const REPLACEMENTS_PRICED = runState("replacements diff() priced", () => new Set<string>());
const replacementsPriced = (run: RunContext): Set<string> => run.get(REPLACEMENTS_PRICED);

/** `line` with `run`'s running total appended once more than one VPS has a priced change. */
function withTotal(run: RunContext, resource: string, line: string, delta: Money | undefined): string {
  if (delta === undefined || delta.currency !== "USD") return line;
  const changes = previewChanges(run);
  changes.set(resource, roundCents(delta.amount));
  if (changes.size < 2) return line;
  const total = roundCents([...changes.values()].reduce((a, b) => a + b, 0));
  return `${line} [all VPS changes so far: ${signed(usd(total))} a month]`;
}

/** The difference `after - before` when both are in one currency. */
function difference(before: Money | undefined, after: Money): Money | undefined {
  if (before === undefined || before.currency !== after.currency) return undefined;
  return { amount: roundCents(after.amount - before.amount), currency: after.currency };
}

/** The fee an order is billed now, from old outputs (monthlyFeeUsd). */
function currentFee(olds: RecordedOutputs): Money | undefined {
  return typeof olds.monthlyFeeUsd === "number" ? usd(olds.monthlyFeeUsd) : undefined;
}

/** `web: new VPS: $9.57 a month (quoted by RimuHosting).` */
export function newVpsLine(run: RunContext, resource: string, name: string, quoted: Quoted): string {
  if ("problem" in quoted) return `${name}: new VPS: price not quoted: ${quoted.problem}.`;
  return withTotal(
    run,
    resource,
    `${name}: new VPS: ${formatMoney(quoted.price)} a month (quoted by RimuHosting).`,
    quoted.price,
  );
}

const SIZE_LABELS = { memoryMb: "", diskSpaceMb: "disk ", diskSpace2Mb: "second disk " } as const;

/** `web: resize 1024 → 2048 MB: $9.57 → $16.00 a month (+$6.43)`: the fee billed now, the quote, the change. */
export function resizeLine(
  run: RunContext,
  resource: string,
  name: string,
  olds: RecordedOutputs,
  news: VpsInputs,
  changed: readonly string[],
  quoted: Quoted,
): string {
  const parts = changed
    .filter((field): field is keyof typeof SIZE_LABELS => field in SIZE_LABELS)
    .map((field) => `${SIZE_LABELS[field]}${String(olds[field] ?? 0)} → ${String(news[field])} MB`);
  const what = `resize ${parts.join(", ")}`;
  if ("problem" in quoted) return `${name}: ${what}: price not quoted: ${quoted.problem}.`;
  return changeLine(run, resource, `${name}: ${what}`, currentFee(olds), quoted.price, "");
}

/** `web: replacement VPS: $9.57 → $11.00 a month (+$1.43; the old VPS is cancelled with a credit …)`, once. */
export function replacementLine(
  run: RunContext,
  resource: string,
  name: string,
  olds: RecordedOutputs,
  quoted: Quoted,
): string {
  replacementsPriced(run).add(resource);
  if ("problem" in quoted) return `${name}: replacement VPS: price not quoted: ${quoted.problem}.`;
  return changeLine(
    run,
    resource,
    `${name}: replacement VPS`,
    currentFee(olds),
    quoted.price,
    "; the old VPS is cancelled with a credit for unused time",
  );
}

/** True once for the check() of a replacement's create, after diff() priced the replacement. */
export function takeReplacementPriced(run: RunContext, resource: string): boolean {
  return replacementsPriced(run).delete(resource);
}

/**
 * `legacy: adopting order 123: $11.00 → $17.60 a month (+$6.60)`: the fee the order is billed now, and the
 * quote for it once changed to match the program (the program's sizes over the order's).
 */
export function adoptionLine(
  run: RunContext,
  resource: string,
  name: string,
  oid: number,
  before: Money | undefined,
  quoted: Quoted,
): string {
  const what = `${name}: adopting order ${oid}`;
  if ("problem" in quoted)
    return `${what}: ${before ? `billed ${formatMoney(before)} a month now; ` : ""}the price after it is changed to match the program is not quoted: ${quoted.problem}.`;
  return changeLine(run, resource, what, before, quoted.price, "");
}

/** `<what>: $a → $b a month (+$c<note>)`, or the quote alone when the fee now is unknown or in another currency. */
function changeLine(
  run: RunContext,
  resource: string,
  what: string,
  before: Money | undefined,
  after: Money,
  note: string,
): string {
  const delta = difference(before, after);
  if (before === undefined)
    return `${what}: ${formatMoney(after)} a month (quoted; the current fee is not recorded).`;
  if (delta === undefined)
    return `${what}: ${formatMoney(before)} now, ${formatMoney(after)} a month quoted (different currencies).`;
  return withTotal(
    run,
    resource,
    `${what}: ${formatMoney(before)} → ${formatMoney(after)} a month (${signed(delta)}${note})`,
    delta,
  );
}

// ------------------------------------------------------------------------------------ after the fact

/**
 * What a resize did to the fee, from its result, for the one line that says the resize (vps-converge.ts):
 * "the monthly fee went from $9.57 to $16.00 (+$6.43), as RimuHosting reported".
 */
export function resizeFeeWords(result: {
  original_pricing?: ChangePricing | null;
  new_pricing?: ChangePricing | null;
}): string {
  const before = changePricingMoney(result.original_pricing);
  const after = changePricingMoney(result.new_pricing);
  if (before === undefined || after === undefined)
    return "RimuHosting did not report the new monthly fee (see monthlyFeeUsd after the update)";
  const delta = difference(before, after);
  return `the monthly fee went from ${formatMoney(before)} to ${formatMoney(after)}${delta ? ` (${signed(delta)})` : ""}, as RimuHosting reported`;
}

/** "billed $9.57 a month", what a new or adopted VPS is billed, for the line that says it was ordered or adopted. */
export function billedWords(fee: number | undefined): string {
  return fee === undefined
    ? "RimuHosting did not report its monthly fee"
    : `billed ${formatMoney(usd(fee))} a month`;
}

/**
 * What a move did to the fee, for the line that says the move (vps-converge.ts): "the monthly fee stays $10.00", or
 * "went from $10.00 to $12.00 (+$2.00)". Fees are USD (monthlyFeeUsd).
 */
export function feeWords(fee: number | undefined, before: number | undefined): string {
  if (fee === undefined) return "RimuHosting did not report its monthly fee";
  if (before === undefined) return billedWords(fee);
  if (roundCents(fee) === roundCents(before)) return `the monthly fee stays ${formatMoney(usd(fee))}`;
  return `the monthly fee went from ${formatMoney(usd(before))} to ${formatMoney(usd(fee))} (${signed(usd(fee - before))})`;
}

/**
 * The credit for unused time in a delete's `cancel_messages` ("A $7.98 credit has been added to your
 * account.", docs/rimuhosting-api.md#r6), or undefined when no message states one.
 */
export function parseCredit(messages: readonly string[]): number | undefined {
  for (const message of messages) {
    const match =
      /\$\s?(\d+(?:\.\d+)?)\s+credit/i.exec(message) ??
      /credit(?:ed)?\s+of\s+\$?\s?(\d+(?:\.\d+)?)/i.exec(message);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * What a delete did to the bill, for the line that says the cancellation: the credit, or the service's words verbatim
 * when no credit can be read. "no longer billed (it was billed $16.00 a month); RimuHosting credited $7.98 for the
 * unused time."
 */
export function deleteBillWords(messages: readonly string[], fee: unknown): string {
  const credit = parseCredit(messages);
  const was = typeof fee === "number" ? ` (it was billed ${formatMoney(usd(fee))} a month)` : "";
  if (credit !== undefined)
    return `no longer billed${was}; RimuHosting credited ${formatMoney(usd(credit))} for the unused time.`;
  const said = messages.length > 0 ? messages.join(" ") : "nothing";
  return `no longer billed${was}; no credit could be read from RimuHosting's answer, which said: ${said}`;
}
