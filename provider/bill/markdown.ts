/**
 * A bill (bill.ts) as the Markdown of one pull-request comment, GitHub's flavour: a headline with the monthly
 * change (`+$6.00 a month ▲ (+15 %)`), a table of the VPSs that change (every VPS folded below it), the VPSs not
 * priced (⚠️, never $0), what deletes mean for credits, and the verdicts: each budget's, the thresholds', the
 * policy packs'. Its first line is a hidden marker naming the stack, by which a workflow finds the stack's comment
 * to update (docs/ci.md); a quiet bill carries a second marker, so a workflow can skip posting it.
 */
import { dollars } from "../impl/cost/money.js";
import type { Bill, Fee, VpsLine } from "./bill.js";
import type { Change, ScopeVerdict, ThresholdVerdict, VerdictStatus } from "./judge.js";
import { block, cell, code, signedCents } from "./md-text.js";
import { policyLines } from "./policy-lines.js";
import type { Comparison, MissingBaseline } from "./compare.js";
import { comparisonLines } from "./compare-markdown.js";
import { changeCents, changeOf, columnSum, percentOf, priced } from "./totals.js";

export { changeOf } from "./totals.js";

/** The start of every bill's hidden first line: `<!-- rimuhosting-bill: shop/prod -->`. */
export const BILL_MARKER = "<!-- rimuhosting-bill";
/** The hidden second line of a quiet bill (below the `--quiet-under` threshold, nothing to say). */
export const QUIET_MARKER = "<!-- rimuhosting-bill: quiet -->";

/** The stack's marker: the comment of this stack, and no other, starts with it. */
export const markerOf = (bill: Bill): string =>
  `${BILL_MARKER}: ${bill.project ?? "?"}/${bill.stack ?? "?"} -->`;

/** GitHub refuses comments over 65,536 characters; rows beyond this many are summed in one line. */
const MAX_ROWS = 150;

/** `+$6.00 a month ▲ (+15 %)`; `-$2.00 a month ▼ (-5 %)`; `No change to the monthly fees`. */
export function headline(change: Change): string {
  const delta = change.afterCents - change.beforeCents;
  const unpriced = change.unpriced.length;
  const warn = unpriced > 0 ? ` · ⚠️ ${unpriced} VPS${unpriced === 1 ? "" : "s"} not priced` : "";
  if (delta === 0)
    return unpriced > 0
      ? `⚠️ The monthly change is not known: ${unpriced} VPS${unpriced === 1 ? " is" : "s are"} not priced`
      : "No change to the monthly fees";
  const arrow = delta > 0 ? "▲" : "▼";
  const percent = percentOf(change);
  const shown = percent === undefined ? "" : ` (${delta > 0 ? "+" : ""}${percent} %)`;
  const of = unpriced > 0 ? " on the priced VPSs" : "";
  return `${signedCents(delta)} a month ${arrow}${shown}${of}${warn}`;
}

/** `resize: memoryMb 1024 → 2048`: what happens to the VPS. */
function whatChanges(v: VpsLine): string {
  const word = v.kind === "same" ? "unchanged" : v.kind;
  return v.changes.length > 0 ? `${word}: ${v.changes.join(", ")}` : word;
}

/** A fee's cell; one not priced is ⚠️ with a footnote giving the reason. */
function feeCell(fee: Fee, notes: string[], name: string): string {
  if ("cents" in fee) return dollars(fee.cents);
  if ("none" in fee) return "—";
  const note = `${code(name)}: not priced: ${fee.unknown}.`;
  if (!notes.includes(note)) notes.push(note);
  return `⚠️ not priced [${notes.indexOf(note) + 1}]`;
}

function row(v: VpsLine, notes: string[]): string {
  const before = feeCell(v.before, notes, v.name);
  const after = feeCell(v.after, notes, v.name);
  const delta = priced(v) ? signedCents(changeCents(v)!) : "⚠️";
  const who = v.provider === undefined ? "" : ` (provider ${code(v.provider)})`;
  return `| ${cell(code(v.name) + who)} | ${cell(whatChanges(v))} | ${before} | ${after} | ${delta} |`;
}

