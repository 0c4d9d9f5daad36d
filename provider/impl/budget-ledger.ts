/**
 * The budget's arithmetic for one run: each VPS's monthly fee now and after this run's change (planned-fee.ts), kept
 * per resource by the provider process that serves them (AccountView.fees, beside the host-room ledger), the totals,
 * and the verdict against the limits. Pure: no I/O, no settings (budget.ts reads those and says what to do).
 *
 * The engine calls check() one resource after another, in an order that can differ between runs, and a check cannot
 * wait for later ones. So whether a run is over a limit must not depend on that order, and every criterion only
 * grows as checks arrive:
 *
 * - the total after the run adds each VPS's fee after its change (a new VPS at its quote, a resize at its new fee,
 *   an unchanged VPS at its fee now, a replacement once);
 * - the run's increase adds what each VPS adds: a new VPS its fee, a growing change its growth; a change that lowers
 *   a fee adds nothing (shrinks are not netted against growth, so the increase never falls as checks arrive).
 *
 * When the run's changes together are over a limit, the check that takes the sums over it fails, and every order of
 * checks reaches the same verdict.
 * Amounts are kept in whole cents. A resource checked again (the engine checks a replacement's create a second
 * time) replaces its own entry and keeps the fee it is billed now: a replacement counts once.
 */

/** One VPS's fees, in USD a month. */
export interface FeeEntry {
  /** The resource's name in the program, for messages. */
  name: string;
  /** Billed now (undefined: a new VPS, or not known). */
  nowUsd?: number;
  /** After this run's change (undefined: not known; the entry then counts its fee now, or nothing). */
  plannedUsd?: number;
}

/** What one VPS adds to the run's increase. */
export interface Adder {
  name: string;
  addsCents: number;
  nowCents?: number;
  plannedCents: number;
}

export interface BudgetTotals {
  /** How many VPSs were counted (checked so far). */
  count: number;
  beforeCents: number;
  afterCents: number;
  /** New VPSs and growing changes; shrinks add nothing. */
  increaseCents: number;
  /** The VPSs that add the most first. */
  adders: Adder[];
}

/** The limits, in USD a month (undefined: no limit). */
export interface BudgetLimits {
  monthlyBudgetUsd?: number;
  maxMonthlyIncreaseUsd?: number;
}

/** How the settings are named in messages (`rimuhosting:monthlyBudgetUsd`, or an explicit provider's argument). */
export interface LimitNames {
  monthlyBudgetUsd: string;
  maxMonthlyIncreaseUsd: string;
}

export const cents = (usd: number): number => Math.round(usd * 100);

export class FeeLedger {
  /** resource key -> its fees. */
  private readonly entries = new Map<string, FeeEntry>();
  /** The limits a warning was given for in this run (budgetEnforcement: warn says each once). */
  readonly warned = new Set<keyof BudgetLimits>();

  /** Sets `resource`'s fees, replacing its earlier entry and keeping the fee it is billed now. */
  record(resource: string, entry: FeeEntry): void {
    const earlier = this.entries.get(resource);
    this.entries.set(resource, { ...entry, nowUsd: entry.nowUsd ?? earlier?.nowUsd });
  }

  totals(): BudgetTotals {
    let beforeCents = 0;
    let afterCents = 0;
    const adders: Adder[] = [];
    for (const entry of this.entries.values()) {
      const nowCents = entry.nowUsd === undefined ? undefined : cents(entry.nowUsd);
      const plannedCents = entry.plannedUsd === undefined ? (nowCents ?? 0) : cents(entry.plannedUsd);
      beforeCents += nowCents ?? 0;
      afterCents += plannedCents;
      const addsCents = Math.max(0, plannedCents - (nowCents ?? 0));
      if (addsCents > 0) adders.push({ name: entry.name, addsCents, nowCents, plannedCents });
    }
    adders.sort((a, b) => b.addsCents - a.addsCents);
    const increaseCents = adders.reduce((sum, adder) => sum + adder.addsCents, 0);
    return { count: this.entries.size, beforeCents, afterCents, increaseCents, adders };
  }
}

/** The limits the totals are over (empty when none). */
export function limitsPassed(limits: BudgetLimits, totals: BudgetTotals): (keyof BudgetLimits)[] {
  const passed: (keyof BudgetLimits)[] = [];
  if (limits.monthlyBudgetUsd !== undefined && totals.afterCents > cents(limits.monthlyBudgetUsd))
    passed.push("monthlyBudgetUsd");
  if (
    limits.maxMonthlyIncreaseUsd !== undefined &&
    totals.increaseCents > cents(limits.maxMonthlyIncreaseUsd)
  )
    passed.push("maxMonthlyIncreaseUsd");
  return passed;
}

/** "$12.50" */
export const dollars = (amountCents: number): string => `$${(amountCents / 100).toFixed(2)}`;

/** How many VPSs a message names as adding the most. */
const NAMED = 3;

/** "web-1 +$10.00 (new), db +$6.00 ($10.00 → $16.00)". */
function addersWords(adders: readonly Adder[]): string {
  const named = adders.slice(0, NAMED).map((adder) => {
    const what =
      adder.nowCents === undefined ? "new" : `${dollars(adder.nowCents)} → ${dollars(adder.plannedCents)}`;
    return `${adder.name} +${dollars(adder.addsCents)} (${what})`;
  });
  const rest = adders.length - named.length;
  return named.join(", ") + (rest > 0 ? ` and ${rest} more` : "");
}

/**
 * The one message of a run over its limits: the total before and after, the budget, the run's increase (and its
 * limit), and the VPSs that add the most. Undefined when no limit is passed.
 */
export function overBudgetMessage(
  limits: BudgetLimits,
  totals: BudgetTotals,
  names: LimitNames,
): string | undefined {
  const passed = limitsPassed(limits, totals);
  if (passed.length === 0) return undefined;
  const over = (key: keyof BudgetLimits) => (passed.includes(key) ? "over" : "within");
  const budget =
    limits.monthlyBudgetUsd === undefined
      ? "no monthly budget is set"
      : `${over("monthlyBudgetUsd")} the monthly budget of ${dollars(cents(limits.monthlyBudgetUsd))} (${names.monthlyBudgetUsd})`;
  const increase =
    limits.maxMonthlyIncreaseUsd === undefined
      ? ""
      : `, ${over("maxMonthlyIncreaseUsd")} the ${dollars(cents(limits.maxMonthlyIncreaseUsd))} one run may add (${names.maxMonthlyIncreaseUsd})`;
  const vpss = totals.count === 1 ? "the 1 VPS" : `the ${totals.count} VPSs`;
  return (
    `this run takes the monthly fees of ${vpss} this provider has checked so far from ${dollars(totals.beforeCents)} ` +
    `to ${dollars(totals.afterCents)}, ${budget}; it adds ${dollars(totals.increaseCents)} a month (new VPSs and ` +
    `growing changes; shrinks are not netted)${increase}. Adding the most: ${addersWords(totals.adders)}. ` +
    `Raise the limit, or order less in this run`
  );
}
