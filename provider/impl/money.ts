/**
 * What the bill does: quoted prices shown in a preview, and the fee, price change and credit the
 * service reports after a create, resize, move or delete. Lines only: nothing here ever fails an
 * operation (a quote that cannot be had is said in one line, and the preview carries on).
 *
 * Where a preview line comes from: check() quotes a new VPS (it has the new inputs and the API key
 * from configure()); diff() quotes a resize or a replacement (it has the old outputs, with the fee the
 * service bills now, and the new inputs). Both only when the program runs as a preview (the Vps class
 * sets PREVIEW_FLAG from pulumi.runtime.isDryRun()), so `pulumi up` after its preview, refresh and
 * destroy never ask for a quote. The console output of the provider host is what the engine shows
 * during a preview (as diagnostics of the stack), see docs/vps.md ("Prices").
 */
import type { ChangePricing, NewVpsRequestInput } from "../../contract/index.js";
import type { RimuClient } from "../client/index.js";
import { log } from "./log.js";
import { messageOf } from "./errors.js";
import { containsUnknown } from "./unknowns.js";
import { PREVIEW_FLAG } from "./vps-fields.js";
import { toWire } from "./vps-requests.js";

type Bag = Record<string, unknown>;

/** True when these (new) inputs come from a preview run of the program. */
export const isPreview = (news: Bag): boolean => news[PREVIEW_FLAG] === true;

/** "$9.57", "-$1.20". */
export function usd(amount: number): string {
  const text = `$${Math.abs(amount).toFixed(2)}`;
  return amount < 0 ? `-${text}` : text;
}

/** "+$6.43", "-$6.43", "±$0.00". */
function signedUsd(amount: number): string {
  const cents = Math.round(amount * 100);
  if (cents === 0) return "±$0.00";
  return `${cents > 0 ? "+" : "-"}${usd(Math.abs(cents) / 100)}`;
}

const roundCents = (value: number): number => Math.round(value * 100) / 100;

/** The resource's name in the program (the last part of creationScope), or its domain name. */
function resourceLabel(inputs: Bag, fallback?: string): string {
  const scope = inputs.creationScope;
  if (typeof scope === "string" && scope.includes("/")) return scope.slice(scope.lastIndexOf("/") + 1);
  if (typeof inputs.domainName === "string") return inputs.domainName;
  return fallback ?? "Vps";
}

/** The inputs the price depends on. */
const PRICED_INPUTS = ["pricingPlanCode", "dcLocation", "memoryMb", "diskSpaceMb", "diskSpace2Mb"] as const;

/**
 * The quote request for these inputs: plan, data centre and sizes only (no name, password or files:
 * a quote needs none of them). Unset values are left out, so the service applies its defaults.
 */
function quoteRequest(inputs: Bag): NewVpsRequestInput {
  return toWire(inputs, PRICED_INPUTS) as NewVpsRequestInput;
}

/** The quoted monthly price in USD, or why there is none. */
async function quote(
  client: RimuClient | undefined,
  inputs: Bag,
): Promise<{ usd: number } | { problem: string }> {
  const unknown = PRICED_INPUTS.filter((name) => containsUnknown(inputs[name]));
  if (unknown.length > 0) return { problem: `${unknown.join(", ")} not known until the update runs` };
  if (!client) return { problem: "no API key is configured" };
  try {
    const answer = await client.quoteNewVm(quoteRequest(inputs));
    const amount = answer.monthly_recurring_amt;
    const value = amount?.amt_usd ?? amount?.amt;
    if (typeof value !== "number") return { problem: "RimuHosting's answer carried no price" };
    return { usd: value };
  } catch (error) {
    return { problem: `RimuHosting did not quote it (${messageOf(error)})` };
  }
}

/** The monthly change previewed so far by this provider host (the stack-level running total). */
let previewTotal = 0;
let previewCount = 0;

function previewLine(line: string, delta: number | undefined): void {
  if (delta === undefined) {
    log(line);
    return;
  }
  previewTotal = roundCents(previewTotal + delta);
  previewCount += 1;
  log(previewCount > 1 ? `${line} [all VPS changes so far: ${signedUsd(previewTotal)} a month]` : line);
}

/** Forgets the running total (tests). */
export function resetPreviewTotal(): void {
  previewTotal = 0;
  previewCount = 0;
}

/** Preview of a new VPS: `web: new VPS: $9.57 a month (quoted)`. */
export async function previewCreatePrice(client: RimuClient | undefined, news: Bag): Promise<void> {
  const name = resourceLabel(news);
  const quoted = await quote(client, news);
  if ("problem" in quoted) {
    previewLine(`${name}: new VPS: price not quoted: ${quoted.problem}.`, undefined);
    return;
  }
  previewLine(`${name}: new VPS: ${usd(quoted.usd)} a month (quoted by RimuHosting).`, quoted.usd);
}

const SIZE_LABELS = { memoryMb: "", diskSpaceMb: "disk ", diskSpace2Mb: "second disk " } as const;

