/**
 * Writes docs/vps.md's Inputs and Outputs tables from the Vps field table (provider/impl/vps-fields.ts),
 * between the `<!-- generated:vps-… -->` markers; everything outside them is left as written.
 * test/provider/impl/vps-fields.test.ts fails when the page is out of date.
 *
 *   npm run docs:vps        (= npm run build && node dist/tools/vps-docs.js)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  REPORTED_FIELDS,
  SECRET_FIELDS,
  VPS_FIELDS,
  VPS_INPUT_NAMES,
  VPS_OUTPUT_ONLY,
  VPS_OUTPUT_ONLY_FIELDS,
} from "../provider/impl/vps-fields.js";

export const VPS_DOCS_PATH = "docs/vps.md";

/** A Markdown table laid out the way prettier lays it out (columns padded to their widest cell). */
function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) =>
    Math.max(3, cell.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

const code = (name: string) => `\`${name}\``;

/** A paragraph broken into lines of at most `width` characters (prettier keeps Markdown line breaks). */
function wrap(text: string, width = 110): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join("\n");
}

function inputsTable(): string {
  return markdownTable(
    ["input", "type", "default", "notes"],
    VPS_INPUT_NAMES.map((name) => {
      const row: { type: string; default: string; notes?: string } = VPS_FIELDS[name];
      return [code(name), row.type, row.default, row.notes ?? ""];
    }),
  );
}

function outputsTable(): string {
  const secret = new Set<string>(SECRET_FIELDS);
  const rows = [
    ...VPS_OUTPUT_ONLY.map((name) => [name, VPS_OUTPUT_ONLY_FIELDS[name]] as const),
    ...VPS_INPUT_NAMES.flatMap((name) => {
      const output = (VPS_FIELDS[name] as { output?: { type: string; notes: string } }).output;
      return output ? [[name, output] as const] : [];
    }),
  ];
  const reported = REPORTED_FIELDS.map(code).join(", ");
  return (
    wrap(`Every input, with the service's current value where the service reports it (${reported}), plus:`) +
    "\n\n" +
    markdownTable(
      ["output", "type", ""],
      rows.map(([name, row]) => [
        code(name),
        secret.has(name) ? `${row.type}, **secret**` : row.type,
        row.notes,
      ]),
    )
  );
}

const SECTIONS = { "vps-inputs": inputsTable, "vps-outputs": outputsTable } as const;

/** The page with each generated section rendered again from the field table. */
export function renderVpsDocs(page: string): string {
  let out = page;
  for (const [name, render] of Object.entries(SECTIONS)) {
    const begin = `<!-- generated:${name} from provider/impl/vps-fields.ts by npm run docs:vps; edit the table, not this -->`;
    const end = `<!-- end:${name} -->`;
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${VPS_DOCS_PATH} has no ${begin} … ${end} markers`);
    out = `${out.slice(0, from + begin.length)}\n\n${render()}\n\n${out.slice(to)}`;
  }
  return out;
}

if (require.main === module) {
  const path = join(__dirname, "../..", VPS_DOCS_PATH);
  const before = readFileSync(path, "utf8");
  const after = renderVpsDocs(before);
  writeFileSync(path, after);
  console.log(before === after ? `${VPS_DOCS_PATH}: up to date` : `${VPS_DOCS_PATH}: tables rewritten`);
}
