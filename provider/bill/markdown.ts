/**
 * A bill (bill.ts) as Markdown for a pull-request comment, GitHub's flavour: a table of the changed VPSs and
 * the stack's totals, what deletes and replacements mean for credits, the budget's verdict and the preview's
 * errors. Its first line is a hidden marker, BILL_MARKER, by which a workflow finds the comment to update
 * (docs/ci.md).
 */
import { formatMoney, signed } from "../impl/money.js";
import type { Bill, ChangeKind, Fee, VerdictStatus, VpsChange } from "./bill.js";

/** The hidden first line of every bill: a workflow finds its earlier comment by it. */
export const BILL_MARKER = "<!-- rimuhosting-bill -->";

/** GitHub refuses comments over 65,536 characters; rows beyond this many are summed in one line. */
const MAX_ROWS = 200;

const money = (amount: number): string => formatMoney({ amount, currency: "USD" });
const change = (amount: number): string => signed({ amount, currency: "USD" });

/** A table cell's text: pipes and line breaks would end the cell. */
function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** Inline code that holds any text (a longer run of backticks around one that contains some). */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced block that no line of `text` can close. */
function block(lines: readonly string[]): string {
  const text = lines.join("\n");
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

const KIND_WORDS: Record<ChangeKind, string> = {
  create: "create",
  update: "update",
  replace: "replace",
  delete: "delete",
  import: "import",
  same: "unchanged",
};

/** `resize: memoryMb 1024 → 2048`: what happens to the VPS. */
function whatChanges(c: VpsChange): string {
  const resize =
    c.kind === "update" && c.changes.some((text) => /^(memoryMb|diskSpaceMb|diskSpace2Mb)\b/.test(text));
  const move = c.kind === "update" && c.changes.some((text) => /^dcLocation\b/.test(text));
  const word = resize ? "resize" : move ? "move" : KIND_WORDS[c.kind];
  return c.changes.length > 0 ? `${word}: ${c.changes.join(", ")}` : word;
}

/** A fee's cell, with a footnote number for one that is not known. */
function feeCell(fee: Fee, notes: string[], name: string, when: "before" | "after"): string {
  if ("usd" in fee) return money(fee.usd);
  if ("none" in fee) return "—";
  notes.push(`${code(name)}: the fee ${when} this run is not known: ${fee.unknown}.`);
  return `not known [${notes.length}]`;
}

const amountOf = (fee: Fee): number | undefined => ("usd" in fee ? fee.usd : "none" in fee ? 0 : undefined);

function differenceCell(c: VpsChange): string {
  const [before, after] = [amountOf(c.before), amountOf(c.after)];
  return before === undefined || after === undefined ? "" : change(after - before);
}

const VERDICT_TITLES: Record<VerdictStatus, string> = {
  pass: "✅ within the budget",
  warn: "⚠️ over the budget (advisory: the run may go ahead)",
  fail: "❌ over the budget",
  unjudged: "❔ not judged",
  none: "no budget set",
};

function tableLines(bill: Bill, notes: string[]): string[] {
  const lines = [
    "| VPS | Change | Monthly fee before | Monthly fee after | Difference |",
    "| --- | --- | ---: | ---: | ---: |",
  ];
  const shown = bill.changes.slice(0, MAX_ROWS);
  for (const c of shown) {
    const before = feeCell(c.before, notes, c.name, "before");
    const after = feeCell(c.after, notes, c.name, "after");
    lines.push(
      `| ${cell(code(c.name))} | ${cell(whatChanges(c))} | ${before} | ${after} | ${differenceCell(c)} |`,
    );
  }
  const rest = bill.changes.length - shown.length;
  if (rest > 0)
    lines.push(`| ${rest} more changed VPSs | (not listed: the comment would be too long) | | | |`);
  const { unchanged, totals } = bill;
  if (unchanged.count > 0) {
    const missing =
      unchanged.unknown.length > 0 ? ` (${unchanged.unknown.length} without a recorded fee)` : "";
    lines.push(
      `| ${unchanged.count} unchanged VPS${unchanged.count === 1 ? "" : "s"}${missing} | | ${money(unchanged.usd)} | ${money(unchanged.usd)} | ${change(0)} |`,
    );
  }
  const label = bill.stoppedEarly ? "Listed VPSs" : totals.includesUnchanged ? "Stack total" : "Changed VPSs";
  const atLeast = (unknown: readonly string[]) => (unknown.length > 0 ? "at least " : "");
  lines.push(
    `| **${label}** | | **${atLeast(totals.unknownBefore)}${money(totals.before)}** | **${atLeast(totals.unknownAfter)}${money(totals.after)}** | **${change(bill.increase)}** |`,
  );
  return lines;
}

/** What the preview can say about the credits of the VPSs this run cancels. */
function creditLines(bill: Bill): string[] {
  const cancelled = bill.changes.filter((c) => c.kind === "delete" || c.kind === "replace");
  if (cancelled.length === 0) return [];
  const names = cancelled.map((c) => {
    const fee = amountOf(c.before);
    return `${code(c.name)} (${c.kind === "delete" ? "deleted" : "replaced"}${fee !== undefined ? `, ${money(fee)} a month` : ""})`;
  });
  return [
    `**Credits.** This run cancels ${names.join(", ")}: each one's fee stops, and RimuHosting credits the unused ` +
      "part of the period it is paid for. The preview cannot tell the amount: it depends on how far each order " +
      "is paid, which the stack's state does not record. `pulumi up` logs it for each VPS " +
      "(`Vps <order>: no longer billed …; RimuHosting credited $… for the unused time.`).",
  ];
}

function budgetLines(bill: Bill): string[] {
  const { budget } = bill;
  const lines = [`**Budget: ${VERDICT_TITLES[budget.status]}.**`];
  if (budget.status === "none")
    lines[0] +=
      " Set one with `pulumi config set rimuhosting:monthlyBudgetUsd <USD>` (and `rimuhosting:maxMonthlyIncreaseUsd` for what one run may add).";
  lines.push(...budget.lines.map((line) => `- ${line}`));
  if (budget.providerMessages.length > 0) {
    lines.push("", "The provider's verdict in the preview:", "", block(budget.providerMessages));
  }
  return lines;
}

/** The bill as the Markdown of one pull-request comment (see the header). */
export function renderBill(bill: Bill): string {
  const where = bill.stack
    ? ` for stack ${code(bill.stack)}${bill.project ? ` (project ${code(bill.project)})` : ""}`
    : "";
  const out: string[] = [BILL_MARKER, `### RimuHosting bill${where}`, ""];
  const notes: string[] = [];

  if (bill.previewErrors.length > 0) {
    out.push(
      "**The preview failed**; the bill lists what it got to before it stopped:",
      "",
      block(bill.previewErrors),
      "",
    );
  } else if (bill.stoppedEarly) {
    out.push(
      "**The preview failed on the budget** (below); the bill lists what it got to before it stopped.",
      "",
    );
  }
  if (bill.changes.length === 0 && bill.unchanged.count === 0) {
    out.push("This preview changes no VPS, and lists none.", "");
  } else if (bill.changes.length === 0) {
    out.push("This preview changes no VPS.", "");
    out.push(...tableLines(bill, notes), "");
  } else {
    out.push(...tableLines(bill, notes), "");
  }
  if (!bill.totals.includesUnchanged && !bill.stoppedEarly && bill.changes.length > 0) {
    out.push(
      "The totals cover the changed VPSs only: this preview's JSON leaves out the unchanged ones. Run " +
        "`pulumi preview --json --show-sames` for the stack's totals.",
      "",
    );
  }
  if (notes.length > 0) out.push(...notes.map((note, i) => `[${i + 1}] ${note}`), "");
  const credits = creditLines(bill);
  if (credits.length > 0) out.push(...credits, "");
  out.push(...budgetLines(bill), "");
  out.push(
    "<sub>Fees in USD a month: before, what RimuHosting bills now (each VPS's recorded `monthlyFeeUsd`); after, " +
      "RimuHosting's quote during the preview (`plannedMonthlyFeeUsd`). Made by `rimuhosting-bill` from " +
      "`pulumi preview --json`.</sub>",
  );
  return `${out.join("\n")}\n`;
}
