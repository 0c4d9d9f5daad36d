/**
 * The bill's verdicts, in whole cents: each budget's (the stack config's, or an explicit provider's arguments), for
 * the VPSs of this stack it covers, with the cost model every judge shares (impl/cost/: the settings read strictly,
 * the fee of each kind of change, the verdict: a VPS fails only when its own change adds while the totals are over
 * a limit, a price not known is never $0); and the command line's thresholds on the stack's monthly change.
 *
 * The provider's budget counts every VPS its API key reaches; a preview shows only this stack's. So the monthly
 * budget is judged on the account's figures the provider's check said in the preview (its line of the totals so far,
 * cost/ledger.ts: the account before, and at the run's highest point, a VPS it deletes still billed), with this
 * stack's own change beside them; from a preview that gives none (an older provider, an account it could not read)
 * only on this stack's VPSs, claiming no room to spare. The provider's own messages in the preview are quoted
 * beside it: an error of the provider's fails the verdict whatever the bill counted.
 */
import { feeAfterChange, type ChangeKind as CostKind } from "../impl/cost/fee.js";
import { cents, dollars, type Priced } from "../impl/cost/money.js";
import { readBudgetSettings, type BudgetSetting } from "../impl/cost/setting.js";
import {
  ACCOUNT_OVER_BEFORE_RUN,
  accountOverInRun,
  accountTotalsIn,
  type AccountTotalsSaid,
} from "../impl/cost/ledger.js";
import {
  judgementOf,
  verdictOf,
  type BudgetTotals,
  type Judgement,
  type RunVerdict,
  type VpsFee,
} from "../impl/cost/verdict.js";
import { settingName, settingsPlace } from "../impl/engine/settings-source.js";
import type { ChangeKind, Fee } from "./fee.js";
import { signedCents } from "./md-text.js";

export type VerdictStatus = "pass" | "warn" | "fail" | "none";

/** What a budget's verdict is judged on. */
export interface ScopeInput {
  /** The explicit provider whose arguments are the budget; undefined: the stack config. */
  provider?: string;
  /** The settings as the preview shows them; `{ unreadable: why }` for a secret or unknown value. */
  settings: Partial<Record<BudgetSetting, unknown>>;
  vpss: readonly { name: string; kind: ChangeKind; before: Fee; after: Fee }[];
  /**
   * The provider's messages about this budget in the preview, verbatim: errors and warnings (quoted), and its lines
   * of the account's totals so far (severity info: read for the account's figures, not quoted).
   */
  providerMessages: readonly { severity: string; message: string }[];
  /** False when the preview stopped early: the VPSs after the one it stopped at are not listed. */
  complete: boolean;
}

export interface ScopeVerdict {
  provider?: string;
  status: VerdictStatus;
  /** One line per limit or problem: what it is and how the run stands against it. */
  lines: string[];
  providerMessages: string[];
  /** The stack's fees after the run (a VPS not priced at its fee now), and what the run adds. */
  afterCents: number;
  increaseCents: number;
  /** The VPSs whose fee after the run is not priced. */
  unpriced: string[];
  /** Over a limit, but the run lowers or keeps the total: it passes, as the provider passes it (cost/verdict.ts). */
  overButNotBlocked: boolean;
  /** The account's figures, as the provider's check said them in the preview; undefined when it gave none. */
  account?: AccountFigures;
}

/** The account the budget covers (every active order its API key reaches), in cents a month. */
export interface AccountFigures {
  /** Before the run. */
  beforeCents: number;
  /** What the budget judges: the run's orders and changes made, the VPSs it deletes still billed. */
  judgedCents: number;
  /** Once the VPSs this stack's run deletes are deleted too (undefined: a deleted VPS's fee is not known). */
  afterCents?: number;
  /** The monthly budget less judgedCents (below 0: over it); undefined without a monthly budget. */
  spareCents?: number;
  /** This stack's own change, over the VPSs of this budget (deletes included); undefined when one is not priced. */
  stackChangeCents?: number;
  /** How many VPSs of this budget the run deletes. */
  deletes: number;
}

/**
 * The provider's last figures for the account in the preview: of the message that counts the most VPSs' changes
 * (the latest check; a later one with the same count, as a replacement's create checked again, wins).
 */
