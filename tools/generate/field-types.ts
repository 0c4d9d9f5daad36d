/**
 * A field table type (FieldType, provider/impl/fields/vps-fields.ts) as TypeScript, as a Pulumi package-schema
 * type, and as words for docs/vps.md's type column.
 */
import { VPS_OBJECT_TYPES } from "../../provider/impl/fields/vps-fields.js";
import { type FieldType, type ObjectTypeRule } from "../../provider/impl/fields/vps-field-rules.js";

/** The package's schema token prefix: types are `rimuhosting:index:<Name>`. */
export const SCHEMA_TOKEN_PREFIX = "rimuhosting:index:";

export function objectType(name: string): ObjectTypeRule {
  const rule = (VPS_OBJECT_TYPES as Record<string, ObjectTypeRule>)[name];
  if (!rule) throw new Error(`the field table names an object type "${name}" that VPS_OBJECT_TYPES lacks`);
  return rule;
}

/** A plain TypeScript type: enums by name (or as a union of literals), objects by their interface name. */
export function tsType(type: FieldType, { widenEnums = false } = {}): string {
  if (type === "integer") return "number";
  if (typeof type === "string") return type;
  if ("enum" in type) {
    if (widenEnums) return "string";
    return type.name ?? type.enum.map((value) => JSON.stringify(value)).join(" | ");
  }
  if ("array" in type) return `${tsType(type.array, { widenEnums })}[]`;
  if ("map" in type) return `Record<string, ${tsType(type.map, { widenEnums })}>`;
  objectType(type.object);
  return type.object;
}

/**
 * A VpsArgs property type: `pulumi.Input<T>`, with the elements of arrays and the values of maps Inputs
 * too (what Pulumi's own SDKs generate), so a program can pass other resources' outputs anywhere.
 */
export function tsInputType(type: FieldType): string {
  const inner =
    typeof type === "object" && "array" in type
      ? `${tsInputType(type.array)}[]`
      : typeof type === "object" && "map" in type
        ? `Record<string, ${tsInputType(type.map)}>`
        : tsType(type);
  return `pulumi.Input<${inner}>`;
}

/** The named enum types a type uses (imported from contract/literals.ts). */
export function enumNames(type: FieldType): string[] {
  if (typeof type === "string") return [];
  if ("enum" in type) return type.name ? [type.name] : [];
  if ("array" in type) return enumNames(type.array);
  if ("map" in type) return enumNames(type.map);
  return [];
}

/** A Pulumi package-schema type spec: `type` (with `items` / `additionalProperties`) or a `$ref`. */
export function schemaType(type: FieldType): Record<string, unknown> {
  if (typeof type === "string") return { type };
  if ("enum" in type) return { type: "string" };
  if ("array" in type) return { type: "array", items: schemaType(type.array) };
  if ("map" in type) return { type: "object", additionalProperties: schemaType(type.map) };
  objectType(type.object);
  return { $ref: `#/types/${SCHEMA_TOKEN_PREFIX}${type.object}` };
}

/** docs/vps.md's type column: `string`, `` `A` or `B` ``, `` `{ path, content }[]` ``. */
export function docsType(type: FieldType, { widenEnums = false } = {}): string {
  if (type === "integer") return "whole number";
  if (typeof type === "string") return type;
  if ("enum" in type) {
    if (widenEnums) return "string";
    const values = type.enum.map((value) => `\`${value}\``);
    if (values.length > 4) return `${values.slice(0, 3).join(", ")}, … (\`${type.name ?? "string"}\`)`;
    return values.length === 1 ? values[0]! : `${values.slice(0, -1).join(", ")} or ${values.at(-1)!}`;
  }
  if ("array" in type) {
    const element = docsType(type.array, { widenEnums });
    return element.startsWith("`") ? `${element.slice(0, -1)}[]\`` : `${element}[]`;
  }
  if ("map" in type) return `\`Record<string, ${tsType(type.map)}>\``;
  const properties = Object.entries(objectType(type.object).properties).map(
    ([name, property]) => `${name}${property.required ? "" : "?"}`,
  );
  return `\`{ ${properties.join(", ")} }\``;
}
