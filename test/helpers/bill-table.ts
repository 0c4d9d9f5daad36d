/**
 * The rows of a bill's Markdown tables: the first cell (a name without its backticks, a label without its bold) →
 * the other cells. A later row of the same first cell (the folded list of every VPS) replaces an earlier one.
 */
export function billTableRows(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of markdown.split("\n")) {
    if (!line.startsWith("| ") || line.startsWith("| ---") || line.startsWith("| VPS |")) continue;
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim().replace(/^\*\*|\*\*$/g, ""));
    rows.set(cells[0]!.replace(/`/g, "").replace(/\*\*/g, ""), cells.slice(1));
  }
  return rows;
}