function accountSaid(messages: ScopeInput["providerMessages"]): AccountTotalsSaid | undefined {
  let last: AccountTotalsSaid | undefined;
  for (const m of messages) {
    const said = accountTotalsIn(m.message);
    if (said && (last === undefined || said.count >= last.count)) last = said;
  }
  return last;
}

/** The worst judgement of the VPSs with these totals (cost/verdict.ts's rule, on the account's figures). */
function judgementWith(settings: Parameters<typeof judgementOf>[0], totals: BudgetTotals, fees: VpsFee[]) {
  const worst: readonly Judgement[] = ["none", "fits", "over", "unknown"];
  let judgement: Judgement =
    settings.monthlyBudgetUsd === undefined && settings.maxMonthlyIncreaseUsd === undefined ? "none" : "fits";
  for (const fee of fees) {
    const one = judgementOf(settings, totals, fee);
    if (worst.indexOf(one) > worst.indexOf(judgement)) judgement = one;
  }
  return judgement;
}

/**
 * What several stacks running at once may still do, said under a monthly budget: the bill (and the preview) of one
 * stack sees the account as it is and this stack's changes only.
 */
export const CONCURRENT_RUNS =
  "Other runs under way at the same time (another stack's, another pull request's) are not in these figures. " +
  "When several run at once, the guard at each order holds the budget: a new order that would take the account " +
  "over it is refused, or withdrawn right after it is placed; a resize or move is judged on the account as it is " +
  'at that moment (docs/cost.md, "Several runs at once").';

/** The cost model's kind of each of the bill's changes (a delete counts until it is made: cost/fee.ts). */
const COST_KINDS: Record<ChangeKind, CostKind> = {
  delete: "deleted",
  create: "new",
  adopt: "adopted",
  import: "imported",
  resize: "resize",
  move: "move",
  "move and resize": "resize",
  update: "unchanged",
  replace: "replacement",
  same: "unchanged",
};

/** A VPS of the bill as the cost model counts it. */
function costFee(vps: ScopeInput["vpss"][number]): VpsFee {
  const nowCents = "cents" in vps.before ? vps.before.cents : undefined;
  const quote: Priced =
    "cents" in vps.after ? vps.after : { why: "unknown" in vps.after ? vps.after.unknown : "" };
  return feeAfterChange({ name: vps.name, kind: COST_KINDS[vps.kind], nowCents, quote });
}

/** Whether the totals pass a limit: the monthly budget on the account's figures when the provider said them. */
function limitsOver(
  settings: { monthlyBudgetUsd?: number; maxMonthlyIncreaseUsd?: number },
  said: AccountTotalsSaid | undefined,
  totals: BudgetTotals,
): boolean {
  const after = said?.afterCents ?? totals.afterCents;
  return (
    (settings.monthlyBudgetUsd !== undefined && after > cents(settings.monthlyBudgetUsd)) ||
    (settings.maxMonthlyIncreaseUsd !== undefined &&
      totals.increaseCents > cents(settings.maxMonthlyIncreaseUsd))
  );
}

/** The account's figures of the bill: the provider's, with this stack's deletes and its own change. */
function accountFigures(
  said: AccountTotalsSaid,
  vpss: ScopeInput["vpss"],
  budgetUsd: number | undefined,
  allPriced: boolean,
): AccountFigures {
  // A delete is not a check: the provider's figures count the VPS until it is deleted, after the run's orders.
  const deletes = vpss.filter((v) => v.kind === "delete");
  const deletedCents = deletes.every((v) => "cents" in v.before)
    ? deletes.reduce((sum, v) => sum + ("cents" in v.before ? v.before.cents : 0), 0)
    : undefined;
  const amount = (fee: Fee): number => ("cents" in fee ? fee.cents : 0);
  const change = vpss.reduce((sum, v) => sum + amount(v.after) - amount(v.before), 0);
  return {
    beforeCents: said.beforeCents,
    judgedCents: said.afterCents,
    deletes: deletes.length,
    ...(deletedCents === undefined ? {} : { afterCents: said.afterCents - deletedCents }),
    ...(budgetUsd === undefined ? {} : { spareCents: cents(budgetUsd) - said.afterCents }),
    ...(allPriced ? { stackChangeCents: change } : {}),
  };
}

