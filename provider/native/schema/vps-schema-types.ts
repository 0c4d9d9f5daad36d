/**
 * The Vps part of the package schema, in the agreed shape of `provider/generated/vps-schema-types.json`
 * (the field-table generator writes that file from provider/impl/vps-fields.ts; CONTRIBUTING "Layout").
 *
 * Until that file exists, this module builds the same shape from the current table: the table gives the
 * inputs, outputs, descriptions, secret flags and replacing inputs; the machine types and the two literal
 * defaults the service applies are the only facts added here. When the generated file lands, the body of
 * this module becomes `export const VPS_SCHEMA_TYPES = require("…/vps-schema-types.json") as VpsSchemaTypes;`
 * and nothing else changes (test/native/schema.test.ts checks the schema against the table either way).
 */
import { REPLACE_FORCING_INPUTS } from "../../impl/vps-changes.js";
import {
  VPS_FIELDS,
  VPS_INPUT_NAMES,
  VPS_OUTPUT_ONLY,
  VPS_OUTPUT_ONLY_FIELDS,
  type VpsInputName,
  type VpsOutputOnlyName,
} from "../../impl/vps-fields.js";

/** A property of a Pulumi package schema (the subset this package uses). */
export interface PropertySpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
  default?: string | number | boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** The agreed shape (BRIEF: house and native). */
export interface VpsSchemaTypes {
  types: Record<string, ObjectTypeSpec>;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
}

const string: PropertySpec = { type: "string" };
const integer: PropertySpec = { type: "integer" };
const number: PropertySpec = { type: "number" };
const FILE = "rimuhosting:index:VpsFile";
const TIMEOUTS = "rimuhosting:index:VpsTimeouts";

/** The machine type of each input and output (the table has only the docs' words for it). */
const TYPES: Record<VpsInputName | VpsOutputOnlyName, PropertySpec> = {
  domainName: string,
  distro: string,
  dcLocation: string,
  pricingPlanCode: string,
  memoryMb: integer,
  diskSpaceMb: integer,
  diskSpace2Mb: integer,
  vpsType: string,
  billingOid: integer,
  hostServerOid: string,
  runningState: string,
  password: string,
  controlPanel: string,
  cloudConfig: string,
  files: { type: "array", items: { $ref: `#/types/${FILE}` } },
  sshKeys: { type: "array", items: string },
  reverseDns: string,
  ipCount: integer,
  metaData: { type: "object", additionalProperties: string },
  allowReinstall: { type: "boolean" },
  timeouts: { $ref: `#/types/${TIMEOUTS}` },
  adoptOrderOid: integer,
  orderOid: integer,
  slug: string,
  primaryIp: string,
  secondaryIps: { type: "array", items: string },
  monthlyFeeUsd: number,
  orderDescription: string,
};

/** Defaults that are literal values the service itself applies (never "RimuHosting picks"). */
const SERVICE_DEFAULTS: Partial<Record<VpsInputName, number>> = { diskSpace2Mb: 0, ipCount: 1 };

/** What a change does, in the words of docs/vps.md's change table. */
const CHANGE_WORDS: Record<string, string> = {
  parameters: "A change resizes the VPS in place (it restarts).",
  move: "A change moves the VPS to that host server (its IP addresses may change).",
  reinstall: "A change reinstalls the VPS (its disk is erased) and needs allowReinstall: true.",
  "running-state": "A change starts or stops the VPS.",
  "reverse-dns": "A change sets the PTR record in place.",
  replace: "A change replaces the VPS (a new order; the old one is cancelled).",
  setting: "A provider setting: a change makes no API call.",
  "order-only": "Used only when ordering: a later change is reported, not applied.",
  adopt: "Read only when the resource is created; a different order later means a replacement.",
};

/** The table's words as a description: Markdown links as their text, a capital first letter. */
function sentence(text: string): string {
  const plain = text.replace(/\[([^\]]+)\]\([^)]*\)/g, "$1").replace(/^\. /, "");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

function inputSpec(name: VpsInputName): PropertySpec {
  const row = VPS_FIELDS[name];
  // The type column only where it lists the values (`DCDALLAS`, `DCLONDON`, …); the schema type says the rest.
  const words = [row.type.includes("`") ? row.type : "", "notes" in row ? row.notes : ""].filter(
    (w) => w !== "",
  );
  const spec: PropertySpec = {
    ...TYPES[name],
    description: sentence(
      `${words.join("; ")}. ${CHANGE_WORDS[row.change]}` +
        (row.default === "required" ? "" : ` Default: ${row.default}.`),
    ),
  };
  if ("secret" in row && row.secret) spec.secret = true;
  if (REPLACE_FORCING_INPUTS.includes(name)) spec.willReplaceOnChanges = true;
  const fallback = SERVICE_DEFAULTS[name];
  if (fallback !== undefined) spec.default = fallback;
  return spec;
}

function outputSpec(name: VpsInputName | VpsOutputOnlyName): PropertySpec {
  if ((VPS_OUTPUT_ONLY as string[]).includes(name)) {
    const row = VPS_OUTPUT_ONLY_FIELDS[name as VpsOutputOnlyName];
    return { ...TYPES[name], description: sentence(`${row.notes}.`) };
  }
  const row = VPS_FIELDS[name as VpsInputName];
  const spec: PropertySpec = {
    ...TYPES[name],
    description:
      "output" in row ? sentence(`${row.output.notes}.`) : "As given, or as the service reports it.",
  };
  if ("secret" in row && row.secret) spec.secret = true;
  return spec;
}

/** Outputs every order has (orderOutputs() in impl/vps-outputs.ts always sets them). */
const ALWAYS_SET = ["domainName", "orderOid", "slug", "secondaryIps", "diskSpace2Mb"];

export const VPS_SCHEMA_TYPES: VpsSchemaTypes = {
  types: {
    [FILE]: {
      type: "object",
      description: "A file written into the new filesystem at install time.",
      properties: {
        path: {
          type: "string",
          description: "Absolute path inside the VPS, e.g. /root/.ssh/authorized_keys.",
        },
        content: { type: "string", secret: true, description: "The file's content." },
      },
      required: ["path", "content"],
    },
    [TIMEOUTS]: {
      type: "object",
      description: "The provider's own time limits per operation, in minutes (60 each by default).",
      properties: {
        createMinutes: { type: "number", description: "Limit for ordering the VPS." },
        updateMinutes: {
          type: "number",
          description:
            "Limit for each resize, reinstall or running-state call; a move gets 10 minutes per GB more.",
        },
        deleteMinutes: { type: "number", description: "Limit for the shutdown and cancellation." },
      },
    },
  },
  inputProperties: Object.fromEntries(VPS_INPUT_NAMES.map((name) => [name, inputSpec(name)])),
  requiredInputs: VPS_INPUT_NAMES.filter((name) => VPS_FIELDS[name].default === "required"),
  properties: Object.fromEntries(
    [...VPS_INPUT_NAMES, ...VPS_OUTPUT_ONLY].map((name) => [name, outputSpec(name)]),
  ),
  required: ALWAYS_SET,
};