const HEADER = ["| VPS | Change | Before | After | Monthly change |", "| --- | --- | ---: | ---: | ---: |"];

/** A column's total: the sum of the fees known, marked ⚠️ when some are not priced (never shown as $0). */
function columnTotal(fees: readonly Fee[]): string {
  const sum = columnSum(fees);
  if (sum.complete) return `**${dollars(sum.cents)}**`;
  return sum.anyKnown ? `**${dollars(sum.cents)}** + ⚠️` : "⚠️";
}

function table(vpss: readonly VpsLine[], notes: string[], label: string): string[] {
  const lines = [...HEADER, ...vpss.slice(0, MAX_ROWS).map((v) => row(v, notes))];
  const rest = vpss.length - Math.min(vpss.length, MAX_ROWS);
  if (rest > 0) lines.push(`| ${rest} more VPSs | (not listed: the comment would be too long) | | | |`);
  const unpriced = vpss.filter((v) => !priced(v));
  const delta = vpss.reduce((sum, v) => sum + (changeCents(v) ?? 0), 0);
  const deltaCell = unpriced.length === 0 ? `**${signedCents(delta)}**` : "⚠️";
  const [before, after] = [columnTotal(vpss.map((v) => v.before)), columnTotal(vpss.map((v) => v.after))];
  lines.push(`| **${label}** | | ${before} | ${after} | ${deltaCell} |`);
  if (unpriced.length > 0)
    lines.push(
      `| ⚠️ **Not priced** | ${unpriced.length} VPS${unpriced.length === 1 ? "" : "s"}: ${cell(unpriced.map((v) => code(v.name)).join(", "))} | | | not counted |`,
    );
  return lines;
}

/** What the preview can say about the credits of the VPSs this run cancels. */
function creditLines(bill: Bill): string[] {
  const cancelled = bill.vpss.filter((v) => v.kind === "delete" || v.kind === "replace");
  if (cancelled.length === 0) return [];
  return [
    `**Credits.** This run cancels ${cancelled.map((v) => code(v.name)).join(", ")}: RimuHosting credits the unused ` +
      "part of the period each is paid for. The preview cannot tell the amount (the state does not record how far " +
      "an order is paid); `pulumi up` logs it for each VPS.",
    "",
  ];
}

/**
 * The VPSs RimuHosting will end although this run keeps them (cancelled outside Pulumi): the preview warns of each,
 * and a bill that only said "No change" would hide it.
 */
function endingLines(bill: Bill): string[] {
  return bill.vpss.flatMap((v) => {
    if (v.endsAt === undefined) return [];
    const fee = "cents" in v.before ? `its ${dollars(v.before.cents)} a month` : "its fee";
    return [
      `⚠️ **Cancelled outside Pulumi.** RimuHosting ends ${code(v.name)} at ${v.endsAt}, though this run keeps ` +
        `it: ${fee} stops then, and the VPS with it (the preview's warning says how to keep it).`,
      "",
    ];
  });
}

const TITLES: Record<VerdictStatus, string> = {
  pass: "✅ within",
  warn: "⚠️ warning",
  fail: "❌ failed",
  none: "no budget set",
};

function budgetLines(budget: ScopeVerdict): string[] {
  const whose = budget.provider === undefined ? "stack config" : `provider ${code(budget.provider)}`;
  const title =
    budget.status === "pass" && budget.overButNotBlocked
      ? "✅ not blocked: this run lowers or keeps the total"
      : TITLES[budget.status];
  const lines = [`**Budget (${whose}): ${title}.**`];
  if (budget.status === "none" && budget.provider === undefined)
    lines[0] += " Set one with `pulumi config set rimuhosting:monthlyBudgetUsd <USD>`.";
  lines.push(...budget.lines.map((line) => `- ${line}`));
  if (budget.providerMessages.length > 0)
    lines.push("", "The provider's verdict in the preview:", "", block(budget.providerMessages));
  return [...lines, ""];
}