/**
 * The monthly budget's line on the account's figures: the account before and at the run's highest point (what is
 * judged), over or within it (and what is left), once the deletes are made, and this stack's own change.
 */
function accountWords(account: AccountFigures, limitCents: number, judgement: Judgement): string {
  const { beforeCents, judgedCents, afterCents } = account;
  const them = account.deletes === 1 ? "the VPS it deletes is" : `the ${account.deletes} VPSs it deletes are`;
  const pending = account.deletes > 0 ? ` while ${them} still billed` : "";
  const stand =
    judgedCents > limitCents
      ? `${dollars(judgedCents - limitCents)} over it` +
        (judgement === "fits" ? " (this run lowers or keeps it, so it is not blocked)" : "")
      : `within it (${dollars(limitCents - judgedCents)} to spare)`;
  const afterDeletes =
    account.deletes === 0
      ? ""
      : afterCents === undefined
        ? "; a delete counts until it is made, after the run's orders and changes"
        : `, and to ${dollars(afterCents)} once ${account.deletes === 1 ? "it is" : "they are"} deleted (a delete counts until it is made, after the ` +
          `run's orders and changes)`;
  const own =
    account.stackChangeCents === undefined
      ? ""
      : `; this stack's own change is ${signedCents(account.stackChangeCents)} a month`;
  return (
    `this run takes the account (every active order its API key reaches, other stacks' too) from ` +
    `${dollars(beforeCents)} to ${dollars(judgedCents)} a month${pending}, ${stand}${afterDeletes}${own}.`
  );
}

/**
 * Why a run that ends within the monthly budget fails it: a VPS whose change adds is judged before the changes after
 * it that lower the fees, with the totals at its turn (cost/verdict.ts), as the provider's check judges it.
 */
function turnWords(turn: NonNullable<RunVerdict["firstOver"]>, limitCents: number): string {
  const at = turn.totals.afterCents;
  return (
    `within it at the end, but ${turn.name}'s change is checked before the changes that lower the fees, and each ` +
    `VPS is judged with the changes checked before it, as the provider judges it: at ${turn.name}'s change they ` +
    `are ${dollars(at)}, ${dollars(at - limitCents)} over it; give ${turn.name} \`dependsOn\` the VPSs whose ` +
    `changes lower the fees`
  );
}

