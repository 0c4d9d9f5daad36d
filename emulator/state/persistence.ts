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

/**
 * The state file's directory must exist and be a directory: a typo in --state-file should fail at
 * start-up, not create directories somewhere unexpected.
 */
export async function requireStateDirectory(file: string): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  let isDirectory: boolean;
  try {
    isDirectory = (await fs.stat(dir)).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    throw emuError("EMU_ERR_STATE_INVALID", {
      message: `The directory of the state file ${file} (${dir}) does not exist. Create it first (mkdir -p ${dir}) or choose another path.`,
    });
  }
}

/**
 * Writes the whole state to a temp file beside the state file, then renames it over the file: a
 * crash at any moment leaves either the old or the new state, never half of one. Without fsync:
 * what is written survives the emulator being killed (the kernel has it), not a power cut.
 */
export async function writeStateFile(file: string, state: EmulatorState): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++tempCounter}.tmp`);
  try {
    await fs.writeFile(temp, JSON.stringify(state));
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