export interface RenderOptions {
  thresholds?: ThresholdVerdict;
  /** With `--compare-to`: the bill against its baseline. */
  comparison?: Comparison | MissingBaseline;
}

/** The totals row of a preview that stopped: its figures are of what it listed, not the stack's (never complete). */
const SO_FAR = "Listed before it stopped (incomplete)";

/** The bill as the Markdown of one pull-request comment (see the header). */
export function renderBill(bill: Bill, options: RenderOptions = {}): string {
  const change = changeOf(bill);
  const title = bill.stack
    ? ` for stack ${code(bill.stack)}${bill.project ? ` (project ${code(bill.project)})` : ""}`
    : "";
  const top =
    bill.stoppedEarly && bill.vpss.length === 0
      ? "The preview stopped before it listed any VPS"
      : `${bill.stoppedEarly ? "So far: " : ""}${headline(change)}`;
  const out: string[] = [markerOf(bill), `### RimuHosting bill${title}`, "", `**${top}**`, ""];
  const notes: string[] = [];
  if (bill.previewErrors.length > 0)
    out.push(
      "**The preview failed**; the bill lists what it got to before it stopped:",
      "",
      block(bill.previewErrors),
      "",
    );
  else if (bill.stoppedEarly)
    out.push("**The preview failed** (below); the bill lists what it got to before it stopped.", "");

  const changed = bill.vpss.filter((v) => v.kind !== "same");
  if (bill.vpss.length === 0) out.push("This preview lists no VPS.", "");
  else {
    if (changed.length === 0) out.push("This preview changes no VPS.", "");
    else out.push(...table(changed, notes, bill.stoppedEarly ? SO_FAR : "Change"), "");
    const all = table(bill.vpss, notes, bill.stoppedEarly ? SO_FAR : "Stack total");
    if (changed.length < bill.vpss.length)
      out.push(
        "<details><summary>All " +
          `${bill.vpss.length} VPS${bill.vpss.length === 1 ? "" : "s"} of the stack</summary>`,
        "",
        ...all,
        "",
        "</details>",
        "",
      );
  }
  if (notes.length > 0) out.push(...notes.map((note, i) => `[${i + 1}] ${note}`), "");
  if (options.comparison) out.push(...comparisonLines(options.comparison));
  out.push(...endingLines(bill));
  out.push(...creditLines(bill));
  for (const budget of bill.budgets) out.push(...budgetLines(budget));
  if (bill.budgets.some((b) => b.status !== "none"))
    out.push(
      "<sub>A provider's budget counts every active order its API key reaches, other stacks' too: the bill takes the " +
        "account's figures from the provider's checks in the preview, and quotes the provider's own verdict.</sub>",
      "",
    );
  if (options.thresholds && options.thresholds.status !== "none") {
    out.push(`**Thresholds: ${TITLES[options.thresholds.status].replace("no budget set", "none")}.**`);
    out.push(...options.thresholds.lines.map((line) => `- ${line}`), "");
  }
  out.push(...policyLines(bill), "");
  out.push(
    "<sub>Fees in USD a month. Before: what RimuHosting bills each order now (`monthlyFeeUsd`); after: " +
      "RimuHosting's quote during the preview (`plannedMonthlyFeeUsd`). Made by `rimuhosting-bill` from " +
      "`pulumi preview --event-log`.</sub>",
  );
  return `${out.join("\n")}\n`;
}

/** A quiet bill: the markers and one line, for a change under the `--quiet-under` threshold. */
export function renderQuiet(bill: Bill, under: string, comparison?: Comparison | MissingBaseline): string {
  const change = changeOf(bill);
  const against = comparison ? `\n${comparisonLines(comparison)[0]}` : "";
  return `${markerOf(bill)}\n${QUIET_MARKER}\nRimuHosting bill for stack ${code(bill.stack ?? "?")}: ${headline(change)}, under ${under}; nothing else to say.${against}\n`;
}