/** The verdict of one budget (see the header): the bill's judge, which the shared table of cases also calls. */
export function judgeScope(input: ScopeInput): ScopeVerdict {
  const unreadable: string[] = [];
  const get = (key: BudgetSetting): unknown => {
    const value = input.settings[key];
    if (typeof value === "object" && value !== null && "unreadable" in value) {
      unreadable.push(
        `${settingName(key, input.provider)}: the bill cannot read it: ${String(value.unreadable)}.`,
      );
      return undefined;
    }
    return value;
  };
  const { settings, problems } = readBudgetSettings(get, {
    name: (key) => settingName(key, input.provider),
    place: () => settingsPlace(input.provider),
  });
  // The provider judges the account (every order its key reaches); this stack's VPSs are only part of it. When
  // the provider said the account is over before the run, the stack's own figures cannot say "to spare".
  const accountOver = input.providerMessages.some((m) => m.message.includes(ACCOUNT_OVER_BEFORE_RUN));
  // And when the provider refused the run for the account's total (other orders on it: another run's, another
  // stack's, another provider's), the bill says the account's figures, not what this stack's VPSs leave "to spare".
  const accountRun = input.providerMessages
    .filter((m) => m.severity === "error")
    .map((m) => accountOverInRun(m.message))
    .find((figures) => figures !== undefined);
  const fees = input.vpss.map(costFee);
  const billedNow = fees.reduce((sum, fee) => sum + (fee.nowCents ?? 0), 0);
  const run = verdictOf(settings, billedNow, fees);
  const { totals } = run;
  const unpriced = totals.unknown.map((u) => u.name);
  // The account's figures, as the provider's check said them: the monthly budget is judged on them (one verdict with
  // the preview's), the increase on this stack's VPSs (its own run's).
  const said = input.complete ? accountSaid(input.providerMessages) : undefined;
  const account = said && accountFigures(said, input.vpss, settings.monthlyBudgetUsd, unpriced.length === 0);
  const judgement = said
    ? judgementWith(settings, { ...totals, beforeCents: said.beforeCents, afterCents: said.afterCents }, fees)
    : run.judgement;
  const verdict: ScopeVerdict = {
    provider: input.provider,
    status: "none",
    lines: [...problems, ...unreadable],
    providerMessages: input.providerMessages.filter((m) => m.severity !== "info").map((m) => m.message),
    afterCents: totals.afterCents,
    increaseCents: totals.increaseCents,
    unpriced,
    overButNotBlocked: judgement === "fits" && limitsOver(settings, said, totals),
    ...(account === undefined ? {} : { account }),
  };
  // A preview that stopped lists only the VPSs before it: their figures are said as incomplete, and none at all
  // (never a $0.00 of nothing) when it listed none (issue 55).
  const listed = input.vpss.length;
  // A VPS the run deletes counts until it is deleted (cost/fee.ts): the figure is the run's highest point then.
  const deleting = input.vpss.filter((v) => v.kind === "delete").length;
  const whenWords =
    deleting === 0
      ? "after this run"
      : `while the ${deleting === 1 ? "VPS it deletes is" : `${deleting} VPSs it deletes are`} still billed (a ` +
        `delete counts until it is made, after the run's orders and changes)`;
  const incomplete = " (incomplete: the VPSs after them are not counted)";
  for (const key of ["monthlyBudgetUsd", "maxMonthlyIncreaseUsd"] as const) {
    const limit = settings[key];
    if (limit === undefined) continue;
    const limitCents = cents(limit);
    const name = settingName(key, input.provider);
    const head =
      key === "monthlyBudgetUsd"
        ? `Monthly budget ${dollars(limitCents)} (${name})`
        : `Largest increase ${dollars(limitCents)} a month (${name})`;
    if (!input.complete && listed === 0) {
      verdict.lines.push(
        `${head}: not judged: the preview stopped before it listed any VPS (the provider's verdict is below).`,
      );
      continue;
    }
    if (key === "monthlyBudgetUsd" && account !== undefined && unpriced.length === 0) {
      verdict.lines.push(`${head}: ${accountWords(account, limitCents, judgement)}`, CONCURRENT_RUNS);
      continue;
    }
    const counted = key === "monthlyBudgetUsd" ? totals.afterCents : totals.increaseCents;
    const vpssWords = input.complete
      ? "this stack's VPSs cost"
      : `the ${listed} VPS${listed === 1 ? "" : "s"} the preview listed before it stopped cost`;
    const runWords = input.complete ? "this run adds" : "what the preview listed before it stopped adds";
    const what =
      key === "monthlyBudgetUsd"
        ? `${head}: ${vpssWords} ${dollars(counted)} a month ${whenWords}${input.complete ? "" : incomplete}`
        : `${head}: ${runWords} ${dollars(counted)} a month (new VPSs and growing changes; shrinks and deletes are not netted)${input.complete ? "" : incomplete}`;
    const stand =
      key === "monthlyBudgetUsd" && accountOver && counted <= limitCents
        ? "but the account it covers is over it before this run (the provider's figures below)"
        : key === "monthlyBudgetUsd" && accountRun && input.complete && counted <= limitCents
          ? `but this run takes the account it covers from ${dollars(accountRun.beforeCents)} to ` +
            `${dollars(accountRun.afterCents)}, ${dollars(accountRun.afterCents - accountRun.budgetCents)} over it ` +
            `(the provider's verdict below)`
          : counted > limitCents
            ? `${dollars(counted - limitCents)} over it${judgement === "fits" ? " (this run lowers or keeps it, so it is not blocked)" : ""}`
            : key === "monthlyBudgetUsd" && run.firstOver?.passed.includes(key) && judgement === "over"
              ? turnWords(run.firstOver, limitCents)
              : unpriced.length > 0
                ? `not judged: ${unpriced.join(", ")} not priced (never counted as $0)`
                : !input.complete
                  ? "not judged: the preview stopped before the end (the provider's verdict is below)"
                  : key === "monthlyBudgetUsd"
                    ? // No figure of the account's: what is left of the budget is not known here (never the stack's).
                      "within it; the preview gives no total of the account (every active order its API key " +
                      "reaches), so what is left of the budget is not known here"
                    : "within it";
    verdict.lines.push(`${what}, ${stand}.`);
  }
  const warnOnly = settings.enforcement === "warn";
  const errors = input.providerMessages.some((m) => m.severity === "error");
  const warnings = input.providerMessages.some((m) => m.severity === "warning");
  // Over, or not priced: enforce fails, warn warns (never $0). What the bill cannot read or see, it warns of.
  const blocked = judgement === "over" || judgement === "unknown";
  // Over a limit on a run that lowers or keeps the total: it passes (the cost model's verdict), and its line says so.
  const doubt = unreadable.length > 0 || (judgement !== "none" && !input.complete);
  if (errors || problems.length > 0 || (blocked && !warnOnly)) verdict.status = "fail";
  else if (warnings || blocked || doubt) verdict.status = "warn";
  else if (judgement === "fits") verdict.status = "pass";
  return verdict;
}

