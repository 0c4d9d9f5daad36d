/**
 * The state's JSON, one format for the state file (--state-file) and for snapshots (--load-snapshot, the control
 * API's /__emulator/snapshots): parsed against the versioned schema, with a version another emulator wrote named as
 * such rather than reported as a field that does not match.
 */
import * as z from "zod";
import { type EmulatorErrorCode, emuError } from "../errors.js";
import { migrateState } from "./migrations.js";
import { EmulatorState, STATE_VERSION } from "./schema.js";

/**
 * `raw` (parsed JSON) as the current state version, or the error `code` with a message naming `source` ("the
 * emulator state file x.json", "the snapshot file y.json") and what to do.
 */
export function parseStateJson(raw: unknown, source: string, code: EmulatorErrorCode): EmulatorState {
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version !== STATE_VERSION) {
    const which = version > STATE_VERSION ? "a newer" : "an older";
    throw emuError(code, {
      message: `${source} is state version ${version}, written by ${which} emulator; this emulator reads version ${STATE_VERSION}. Load it with the emulator that saved it, or save the state again with this one.`,
    });
  }
  const parsed = EmulatorState.safeParse(migrateState(raw));
  if (!parsed.success) {
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
