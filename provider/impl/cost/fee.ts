/**
 * The fee of one VPS after this run's change, by what the change is (docs/cost.md), for every judge of the
 * budget: what it is billed now and what it will be billed, in cents.
 *
 * - new: not billed now; after, RimuHosting's quote of the order;
 * - resize, move, replacement, adopted: billed now what its order is billed; after, the quote of the change (an
 *   adopted order: the quote once changed to match the program; a replacement counts once);
 * - imported, unchanged: billed now what its order is billed, and the same after (an imported VPS that is also
 *   resized is a resize);
 * - deleted: billed now what its order is billed, and the same after: the budget judges the run's highest point, and
 *   a delete counts until it is made, which the engine does after the run's orders and changes (I5: the provider,
 *   the guard, the bill and the pack all count it so);
 * - unknown: a price that cannot be had (an input unknown in a preview, a failed quote, another currency) says
 *   why, and is never counted as $0.
 *
 * Owns: which fee counts for which change. Pure: imports only ./money.ts and ./verdict.ts.
 */
import type { Priced } from "./money.js";
import type { VpsFee } from "./verdict.js";

export const CHANGE_KINDS = [
  "new",
  "resize",
  "move",
  "replacement",
  "adopted",
  "imported",
  "unchanged",
  "deleted",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface Change {
  name: string;
  kind: ChangeKind;
  /** What its order is billed now (undefined: not billed, or not in the account's listing). */
  nowCents?: number;
  /** RimuHosting's price of the VPS after the change (needed for new, resize, move, replacement, adopted). */
  quote?: Priced;
}

const NOT_QUOTED: Priced = { why: "its price was not quoted" };

/** The fee of `change` (see the header). */
export function feeAfterChange(change: Change): VpsFee {
  const { name, kind, nowCents } = change;
  if (kind === "new") return { name, after: change.quote ?? NOT_QUOTED };
  if (kind === "imported" || kind === "unchanged" || kind === "deleted") {
    if (change.quote && kind !== "deleted") return { name, nowCents, after: change.quote };
    return {
      name,
      nowCents,
      after:
        nowCents === undefined ? { why: "RimuHosting does not report the order's fee" } : { cents: nowCents },
    };
  }
  return { name, nowCents, after: change.quote ?? NOT_QUOTED };
}
