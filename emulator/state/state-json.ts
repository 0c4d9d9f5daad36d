/**
 * The state's JSON, one format for the state file (--state-file) and for snapshots (--load-snapshot, the control
 * API's /__emulator/snapshots): parsed against the versioned schema, with a version another emulator wrote named as
 * such rather than reported as a field that does not match, and an older version upgraded first.
 */
import * as z from "zod";
import { type EmulatorErrorCode, emuError } from "../errors.js";
import { migrateState } from "./migrations.js";
import { EmulatorState, STATE_VERSION } from "./schema.js";

/** The oldest state version this emulator upgrades (migrations.ts); older ones are refused by name. */
const OLDEST_VERSION = 1;

/**
 * `raw` (parsed JSON) as the current state version, or the error `code` with a message naming `source` ("the
 * emulator state file x.json", "the snapshot file y.json") and what to do. A key the schema does not know is named
 * as `fieldName` (its path, e.g. `orders.0.colour`).
 */
export function parseStateJson(raw: unknown, source: string, code: EmulatorErrorCode): EmulatorState {
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === "number" && (version > STATE_VERSION || version < OLDEST_VERSION)) {
    const which = version > STATE_VERSION ? "a newer" : "an older";
    throw emuError(code, {
      message: `${source} is state version ${version}, written by ${which} emulator; this emulator reads versions ${OLDEST_VERSION} to ${STATE_VERSION}. Load it with the emulator that saved it, or save the state again with this one.`,
    });
  }
  const parsed = EmulatorState.safeParse(migrateState(raw, STATE_VERSION));
  if (!parsed.success) {
    const unknown = parsed.error.issues.find((issue) => issue.code === "unrecognized_keys");
    if (unknown) {
      const fieldName = [...unknown.path, unknown.keys[0]!].join(".");
      throw emuError(code, {
        fieldName,
        message: `${source} has the key '${fieldName}', which state version ${STATE_VERSION} does not have. Remove it (or correct its spelling): ${z.prettifyError(parsed.error)}`,
      });
    }
    throw emuError(code, {
      message: `${source} does not match state version ${STATE_VERSION}: ${z.prettifyError(parsed.error)}`,
    });
  }
  return parsed.data;
}

/** A deep copy of the state, as the JSON text holds it (a snapshot must not change with the live state). */
export function copyState(state: EmulatorState): EmulatorState {
  return JSON.parse(JSON.stringify(state)) as EmulatorState;
}