/**
 * Preview of a resize: `web: resize 1024 → 2048 MB: $9.57 → $16.00 a month (+$6.43)`. The price before
 * is the fee the order is billed now (the old outputs); the price after is quoted for the new sizes.
 */
export async function previewResizePrice(
  client: RimuClient | undefined,
  olds: Bag,
  news: Bag,
  changed: readonly string[],
): Promise<void> {
  const name = resourceLabel(news, resourceLabel(olds));
  const parts = changed
    .filter((field): field is keyof typeof SIZE_LABELS => field in SIZE_LABELS)
    .map((field) => `${SIZE_LABELS[field]}${String(olds[field] ?? 0)} → ${String(news[field])} MB`);
  const what = `resize ${parts.join(", ")}`;
  const after = await quote(client, { ...pricedOf(olds), ...pricedOf(news) });
  const before = typeof olds.monthlyFeeUsd === "number" ? olds.monthlyFeeUsd : undefined;
  if ("problem" in after) {
    previewLine(`${name}: ${what}: price not quoted: ${after.problem}.`, undefined);
    return;
  }
  if (before === undefined) {
    previewLine(
      `${name}: ${what}: ${usd(after.usd)} a month (quoted; the current fee is not recorded).`,
      undefined,
    );
    return;
  }
  const delta = roundCents(after.usd - before);
  previewLine(`${name}: ${what}: ${usd(before)} → ${usd(after.usd)} a month (${signedUsd(delta)})`, delta);
}

/** Preview of a replacement: the new VPS's quote against the fee of the one it replaces. */
export async function previewReplacePrice(
  client: RimuClient | undefined,
  olds: Bag,
  news: Bag,
): Promise<void> {
  const name = resourceLabel(news, resourceLabel(olds));
  const after = await quote(client, news);
  const before = typeof olds.monthlyFeeUsd === "number" ? olds.monthlyFeeUsd : undefined;
  if ("problem" in after) {
    previewLine(`${name}: replacement VPS: price not quoted: ${after.problem}.`, undefined);
    return;
  }
  const delta = before === undefined ? undefined : roundCents(after.usd - before);
  previewLine(
    `${name}: replacement VPS: ${before === undefined ? "" : `${usd(before)} → `}${usd(after.usd)} a month` +
      (delta === undefined
        ? " (quoted)"
        : ` (${signedUsd(delta)}; the old VPS is cancelled with a credit for unused time)`),
    delta,
  );
}

function pricedOf(bag: Bag): Bag {
  return Object.fromEntries(PRICED_INPUTS.filter((n) => bag[n] !== undefined).map((n) => [n, bag[n]]));
}

// ------------------------------------------------------------------------------------ after the fact

/** A price of ResourceChangeResult in USD (a number, or `{amt, cur}`). */
function pricingUsd(pricing: ChangePricing | null | undefined): number | undefined {
  if (typeof pricing === "number") return pricing;
  return typeof pricing?.amt === "number" ? pricing.amt : undefined;
}

/** `Vps 123: the monthly fee went from $9.57 to $16.00 (+$6.43).` from a resize's result. */
export function resizeBillLine(
  id: string,
  result: { original_pricing?: ChangePricing | null; new_pricing?: ChangePricing | null },
): string {
  const before = pricingUsd(result.original_pricing);
  const after = pricingUsd(result.new_pricing);
  if (before === undefined || after === undefined)
    return `Vps ${id}: RimuHosting did not report the new monthly fee; see monthlyFeeUsd after the update.`;
  return `Vps ${id}: the monthly fee went from ${usd(before)} to ${usd(after)} (${signedUsd(after - before)}), as RimuHosting reported.`;
}

/** `Vps 123: billed $9.57 a month.` or a fee change (move). */
export function feeLine(id: string, fee: number | undefined, before?: number): string {
  if (fee === undefined) return `Vps ${id}: RimuHosting did not report a monthly fee.`;
  if (before === undefined) return `Vps ${id}: billed ${usd(fee)} a month.`;
  if (roundCents(fee) === roundCents(before)) return `Vps ${id}: the monthly fee stays ${usd(fee)}.`;
  return `Vps ${id}: the monthly fee went from ${usd(before)} to ${usd(fee)} (${signedUsd(fee - before)}).`;
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

/** What a delete did to the bill: the credit, or the service's words verbatim when no credit can be read. */
export function deleteBillLine(id: string, messages: readonly string[], fee: unknown): string {
  const credit = parseCredit(messages);
  const was = typeof fee === "number" ? ` (it was billed ${usd(fee)} a month)` : "";
  if (credit !== undefined)
    return `Vps ${id}: no longer billed${was}; RimuHosting credited ${usd(credit)} for the unused time.`;
  const said = messages.length > 0 ? messages.join(" ") : "nothing";
  return `Vps ${id}: no longer billed${was}; no credit could be read from RimuHosting's answer, which said: ${said}`;
}
