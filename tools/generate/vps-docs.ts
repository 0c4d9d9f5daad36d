/**
 * docs/vps.md's Inputs and Outputs lists, from the field table, between the `<!-- generated:vps-… -->`
 * markers; everything outside them is left as written. Lists, not tables: a description is a paragraph, and a
 * table pads every row to its longest one.
 */
import {
  REPORTED_FIELDS,
  SECRET_FIELDS,
  defaultWords,
  inputDescription,
  VPS_FIELDS,
  VPS_INPUT_NAMES,
  type FieldRule,
} from "../../provider/impl/vps-fields.js";
import { docsType } from "./field-types.js";
import { markdownList, wrap } from "./text.js";
import { vpsOutputs } from "./vps-types.js";

export const VPS_DOCS_PATH = "docs/vps.md";

const code = (name: string) => `\`${name}\``;

function inputsList(): string {
  return markdownList(
    VPS_INPUT_NAMES.map((name) => {
      const row: FieldRule = VPS_FIELDS[name];
      const type = docsType(row.type) + (row.secret ? ", **secret**" : "");
      const given = row.required ? "required" : `default: ${defaultWords(row) ?? "none"}`;
      const see = row.see ? ` See [${row.see.title}](${row.see.href}).` : "";
      return `${code(name)} (${type}; ${given}): ${inputDescription(row)}${see}`;
    }),
  );
}

function outputsList(): string {
  const secret = new Set<string>(SECRET_FIELDS);
  const reported = REPORTED_FIELDS.map(code).join(", ");
  return (
    wrap(
      `Every input is an output too: where the service reports it (${reported}) the output holds the ` +
        "service's current value, otherwise the value as given. The outputs:",
    ) +
    "\n\n" +
    markdownList(
      vpsOutputs().map(([name, output]) => {
        const type = docsType(output.type, { widenEnums: true }) + (secret.has(name) ? ", **secret**" : "");
        return `${code(name)} (${type}): ${output.description}`;
      }),
    )
  );
}

const SECTIONS = { "vps-inputs": inputsList, "vps-outputs": outputsList } as const;

/** The page with each generated section rendered again from the field table. */
export function renderVpsDocs(page: string): string {
  let out = page;
  for (const [name, render] of Object.entries(SECTIONS)) {
    const begin = `<!-- generated:${name} from provider/impl/vps-fields.ts by npm run generate; edit the table, not this -->`;
    const end = `<!-- end:${name} -->`;
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${VPS_DOCS_PATH} has no ${begin} … ${end} markers`);
    out = `${out.slice(0, from + begin.length)}\n\n${render()}\n\n${out.slice(to)}`;
  }
  return out;
}