/** A threshold of the command line: an amount of USD a month, or a percentage of the stack's fees before. */
export type Threshold = { cents: number } | { percent: number };

/** `25`, `25.50` or `10%`: digits only (no `1e3`, `0x10`, sign or empty), as the budget's settings. */
export function parseThreshold(text: string): Threshold | undefined {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text.trim());
  if (!match) return undefined;
  return match[2] ? { percent: Number(match[1]) } : { cents: cents(Number(match[1])) };
}

export const thresholdText = (t: Threshold): string =>
  "cents" in t ? `${dollars(t.cents)} a month` : `${t.percent} %`;

/** The stack's monthly change: before and after over the priced VPSs, and the VPSs not priced. */
export interface Change {
  beforeCents: number;
  afterCents: number;
  unpriced: string[];
}

/** Whether the change is over a threshold: its rise (not a fall) over the amount or the percentage. */
export function isOver(change: Change, t: Threshold): boolean {
  const rise = change.afterCents - change.beforeCents;
  if ("cents" in t) return rise > t.cents;
  if (rise <= 0) return false;
  // From nothing, any rise is over any percentage.
  return change.beforeCents === 0 || (rise * 100) / change.beforeCents > t.percent;
}

/** Whether the change, rise or fall, is under a quiet threshold. */
export function isUnder(change: Change, t: Threshold): boolean {
  const size = Math.abs(change.afterCents - change.beforeCents);
  if ("cents" in t) return size < t.cents;
  return change.beforeCents > 0 && (size * 100) / change.beforeCents < t.percent;
}

export interface ThresholdVerdict {
  status: VerdictStatus;
  lines: string[];
}

/**
 * The thresholds' verdict: a failing one crossed fails, a warning one warns; with a VPS not priced, a threshold the
 * priced VPSs stay under is not judged, which fails a failing threshold (never $0) and warns a warning one.
 */
export function judgeThresholds(
  change: Change,
  thresholds: { warn: Threshold[]; fail: Threshold[] },
): ThresholdVerdict {
  const lines: string[] = [];
  let status: VerdictStatus = thresholds.warn.length + thresholds.fail.length > 0 ? "pass" : "none";
  const worse = (s: VerdictStatus) => {
    if (s === "fail" || (s === "warn" && status !== "fail")) status = s;
  };
  for (const [level, list] of [
    ["fail", thresholds.fail],
    ["warn", thresholds.warn],
  ] as const) {
    for (const t of list) {
      const name = `--${level}-over ${"cents" in t ? (t.cents / 100).toString() : `${t.percent}%`}`;
      if (isOver(change, t)) {
        lines.push(`The monthly change is over ${thresholdText(t)} (${name}).`);
        worse(level);
      } else if (change.unpriced.length > 0) {
        lines.push(
          `Not judged against ${thresholdText(t)} (${name}): ${change.unpriced.join(", ")} not priced (never counted as $0).`,
        );
        worse(level);
      }
    }
  }
  return { status, lines };
}
