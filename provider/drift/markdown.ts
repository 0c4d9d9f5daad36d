/**
 * A drift report (report.ts) as Markdown, GitHub's flavour, for the body of an issue (docs/ci.md's scheduled drift
 * workflow): a headline, one row per VPS and property with its value before → after and its effect on the monthly
 * fee, and what to do. Its first line is a hidden marker by which a workflow knows its own issues.
 */
import { signed } from "../impl/budget/money.js";
import type { DriftReport, DriftRow } from "./report.js";

/** The hidden first line of every report. */
export const DRIFT_MARKER = "<!-- rimuhosting-drift -->";

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

function fee(row: DriftRow): string {
  if (row.feeUsd === undefined || Math.abs(row.feeUsd) < 0.005) return "none";
  const shared = row.sharedWith ? ` (with ${row.sharedWith.join(", ")})` : "";
  return `${change(row.feeUsd)} a month${shared}`;
}

export function renderDrift(report: DriftReport): string {
  const where = report.stack !== undefined ? ` in stack \`${report.stack}\`` : "";
  if (report.rows.length === 0)
    return `${DRIFT_MARKER}\n**No drift**${where}: every VPS is as Pulumi recorded it.\n`;
  const vpss = report.vpsCount === 1 ? "1 VPS" : `${report.vpsCount} VPSs`;
  const feeText =
    Math.abs(report.feeUsd) < 0.005
      ? "the monthly fee is unchanged"
      : `the monthly fee changed by ${change(report.feeUsd)} a month`;
  const lines = [
    DRIFT_MARKER,
    `**Drift${where}: ${vpss} changed outside Pulumi**; ${feeText}.`,
    "",
    "| VPS | Property | Before → after | Monthly fee |",
    "| --- | --- | --- | --- |",
    ...report.rows
      .slice(0, MAX_ROWS)
      .map(
        (row) => `| ${cell(row.vps)} | ${cell(row.property)} | ${cell(values(row))} | ${cell(fee(row))} |`,
      ),
  ];
  if (report.rows.length > MAX_ROWS) lines.push("", `…and ${report.rows.length - MAX_ROWS} more rows.`);
  lines.push(
    "",
    "To keep what changed: `pulumi refresh` writes it into the state; then make the program say the same. " +
      "To undo it: `pulumi up --refresh` puts back what the program says; a plain `pulumi up` changes nothing, since " +
      "this report's refresh wrote no state (a grown disk cannot shrink; a moved VPS keeps its new IP address; a " +
      "gone one is ordered anew once `pulumi refresh` has dropped it).",
    "",
  );
  return lines.join("\n");
}
