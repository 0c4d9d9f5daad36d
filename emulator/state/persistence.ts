/**
 * Reading and writing the state file. Writes are atomic (temp file in the same directory, then
 * rename), so a crash never leaves a half-written file; loads are validated with the versioned schema.
 */
import { promises as fs } from "node:fs";
import * as path from "node:path";
import * as z from "zod";
import { emuError } from "../errors.js";
import { migrateState } from "./migrations.js";
import { EmulatorState, STATE_VERSION } from "./schema.js";

/** The state in the file, or undefined when the file does not exist yet. */
export async function loadStateFile(file: string): Promise<EmulatorState | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw emuError("EMU_ERR_STATE_INVALID", {
      message: `The emulator state file ${file} is not JSON. Delete it or point stateFile elsewhere.`,
    });
  }
  const parsed = EmulatorState.safeParse(migrateState(raw));
  if (!parsed.success) {
    throw emuError("EMU_ERR_STATE_INVALID", {
      message: `The emulator state file ${file} does not match state version ${STATE_VERSION}: ${z.prettifyError(parsed.error)}`,
    });
  }
  return parsed.data;
}

let tempCounter = 0;

export async function writeStateFile(file: string, state: EmulatorState): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++tempCounter}.tmp`);
  await fs.writeFile(temp, JSON.stringify(state, null, 1));
  await fs.rename(temp, file);
}
