/** Text inside GitHub Markdown: table cells, inline code and blocks that no text can break, signed amounts. */
import { dollars } from "../impl/cost/money.js";

/** "+$6.43", "-$6.43", "±$0.00". */
export const signedCents = (c: number): string =>
  c === 0 ? "±$0.00" : `${c > 0 ? "+" : "-"}${dollars(Math.abs(c))}`;

/** A table cell's text: pipes and line breaks would end the cell. */
export const cell = (text: string): string =>
  text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** Inline code that holds any text (a longer run of backticks around one that contains some). */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced block that no line of `text` can close. */
export function block(lines: readonly string[]): string {
  const text = lines.join("\n");
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}
