/**
 * A Vps's recorded state, parsed where it comes in: the engine hands the lifecycle what an earlier run recorded,
 * possibly by an older version of this provider or edited by hand, and a value of the wrong type would otherwise
 * be trusted as `RecordedOutputs` and fail deep in a lifecycle step (a `.length` of a number, an order path built
 * from an object). The schema is lenient: every field is optional, unknown keys are kept (a newer or older
 * version's bookkeeping), enums are any text (the service may report other values); only a value of the wrong
 * kind is refused. Its types come from the field table (vps-fields.ts), so a new field needs no line here.
 */
import * as z from "zod";
import {
  INTERNAL_INPUTS,
  RECORDED_ORDER_KEY,
  VPS_FIELDS,
  VPS_OUTPUT_ONLY_FIELDS,
} from "../fields/vps-fields.js";
import { type FieldType } from "../fields/vps-field-rules.js";
import { VPS_ERROR_CODES, VpsError } from "../engine/errors.js";
import type { RecordedOutputs } from "./vps-outputs.js";

/** What a recorded value of `type` may be: its kind, not its rules (an old state's value was valid then). */
function recordedType(type: FieldType): z.ZodType {
  if (type === "string") return z.string();
  if (type === "number" || type === "integer") return z.number();
  if (type === "boolean") return z.boolean();
  if ("enum" in type) return z.string();
  if ("array" in type) return z.array(recordedType(type.array));
  if ("map" in type) return z.record(z.string(), recordedType(type.map));
  return z.record(z.string(), z.unknown());
}

/** The provider's own bookkeeping keys (vps-outputs.ts, and the recorded order of the inputs) and the engine's. */
const BOOKKEEPING: Record<string, FieldType> = {
  __inputNames: { array: "string" },
  __creationToken: "string",
  __provider: "string",
  [RECORDED_ORDER_KEY]: "number",
};

/** The kind of each field a recorded state may hold: the one table the schema and the walk below both read. */
const RECORDED_KINDS: ReadonlyMap<string, FieldType> = new Map<string, FieldType>([
  ...Object.entries<{ type: FieldType }>({ ...VPS_FIELDS, ...VPS_OUTPUT_ONLY_FIELDS }).map(
    ([name, rule]): [string, FieldType] => [name, rule.type],
  ),
  ...INTERNAL_INPUTS.map((name): [string, FieldType] => [name, "string"]),
  ...Object.entries(BOOKKEEPING),
]);
const recordedKinds = (): ReadonlyMap<string, FieldType> => RECORDED_KINDS;

/**
 * The schema, a function of the field table alone, built when this module loads (zod schemas are not serializable;
 * this module is only ever require()d): at the end of the module, once recordedType() and what it reads are defined.
 */
export const recordedSchema = (): z.ZodType<Record<string, unknown>> => RECORDED_SCHEMA;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/** Whether `value` is surely of `type`'s kind as recordedType() takes it: then the schema takes it too. */
function surelyOfKind(type: FieldType, value: unknown): boolean {
  if (type === "string" || (typeof type === "object" && "enum" in type)) return typeof value === "string";
  if (type === "number" || type === "integer") return Number.isFinite(value);
  if (type === "boolean") return typeof value === "boolean";
  if ("array" in type) return Array.isArray(value) && value.every((item) => surelyOfKind(type.array, item));
  if (!isPlainObject(value)) return false;
  return "map" in type ? Object.values(value).every((item) => surelyOfKind(type.map, item)) : true;
}

/**
 * Whether every field of `bag` is surely of its kind, without zod: a state's check, diff and update each parse it,
 * and zod's parse of the whole schema was 0.3 ms of each VPS's update in the provider host (docs/benchmarks.md). A
 * state it is unsure of goes to the schema, which says what is wrong (problems()).
 */
export function surelyReadable(bag: Record<string, unknown>): boolean {
  const known = recordedKinds();
  for (const [key, value] of Object.entries(bag)) {
    const type = known.get(key);
    if (type !== undefined && value !== null && value !== undefined && !surelyOfKind(type, value))
      return false;
  }
  return true;
}

/** Each field of `bag` the schema refuses, with what it should have been; never its value. */
function problems(bag: Record<string, unknown>): { field: string; expected: string }[] {
  if (surelyReadable(bag)) return [];
  const parsed = recordedSchema().safeParse(bag);
  if (parsed.success) return [];
  const seen = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join(".");
    if (!seen.has(field))
      seen.set(field, issue.code === "invalid_type" ? `${issue.expected}` : issue.message);
  }
  return [...seen].map(([field, expected]) => ({ field, expected }));
}

/**
 * The state as the lifecycle reads it, or a clear error naming each field that is not of its kind, and what to
 * do. `what` names the resource (`Vps 1234 (web1.example.com)`). `bag` has had its nulls and envelopes taken out.
 */
export function parseRecordedState(bag: Record<string, unknown>, what: string): RecordedOutputs {
  const bad = problems(bag);
  if (bad.length === 0) return bag as RecordedOutputs;
  const list = bad.map(({ field, expected }) => `${field} (${kindOf(bag, field)}, expected ${expected})`);
  throw new VpsError(
    VPS_ERROR_CODES.stateUnreadable,
    `${what}: the state recorded for it does not fit this version of the provider: ${list.join("; ")}. ` +
      `It was written by another version of pulumi-rimuhosting, or edited.`,
  );
}

/**
 * The state for a refresh: the fields that are not of their kind are left out (the refresh reads them again from
 * RimuHosting where it reports them), so `pulumi refresh` is the way out of a state parseRecordedState() refuses.
 */
export function readableRecordedState(bag: Record<string, unknown>): RecordedOutputs {
  const bad = new Set(problems(bag).map(({ field }) => field.split(".")[0]));
  return Object.fromEntries(Object.entries(bag).filter(([key]) => !bad.has(key))) as RecordedOutputs;
}

/** What kind of value the field holds (`a string`, `a list`), never the value. */
function kindOf(bag: Record<string, unknown>, field: string): string {
  let value: unknown = bag;
  for (const key of field.split(".")) value = (value as Record<string, unknown> | undefined)?.[key];
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return typeof value === "number" ? "a number" : `a ${typeof value}`;
}

const RECORDED_SCHEMA: z.ZodType<Record<string, unknown>> = z.looseObject(
  Object.fromEntries([...RECORDED_KINDS].map(([name, type]) => [name, recordedType(type).nullish()])),
);
