/**
 * The values a property bag sets, as the lifecycle reads them: the engine hands it inputs and outputs with
 * explicit nulls, secret envelopes (check() returns secret inputs wrapped) and its own `__provider`.
 */
import { parseRecordedState, readableRecordedState } from "./recorded-state.js";
import { unwrapSecret } from "./secret-values.js";
import { unknownKeys } from "./unknowns.js";
import type { VpsInputs } from "./vps-input-schema.js";
import type { RecordedOutputs } from "./vps-outputs.js";

/**
 * Drops null values (an explicit null means "not set") and the engine's own `__provider`, and takes
 * secret values out of their wrapping (check() returns secret inputs wrapped, see secret-values.ts).
 */
export function setValues<T extends object>(bag: T): T {
  // The same type: what is dropped is optional, and an envelope stands for the value it holds.
  return Object.fromEntries(
    Object.entries(bag)
      .map(([key, value]) => [key, unwrapSecret(value)] as const)
      .filter(([key, value]) => key !== "__provider" && value !== null && value !== undefined),
  ) as T;
}

/**
 * A recorded state as the lifecycle reads it: its set values, parsed (recorded-state.ts); a value not of its kind
 * is refused naming the field. `what` names the resource in the message.
 */
export function recordedState(bag: object | undefined, what: string): RecordedOutputs {
  return parseRecordedState(setValues<Record<string, unknown>>({ ...bag }), what);
}

/** A recorded state for a refresh: its set values, leaving out those not of their kind (read again instead). */
export function refreshableState(bag: object | undefined): RecordedOutputs {
  return readableRecordedState(setValues<Record<string, unknown>>({ ...bag }));
}

/** New inputs parsed once per check (parseInputs): what every rule of check() reads, never the raw bag. */
export interface ParsedInputs {
  /** The values set (setValues): nulls and `__provider` left out, secrets out of their envelopes. */
  readonly values: VpsInputs;
  /** Those whose values are known (in a preview, those not waiting on another resource's output). */
  readonly known: VpsInputs;
  /** The inputs whose values are or contain the unknown sentinel (a preview's, unknowns.ts). */
  readonly unknown: ReadonlySet<string>;
  /** Every key the program named, set or null (a mistyped key is refused either way). */
  readonly named: readonly string[];
}

/** Parses new inputs: runs setValues once and marks which inputs are still unknown. */
export function parseInputs(news: VpsInputs): ParsedInputs {
  const values = setValues(news);
  const unknown = unknownKeys(values);
  const known = Object.fromEntries(Object.entries(values).filter(([key]) => !unknown.has(key))) as VpsInputs;
  return { values, known, unknown, named: Object.keys(news) };
}
