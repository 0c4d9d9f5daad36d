/**
 * One run's fee ledger as the provider keeps it (AccountView.fees, one per account a run reaches): what the
 * account is billed now (every active order, read once per run), and each checked VPS's fee now and after its
 * change, by resource. The engine checks resources one after another and a check cannot wait for later ones, so
 * each check is judged with the totals so far (verdict.ts), and its messages say so.
 *
 * A resource checked again (the engine checks a replacement's create a second time) replaces its own entry and
 * keeps the fee it is billed now: a replacement counts once.
 *
 * Owns: the ledger and the over-budget message. Pure: imports only this folder.
 */
import { dollars, cents } from "./money.js";
import {
  limitsPassed,
  totalsOf,
  type Adder,
  type BudgetTotals,
  type Limit,
  type Limits,
  type VpsFee,
} from "./verdict.js";

/** What the account is billed now: its active orders' monthly fees, and the orders that report no fee. */
export interface AccountBilled {
  cents: number;
  /** Orders RimuHosting reports no monthly fee for: the account's total is not known while they are active. */
  unpriced: readonly number[];
}

/** Why the account cannot be totalled, for the preview's check and the guard at the moment of ordering alike. */
export function unpricedAccountWords(unpriced: readonly number[]): string {
  const oids = unpriced.map(String);
  const named = oids.length <= 1 ? oids.join("") : `${oids.slice(0, -1).join(", ")} and ${oids.at(-1)!}`;
  return (
    `the budget cannot total the account: RimuHosting reports no monthly fee for order${oids.length === 1 ? "" : "s"} ` +
    `${named}, and a fee it cannot count is never counted as $0`
  );
}

/** How the settings are named in messages (`rimuhosting:monthlyBudgetUsd`, or an explicit provider's argument). */
export type LimitNames = Record<Limit, string>;

export class FeeLedger {
  /** resource key -> its fee. */
  private readonly entries = new Map<string, VpsFee>();
  /** What the account is billed now (every active order), once read; undefined until then. */
  private account?: AccountBilled;

  /** The account's fees now: the sum of every active order's monthly fee (read once per run). */
  billedNow(billed: AccountBilled): void {
    this.account ??= billed;
  }

  /** What the account was billed when the run read it (undefined: not read). */
  get billed(): AccountBilled | undefined {
    return this.account;
  }

  /** Whether the totals start from the account's listing (false: only from the VPSs checked so far). */
  get ofAccount(): boolean {
    return this.account !== undefined;
  }

  /** The account's active orders with no fee reported (the totals leave them out, so they are not the total). */
  get unpriced(): readonly number[] {
    return this.account?.unpriced ?? [];
  }

  /** Sets `resource`'s fee, replacing its earlier entry and keeping the fee it is billed now. */
  record(resource: string, fee: VpsFee): void {
    const earlier = this.entries.get(resource);
    this.entries.set(resource, { ...fee, nowCents: fee.nowCents ?? earlier?.nowCents });
  }

  /**
   * Whether a check of this run went over a limit in `warn` mode: from then on every check warns with the totals,
   * so that the run's last warning gives its final total (budget.ts).
   */
  warnedOver = false;

  /** Whether this run said that the account was over its monthly budget before the run (budget.ts), once a run. */
  saidAccountOver = false;

  /** The figures of the totals this run last said as a line of the preview (budget.ts), to say each once. */
  saidSoFar?: string;

  fee(resource: string): VpsFee | undefined {
    return this.entries.get(resource);
  }

  /** Every checked VPS's fee, by resource: the run's plan so far (the guard counts what it has not applied yet). */
  checked(): ReadonlyMap<string, VpsFee> {
    return this.entries;
  }

  /**
   * The totals of the VPSs checked so far; `others`: those other providers of the command checked (shared-plan.ts),
   * and `accountCents`, what their changes move the account's listing by beside their fees (an order listed beside
   * its replacement counted once, one cancelled first for a replacement not listed yet still counted).
   */
  totals(others: readonly VpsFee[] = [], accountCents = 0): BudgetTotals {
    const fees = [...this.entries.values(), ...others];
    const base =
      this.account === undefined
        ? fees.reduce((sum, fee) => sum + (fee.nowCents ?? 0), 0)
        : this.account.cents + accountCents;
    return totalsOf(base, fees);
  }
}

