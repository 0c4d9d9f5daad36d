/**
 * The fault matrix's table as `node dist/tools/fault-matrix.js` and test/provider/fault-matrix.test.ts print it:
 * one row per operation, one column per fault, each cell what the faulted command did or its bad counts, then the
 * totals and why any count is not 0.
 */
import type { MatrixCounts } from "../test/helpers/fault-matrix-cells.js";

/** One cell of the matrix (fault-matrix.ts's CellResult). */
export interface MatrixCell extends MatrixCounts {
  operation: string;
  fault: string;
  outcome: string;
}

export function formatMatrix(results: readonly MatrixCell[]): string {
  const ops = [...new Set(results.map((r) => r.operation))];
  const faults = [...new Set(results.map((r) => r.fault))];
  const cell = (op: string, fault: string) => {
    const r = results.find((x) => x.operation === op && x.fault === fault);
    if (!r) return "-";
    const bad = r.leaked + r.duplicated + r.stranded + r.halfApplied;
    return bad === 0
      ? r.outcome.replace(/ \(.*\)$/, "")
      : `BAD ${r.leaked}/${r.duplicated}/${r.stranded}/${r.halfApplied}`;
  };
  const width = 14;
  const lines = [
    ["", ...faults].map((text) => text.padEnd(width)).join(""),
    ...ops.map((op) => [op, ...faults.map((f) => cell(op, f))].map((text) => text.padEnd(width)).join("")),
  ];
  const sum = (key: "leaked" | "duplicated" | "stranded" | "halfApplied") =>
    results.reduce((total, r) => total + r[key], 0);
  lines.push(
    "",
    "What the faulted command did: ok (it succeeded anyway), recorded (it failed and recorded where it stopped), " +
      "failed (it failed and changed nothing); after a killed engine, how the stack got out: recovered (cancel, " +
      "refresh, up or destroy) or taken back (the next up takes a killed run's order back by itself). Every cell then runs refresh, up and destroy and counts:",
    `${results.length} cells: ${sum("leaked")} leaked, ${sum("duplicated")} duplicated, ` +
      `${sum("stranded")} stranded, ${sum("halfApplied")} half-applied`,
  );
  for (const r of results) {
    if (r.notes.length > 0) lines.push(`  ${r.operation} × ${r.fault}: ${r.notes.join("; ")}`);
  }
  return lines.join("\n");
}
