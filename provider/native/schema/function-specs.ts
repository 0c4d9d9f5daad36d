/**
 * The provider functions of the package schema, read from the data sources' own TypeScript declarations
 * (provider/data-sources/get-*.ts) with the compiler API: each `getX` function gives its description, its
 * args type the function's inputs and its result type the outputs; each property's JSDoc gives its
 * description and `@default`. So TypeScript users' typings and other languages' SDKs describe the same
 * functions from one text. Run at generation time only (provider/native/schema/generate.ts).
 *
 * Mapping: string and string-literal unions → string; boolean → boolean; number → integer where the property's
 * JSDoc has an `@integer` tag (identifiers, sizes in MB: whole numbers on the wire), number otherwise; arrays → array;
 * `Record<string, string>` → a map of strings; `Record<string, unknown>` → a map of any; an interface → an
 * object type `rimuhosting:index:<Name>`.
 */
import * as path from "node:path";
import ts from "typescript";
import { DATA_SOURCE_TOKENS } from "../../data-sources/tokens.js";
import type { ObjectTypeSpec, PropertySpec } from "./vps-schema-types.js";

export interface FunctionSpec {
  description: string;
  inputs?: { properties: Record<string, PropertySpec>; required?: string[] };
  outputs: { properties: Record<string, PropertySpec>; required?: string[] };
}

/** Reads the data sources under `root` (the repository). */
export function functionSpecs(root: string): {
  functions: Record<string, FunctionSpec>;
  types: Record<string, ObjectTypeSpec>;
} {
  const entry = path.join(root, "provider/data-sources/index.ts");
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`cannot read ${entry}`);
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
  const types: Record<string, ObjectTypeSpec> = {};

  const describe = (symbol: ts.Symbol): { text: string; defaultText?: string } => {
    const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    const tag = symbol.getJsDocTags(checker).find((t) => t.name === "default");
    const defaultText = tag ? ts.displayPartsToString(tag.text).trim() : undefined;
    return { text, defaultText };
  };

  /** `integer`: the property is marked `@integer` (its numbers, or its array's, are whole). */
  const propertySpec = (name: string, type: ts.Type, where: string, integer = false): PropertySpec => {
    const parts = type.isUnion() ? type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined)) : [type];
    if (parts.every((t) => t.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)))
      return { type: "string" };
    if (parts.every((t) => t.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)))
      return { type: "boolean" };
    if (parts.every((t) => t.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)))
      return { type: integer ? "integer" : "number" };
    const [only] = parts;
    if (parts.length !== 1 || !only) throw new Error(`${where}.${name}: unsupported union type`);
    if (integer && !checker.isArrayType(only)) throw new Error(`${where}.${name}: @integer on a non-number`);
    if (checker.isArrayType(only)) {
      const [element] = checker.getTypeArguments(only as ts.TypeReference);
      return { type: "array", items: propertySpec(name, element!, where, integer) };
    }
    const index = checker.getIndexInfoOfType(only, ts.IndexKind.String);
    if (index) {
      const value =
        index.type.flags & ts.TypeFlags.Unknown
          ? { $ref: "pulumi.json#/Any" }
          : propertySpec(name, index.type, where);
      return { type: "object", additionalProperties: value };
    }
    const symbol = only.getSymbol();
    if (symbol && only.flags & ts.TypeFlags.Object) {
      const token = `rimuhosting:index:${symbol.getName()}`;
      if (!types[token]) {
        types[token] = { type: "object", properties: {} }; // placeholder against cycles
        types[token] = { ...objectSpec(only, symbol.getName()), description: describe(symbol).text };
      }
      return { $ref: `#/types/${token}` };
    }
    throw new Error(`${where}.${name}: unsupported type ${checker.typeToString(only)}`);
  };

  const objectSpec = (type: ts.Type, where: string, asInputs = false): ObjectTypeSpec => {
    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const name = property.getName();
      const declared = checker.getTypeOfSymbol(property);
      const { text, defaultText } = describe(property);
      const integer = property.getJsDocTags(checker).some((tag) => tag.name === "integer");
      const spec = propertySpec(name, declared, where, integer);
      const shown = defaultText !== undefined && !["required", "always set"].includes(defaultText);
      spec.description = oneLine(shown ? `${text} Default: ${defaultText}.` : text);
      const literal = asInputs && defaultText !== undefined ? jsonLiteral(defaultText) : undefined;
      if (literal !== undefined) spec.default = literal;
      properties[name] = spec;
      if (!(property.flags & ts.SymbolFlags.Optional)) required.push(name);
    }
    return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
  };

  const functions: Record<string, FunctionSpec> = {};
  for (const [name, token] of Object.entries(DATA_SOURCE_TOKENS)) {
    const symbol = exports.find((s) => s.getName() === name);
    if (!symbol) throw new Error(`provider/data-sources exports no ${name}`);
    const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const [signature] = checker.getSignaturesOfType(checker.getTypeOfSymbol(resolved), ts.SignatureKind.Call);
    if (!signature) throw new Error(`${name} is not a function`);
    const promised = checker.getAwaitedType(signature.getReturnType())!;
    const spec: FunctionSpec = {
      // The first paragraph, without the TypeScript-only note on unit-test mocks.
      description: oneLine(
        describe(resolved)
          .text.split(/\n\s*\n/)[0]!
          .replace(/\s*Mock token:.*$/s, ""),
      ),
      outputs: withoutType(objectSpec(promised, name)),
    };
    const [parameter] = signature.getParameters();
    if (parameter) {
      const argsType = checker.getNonNullableType(checker.getTypeOfSymbol(parameter));
      spec.inputs = withoutType(objectSpec(argsType, name, true));
    }
    functions[token] = spec;
  }
  return { functions, types };
}

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

function withoutType(spec: ObjectTypeSpec): {
  properties: Record<string, PropertySpec>;
  required?: string[];
} {
  return spec.required
    ? { properties: spec.properties, required: spec.required }
    : { properties: spec.properties };
}

/** A `@default` that is a JSON literal ("VPS", 1, false) is a default value; words stay in the description. */
function jsonLiteral(text: string): string | number | boolean | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}