/** How many VPSs a message names as adding the most. */
const NAMED = 3;

/** "web-1 +$10.00 (new), db +$6.00 ($10.00 → $16.00)". */
function addersWords(adders: readonly Adder[]): string {
  const named = adders.slice(0, NAMED).map((adder) => {
    const what =
      adder.nowCents === undefined ? "new" : `${dollars(adder.nowCents)} → ${dollars(adder.afterCents)}`;
    return `${adder.name} +${dollars(adder.addsCents)} (${what})`;
  });
  const rest = adders.length - named.length;
  return named.join(", ") + (rest > 0 ? ` and ${rest} more` : "");
}

/** How a message about the account's totals names them (accountOverInRun finds them by these words). */
const ACCOUNT_FEES = "the account's monthly fees";

/** What the totals cover: the account with the changes checked so far, or only the VPSs checked so far. */
function scopeWords(totals: BudgetTotals, ofAccount: boolean): string {
  const vpss = totals.count === 1 ? "the 1 VPS" : `the ${totals.count} VPSs`;
  return ofAccount
    ? `${ACCOUNT_FEES} (every active order on it, with the changes of ${vpss} checked so far)`
    : `the monthly fees of ${vpss} checked so far (the account's orders could not be read)`;
}

/**
 * The totals in words: before and after, over or within each limit, and the run's increase. Said by each message
 * about the totals, over a limit or not.
 */
export function totalsWords(
  limits: Limits,
  totals: BudgetTotals,
  names: LimitNames,
  ofAccount: boolean,
): string {
  const passed = limitsPassed(limits, totals);
  const over = (key: Limit) => (passed.includes(key) ? "over" : "within");
  const budget =
    limits.monthlyBudgetUsd === undefined
      ? "no monthly budget is set"
      : `${over("monthlyBudgetUsd")} the monthly budget of ${dollars(cents(limits.monthlyBudgetUsd))} (${names.monthlyBudgetUsd})`;
  const increase =
    limits.maxMonthlyIncreaseUsd === undefined
      ? ""
      : `, ${over("maxMonthlyIncreaseUsd")} the ${dollars(cents(limits.maxMonthlyIncreaseUsd))} one run may add (${names.maxMonthlyIncreaseUsd})`;
  return (
    `this run takes ${scopeWords(totals, ofAccount)} from ${dollars(totals.beforeCents)} ` +
    `to ${dollars(totals.afterCents)}, ${budget}; it adds ${dollars(totals.increaseCents)} a month (new VPSs and ` +
    `growing changes; shrinks are not netted)${increase}`
  );
}

/** The account's figures a provider's message of totalsWords' gives, in cents. */
export interface AccountTotalsSaid {
  /** How many VPSs the totals count the changes of (the checks so far, the other providers' of the command too). */
  count: number;
  /** Every active order of the account, as the run read it. */
  beforeCents: number;
  /** With the changes checked so far: what the budget judges (a VPS the run deletes still counts, until deleted). */
  afterCents: number;
  /** The monthly budget, when one is set. */
  budgetCents?: number;
  /** Whether the totals are over the monthly budget. */
  over: boolean;
}

/**
 * The account's figures in a message of totalsWords' (the preview's line of the totals so far, an over-budget
 * message); undefined for any other message, and for totals of the VPSs alone (the account could not be read). The
 * bill reads the provider's figures for the account with it, from the words this module writes.
 */
export function accountTotalsIn(message: string): AccountTotalsSaid | undefined {
  const amount = String.raw`\$(\d+\.\d\d)`;
  const match = new RegExp(
    String.raw`this run takes ${ACCOUNT_FEES} \(every active order on it, with the changes of the (\d+) VPSs? ` +
      String.raw`checked so far\) from ${amount} to ${amount}, (?:(within|over) the monthly budget of ${amount}|no monthly budget is set)`,
  ).exec(message);
  if (!match) return undefined;
  const [count, before, after, stand, budget] = match.slice(1, 6);
  return {
    count: Number(count),
    beforeCents: cents(Number(before)),
    afterCents: cents(Number(after)),
    ...(budget === undefined ? {} : { budgetCents: cents(Number(budget)) }),
    over: stand === "over",
  };
}

