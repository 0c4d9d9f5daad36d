/**
 * docs/vps.md's Inputs and Outputs lists and its list of what a change does (the inputs of each change kind), from
 * the field table, between the `<!-- generated:vps-… -->` markers; everything outside them is left as written.
 * Lists, not tables: a description is a paragraph, and a table pads every row to its longest one.
 */
import {
  REPORTED_FIELDS,
  SECRET_FIELDS,
  VPS_FIELDS,
  VPS_INPUT_NAMES,
} from "../../provider/impl/fields/vps-fields.js";
import {
  defaultWords,
  inputDescription,
  type ChangeKind,
  type FieldRule,
} from "../../provider/impl/fields/vps-field-rules.js";
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

/**
 * What a change of each kind does to the VPS, in the order the list gives them (an update runs its steps in this
 * order too, running state last). The inputs of each kind come from the table; only these words are written here.
 */
const CHANGE_EFFECTS: ReadonlyArray<[ChangeKind, string]> = [
  ["parameters", "resized in place (one `…/vps/parameters` call); the VPS restarts; billing changes"],
  [
    "move",
    "moved in place to that host (`…/vps/host-server`); takes 5–10 minutes per GB of disk; the IP changes",
  ],
  [
    "reinstall",
    "reinstalled in place (`…/vps/reinstall`): same order, same IP; **erases the disk**; refused unless " +
      "`allowReinstall: true`; without a `password` input a new one is generated",
  ],
  ["reverse-dns", "set in place (`PUT …/ptr;ip=<primary IP>`); set again on the new address after a move"],
  ["running-state", "started or stopped (`…/vps/running-state`)"],
  ["replace", "**replacement**: a new VPS is ordered, then the old one is cancelled; new IP, new disk"],
  [
    "adopt",
    "a replacement when set to another order: the resource then manages that order, the old one is cancelled",
  ],
  ["order-only", "not applied (the API cannot change this on an existing order); a warning is printed"],
  ["setting", "recorded; no API call"],
];

const names = (rules: ReadonlyArray<[string, FieldRule]>): string =>
  rules.map(([name]) => code(name)).join(", ");

function changesList(): string {
  const rules = VPS_INPUT_NAMES.map((name): [string, FieldRule] => [name, VPS_FIELDS[name]]);
  const kinds = new Set(rules.map(([, rule]) => rule.change));
  const listed = new Set(CHANGE_EFFECTS.map(([kind]) => kind));
  const missing = [...kinds].filter((kind) => !listed.has(kind));
  if (missing.length > 0)
    throw new Error(`CHANGE_EFFECTS says nothing of the change kind ${missing.join(", ")}`);
  return markdownList(
    CHANGE_EFFECTS.flatMap(([kind, effect]) => {
      const ofKind = rules.filter(([, rule]) => rule.change === kind);
      if (ofKind.length === 0) return [];
      const growOnly = ofKind.filter(([, rule]) => rule.growOnly);
      const grows =
        growOnly.length > 0 ? `; ${names(growOnly)} can only grow (a shrink is refused first)` : "";
      // An input the service does not report changes only from one value to another (setting it is recorded).
      const reported = ofKind.filter(([, rule]) => rule.reported || kind !== "replace");
      const unreported = ofKind.filter(([, rule]) => !rule.reported && kind === "replace");
      const which = [
        ...(reported.length > 0 ? [names(reported)] : []),
        ...(unreported.length > 0
          ? [`${unreported.map(([name]) => code(name)).join(" or ")} changed from one value to another`]
          : []),
      ].join("; ");
      return [`${which}: ${effect}${grows}`];
    }),
  );
}

const SECTIONS = {
  "vps-inputs": inputsList,
  "vps-outputs": outputsList,
  "vps-changes": changesList,
} as const;

/** The page with each generated section rendered again from the field table. */
export function renderVpsDocs(page: string): string {
  let out = page;
  for (const [name, render] of Object.entries(SECTIONS)) {
    const begin = `<!-- generated:${name} from provider/impl/fields/vps-fields.ts by npm run generate; edit the table, not this -->`;
    const end = `<!-- end:${name} -->`;
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${VPS_DOCS_PATH} has no ${begin} … ${end} markers`);
    out = `${out.slice(0, from + begin.length)}\n\n${render()}\n\n${out.slice(to)}`;
  }
  return out;
}
