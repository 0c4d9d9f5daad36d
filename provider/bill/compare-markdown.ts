/**
 * The comparison with a baseline (compare.ts) in the bill's Markdown: a headline of the difference in the stack's
 * monthly fees, and a table of the VPSs whose fee differs, each with the fee the baseline's run leaves it with and
 * the one this run does. A fee not priced on either side is ⚠️ and not counted (never $0).
 */
import { dollars } from "../impl/cost/money.js";
import type { Fee } from "./bill.js";
import type { Comparison, MissingBaseline } from "./compare.js";
import { cell, code, signedCents } from "./md-text.js";

const feeText = (fee: Fee | null): string =>
  fee === null || "none" in fee ? "—" : "cents" in fee ? dollars(fee.cents) : "⚠️ not priced";

/** The difference as the headline says it: `+$6.00 a month ▲`. */
function difference(c: Comparison): string {
  const delta = c.totals.changeCents;
  const unpriced = c.totals.notPriced.length;
  const warn = unpriced > 0 ? ` · ⚠️ ${unpriced} VPS${unpriced === 1 ? "" : "s"} not priced` : "";
  if (delta === 0 && unpriced === 0) return "no difference in the monthly fees";
  return `${signedCents(delta)} a month${delta > 0 ? " ▲" : delta < 0 ? " ▼" : ""}${unpriced > 0 ? " on the priced VPSs" : ""}${warn}`;
}

export function comparisonLines(c: Comparison | MissingBaseline): string[] {
  if ("missing" in c)
    return [`**Against the baseline** (${code(c.source)}): not compared: ${c.missing}.`, ""];
  const out = [`**Against the baseline** (${code(c.source)}): ${difference(c)}.`];
  if (!c.baselineComplete)
    out.push(
      "",
      "⚠️ The baseline is the bill of a preview that failed: it lists only the VPSs before it stopped.",
    );
  const differing = c.vpss.filter((v) => v.changeCents !== 0);
  if (differing.length > 0) {
    out.push("", "| VPS | Baseline | This preview | Difference |", "| --- | ---: | ---: | ---: |");
    for (const v of differing)
      out.push(
        `| ${cell(code(v.name))} | ${feeText(v.baseline)} | ${feeText(v.current)} | ${v.changeCents === null ? "⚠️" : signedCents(v.changeCents)} |`,
      );
    const total = c.totals.notPriced.length === 0 ? `**${signedCents(c.totals.changeCents)}**` : "⚠️";
    out.push(
      `| **Stack total** | **${dollars(c.totals.baselineCents)}** | **${dollars(c.totals.currentCents)}** | ${total} |`,
    );
  }
  return [...out, ""];
}
