/**
 * A drift report (report.ts) as Markdown, GitHub's flavour, for the body of an issue (docs/ci.md's scheduled drift
 * workflow): a headline, one row per VPS and property with its value before → after and its effect on the monthly
 * fee, and what repairs each kind of drift (advice.ts). Its first line is a hidden marker naming the project and the
 * stack, by which a workflow knows its own issue for that stack.
 */
import { signed } from "../impl/budget/money.js";
import { adviceFor } from "./advice.js";
import type { DriftReport, DriftRow } from "./report.js";

/** How every report's hidden first line starts. */
export const DRIFT_MARKER = "<!-- rimuhosting-drift";

/**
 * The hidden first line of a report: the marker and, when the refresh named them, the project and the stack
 * (`<!-- rimuhosting-drift shop/prod -->`). The workflow finds a stack's open issue by it, so two projects' `prod`
 * stacks never share one (issue 57).
 */
export function driftKey(report: Pick<DriftReport, "project" | "stack">): string {
  const which = report.stack === undefined ? "" : ` ${report.project ?? "?"}/${report.stack}`;
  return `${DRIFT_MARKER}${which} -->`;
}

/** GitHub refuses issue bodies over 65,536 characters; rows beyond this many are counted in one line. */
const MAX_ROWS = 200;

const change = (amount: number): string => signed({ amount, currency: "USD" });

/** A table cell's text: pipes and line breaks would end the cell. */
const cell = (text: string): string =>
  text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

function values(row: DriftRow): string {
  if (row.before === undefined || row.after === undefined)
    return "changed (value not shown: a secret or private)";
  return `${row.before} → ${row.after}`;
}

/**
 * Where a gone VPS's credit is. It is not computed: RimuHosting's rule for it is not published (only its wording,
 * docs/rimuhosting-api.md R6), and the state records the fee but not the billing period's dates.
 */
export const GONE_CREDIT =
  "its credit for the unused time is in RimuHosting's answer to the delete, which no read of its API reports";

function fee(row: DriftRow): string {
  const billed = row.feeUsd === undefined || Math.abs(row.feeUsd) < 0.005 ? undefined : row.feeUsd;
  if (row.property === "order")
    return billed === undefined
      ? `none (${GONE_CREDIT})`
      : `${change(billed)} a month (no longer billed; ${GONE_CREDIT})`;
  if (billed === undefined) return "none";
  const shared = row.sharedWith ? ` (with ${row.sharedWith.join(", ")})` : "";
  return `${change(billed)} a month${shared}`;
}

/** The advice under the table: each kind of drift found, its VPSs and what repairs it (advice.ts). */
function whatToDo(report: DriftReport): string[] {
  const kinds = adviceFor(report.rows).map(
    ({ kind, vpss, text }) => `- **${kind}** (${vpss.map((vps) => cell(vps)).join(", ")}): ${text}`,
  );
  return [
    "What to do (a plain `pulumi up` changes nothing: this check wrote no state, and Pulumi compares the program " +
      "with the state):",
    "",
    ...kinds,
  ];
}

/** The VPS column: its resource name, and its domain name beside it when the state records one (issue 65). */
function vpsCell(report: DriftReport, vps: string): string {
  const domain = report.domainNames[vps];
  return cell(domain === undefined || domain === vps ? vps : `${vps} (${domain})`);
}

export function renderDrift(report: DriftReport): string {
  const project = report.project !== undefined ? ` of project \`${report.project}\`` : "";
  const where = report.stack !== undefined ? ` in stack \`${report.stack}\`${project}` : "";
  if (report.rows.length === 0)
    return `${driftKey(report)}\n**No drift**${where}: every VPS is as Pulumi recorded it.\n`;
  const vpss = report.vpsCount === 1 ? "1 VPS" : `${report.vpsCount} VPSs`;
  const feeText =
    Math.abs(report.feeUsd) < 0.005
      ? "the monthly fee is unchanged"
      : `the monthly fee changed by ${change(report.feeUsd)} a month`;
  const lines = [
    driftKey(report),
    `**Drift${where}: ${vpss} changed outside Pulumi**; ${feeText}.`,
    "",
    "| VPS | Property | Before → after | Monthly fee |",
    "| --- | --- | --- | --- |",
    ...report.rows
      .slice(0, MAX_ROWS)
      .map(
        (row) =>
          `| ${vpsCell(report, row.vps)} | ${cell(row.property)} | ${cell(values(row))} | ${cell(fee(row))} |`,
      ),
  ];
  if (report.rows.length > MAX_ROWS) lines.push("", `…and ${report.rows.length - MAX_ROWS} more rows.`);
  lines.push("", ...whatToDo(report), "");
  return lines.join("\n");
}
