/** The bill's words for a VPS's fee and what a run does to it (bill.ts reads them, judge.ts judges them). */

/** A monthly fee in whole cents, none (not billed: before a create, after a delete), or not priced and why. */
export type Fee = { cents: number } | { none: true } | { unknown: string };

/** What the run does to a VPS, in the bill's words. */
export type ChangeKind =
  | "create"
  | "adopt"
  | "import"
  | "resize"
  | "move"
  | "move and resize"
  | "update"
  | "replace"
  | "delete"
  | "same";
