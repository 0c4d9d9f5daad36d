/**
 * The Vps part of the package schema: provider/generated/vps-schema-types.json, which `npm run generate`
 * (tools/generate) writes from the field table, provider/impl/fields/vps-fields.ts. Nothing here adds a fact: the
 * types, descriptions, defaults, secret and replace-on-change flags are the table's
 * (test/native/schema.test.ts checks the schema against the table).
 */
/** A property of a Pulumi package schema (the subset this package uses). */
export interface PropertySpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: PropertySpec;
  /** A union: a value of any of these types (`type` is the one languages without unions use). */
  oneOf?: PropertySpec[];
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

import generated = require("../../generated/vps-schema-types.json");

/** The generated file, without its "do not edit" line. */
function fromGenerated(): VpsSchemaTypes {
  const { "//": _header, ...types } = generated as unknown as VpsSchemaTypes & { "//": string };
  return types;
}

export const VPS_SCHEMA_TYPES: VpsSchemaTypes = fromGenerated();
