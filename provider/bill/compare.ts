/**
 * `--compare-to`: a bill against a baseline, the JSON bill (`--format json`) of the same stack made earlier, most
 * often main's last one (docs/ci.md keeps it as an artifact). Each VPS of either is compared by its URN on the fee
 * it has once its run is done (its `after`): what the pull request changes against main, per VPS and in total. A fee
 * not priced on either side is named and never counted as $0. The baseline is read leniently (fields a newer minor
 * version adds pass through) but a file that is not a bill of a format version this command reads is refused, with
 * what it is and how to make the right one.
 */
import * as z from "zod";
import type { Bill, Fee } from "./bill.js";
import { pathText } from "./command-input.js";
import { amountOf, columnSum } from "./totals.js";

/** The JSON bill's name and the version of its shape (docs/cost.md, "The bill as data"). */
export const BILL_FORMAT = "rimuhosting-bill";
export const BILL_FORMAT_VERSION = 1;

const FeeJson = z.union([
  z.object({ cents: z.number().int() }),
  z.object({ none: z.literal(true) }),
  z.object({ unknown: z.string() }),
]);

/** What the comparison reads of a baseline: its stack, whether it is whole, and each VPS's fee after its run. */
const Baseline = z.looseObject({
  format: z.literal(BILL_FORMAT),
  version: z.number().int(),
  project: z.string().nullable(),
  stack: z.string().nullable(),
  complete: z.boolean(),
  vpss: z.array(z.looseObject({ name: z.string(), urn: z.string(), after: FeeJson })),
});
export type Baseline = z.infer<typeof Baseline> & { source: string };

/** How to make the file `--compare-to` reads: said by every message about a wrong one. */
const HOW_TO_MAKE =
  "give the JSON bill of the same stack that `rimuhosting-bill --format json` wrote (docs/ci.md keeps main's as " +
  "an artifact)";

/** The baseline is not a JSON bill this command reads: the message names the file, what is wrong and what to do. */
export class NotBaselineError extends Error {
  override name = "NotBaselineError";
}

/** The baseline in `text`, read from `source`; throws a NotBaselineError saying what is wrong. */
export function parseBaseline(text: string, source: string): Baseline {
  const refusal = (what: string, fix = HOW_TO_MAKE) =>
    new NotBaselineError(`--compare-to ${source} ${what}: ${fix}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refusal(text.trim() === "" ? "is empty" : "is not JSON");
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== BILL_FORMAT)
    throw refusal(
      `is not a bill (its "format" is ${JSON.stringify(format) ?? "missing"}, not "${BILL_FORMAT}")`,
    );
  const version = (value as { version?: unknown }).version;
  if (typeof version === "number" && version > BILL_FORMAT_VERSION)
    throw refusal(
      `is a bill of format version ${version}, newer than this command reads (${BILL_FORMAT_VERSION})`,
      "update pulumi-rimuhosting to the version that wrote it",
    );
  const parsed = Baseline.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw refusal(`is not a whole bill: ${pathText(issue.path)}: ${issue.message}`);
  }
  return { ...parsed.data, source };
}

/** `shop/prod`, the stack a bill or a baseline is of. */
export const stackOf = (b: { project?: string | null; stack?: string | null }): string =>
  `${b.project ?? "?"}/${b.stack ?? "?"}`;

export interface VpsComparison {
  name: string;
  urn: string;
  /** The fee the baseline's run leaves it with; null when the baseline has no such VPS. */
  baseline: Fee | null;
  /** The fee this bill's run leaves it with; null when this preview has no such VPS. */
  current: Fee | null;
  /** current − baseline (a missing VPS or "none" counting 0); null when either is not priced. */
  changeCents: number | null;
}

export interface Comparison {
  /** The file compared with, as given. */
  source: string;
  /** Whether the baseline is of a whole preview (a failed preview's bill lists only what came before it stopped). */
  baselineComplete: boolean;
  /** Every VPS of either bill: this bill's in its order, then those only the baseline has. */
  vpss: VpsComparison[];
  totals: { baselineCents: number; currentCents: number; changeCents: number; notPriced: string[] };
}

/** A baseline `--compare-to <dir>` has no file for (the stack is new, or its bill was not made), and why. */
export interface MissingBaseline {
  source: string;
  missing: string;
}

const amountOrZero = (fee: Fee | null): number | undefined => (fee === null ? 0 : amountOf(fee));

/** The bill against the baseline (see the header). */
export function compareBills(bill: Bill, baseline: Baseline): Comparison {
  const before = new Map(baseline.vpss.map((v) => [v.urn, v]));
  const vpss: VpsComparison[] = bill.vpss.map((v) => ({
    name: v.name,
    urn: v.urn,
    baseline: before.get(v.urn)?.after ?? null,
    current: v.after,
    changeCents: null,
  }));
  const listed = new Set(vpss.map((v) => v.urn));
  for (const v of baseline.vpss)
    if (!listed.has(v.urn))
      vpss.push({ name: v.name, urn: v.urn, baseline: v.after, current: null, changeCents: null });
  for (const v of vpss) {
    const [from, to] = [amountOrZero(v.baseline), amountOrZero(v.current)];
    v.changeCents = from === undefined || to === undefined ? null : to - from;
  }
  const fees = (side: "baseline" | "current") => vpss.flatMap((v) => (v[side] === null ? [] : [v[side]]));
  return {
    source: baseline.source,
    baselineComplete: baseline.complete,
    vpss,
    totals: {
      baselineCents: columnSum(fees("baseline")).cents,
      currentCents: columnSum(fees("current")).cents,
      changeCents: vpss.reduce((sum, v) => sum + (v.changeCents ?? 0), 0),
      notPriced: vpss.filter((v) => v.changeCents === null).map((v) => v.name),
    },
  };
}