/** The account's figures in a provider's message that says the run takes the account over its monthly budget. */
export interface AccountOverInRun {
  beforeCents: number;
  afterCents: number;
  budgetCents: number;
}

/** accountTotalsIn's figures when the message says the run takes the account over its monthly budget. */
export function accountOverInRun(message: string): AccountOverInRun | undefined {
  const said = accountTotalsIn(message);
  if (!said?.over || said.budgetCents === undefined) return undefined;
  return { beforeCents: said.beforeCents, afterCents: said.afterCents, budgetCents: said.budgetCents };
}

/** How the preview's line of the account's totals so far begins (budget.ts says it; the bill reads it). */
export const BUDGET_SO_FAR = "the budget so far";

/**
 * The preview's line of the totals so far, said with a check whose totals differ from the last said (and with the
 * run's first check): the account before and with the changes checked so far, against each limit. The bill takes
 * the account's figures from the run's last (cost.md, "The bill in the pull request").
 */
export function budgetSoFarWords(
  limits: Limits,
  totals: BudgetTotals,
  names: LimitNames,
  ofAccount: boolean,
): string {
  return `${BUDGET_SO_FAR}: ${totalsWords(limits, totals, names, ofAccount)}`;
}

/**
 * Why a run that ends within the budget can still be over it: what the budget judges is the account at the run's
 * highest point, and the engine deletes the VPSs a program no longer declares after the run's orders and changes.
 */
export const DELETES_COUNT =
  "A VPS this run deletes counts until it is deleted, which the engine does after the run's orders and changes " +
  "(delete it in a run of its own first to make room)";

/**
 * The message of a run over its limits: the totals before and after, the budget, the run's increase (and its
 * limit), and the VPSs that add the most. Undefined when no limit is passed.
 */
export function overBudgetMessage(
  limits: Limits,
  totals: BudgetTotals,
  names: LimitNames,
  ofAccount: boolean,
): string | undefined {
  if (limitsPassed(limits, totals).length === 0) return undefined;
  return (
    `${totalsWords(limits, totals, names, ofAccount)}. Adding the most: ${addersWords(totals.adders)}. ` +
    `${DELETES_COUNT}. Raise the limit, or order less in this run`
  );
}

/** How the provider's warning of an account over its budget before the run begins (the bill finds it by these words). */
export const ACCOUNT_OVER_BEFORE_RUN =
  "the account is over its monthly budget before this run changes anything";

/**
 * The account over its monthly budget before the run changes anything, with the live figures and what to do;
 * undefined when it is within it. Said once a run, whatever the run plans: a no-op preview passes, and says it. What
 * took it over is not known here: an order or a resize by hand, another stack, a VPS changed and not refreshed, or
 * this stack's own VPSs (a run that deletes them to make room included: the engine never asks a preview about a
 * delete) against a budget lowered since; so the words blame none of them.
 */
export function accountOverWords(
  budgetUsd: number | undefined,
  billed: AccountBilled | undefined,
  name: string,
): string | undefined {
  if (budgetUsd === undefined || billed === undefined || billed.cents <= cents(budgetUsd)) return undefined;
  return (
    `${ACCOUNT_OVER_BEFORE_RUN}: its active orders are billed ${dollars(billed.cents)} a month (this stack's, ` +
    `other stacks' and any made by hand), over the monthly budget of ${dollars(cents(budgetUsd))} (${name}). Until ` +
    `it is back within, only changes that add nothing are let through; a VPS this run deletes counts until it is ` +
    `deleted, after the run's orders and changes. If a VPS of this stack was changed by hand, \`pulumi refresh ` +
    `--preview-only\` shows which, and \`pulumi up --refresh\` puts it back as the program says; otherwise raise ` +
    `the limit, cancel an order, or delete VPSs in a run of their own first`
  );
}
