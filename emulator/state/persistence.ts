/**
 * Reading and writing the state file. Writes are atomic (temp file in the same directory, then
 * rename), so a crash never leaves a half-written file; loads are validated with the versioned schema.
 */
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { emuError } from "../errors.js";
import type { EmulatorState } from "./schema.js";
import { parseStateJson } from "./state-json.js";

/** The state in the file, or undefined when the file does not exist yet. */
export async function loadStateFile(file: string): Promise<EmulatorState | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return parseStateText(text, `The emulator state file ${file}`, "Delete it or point stateFile elsewhere.");
}

/** The state in a snapshot file (--load-snapshot): it must exist, unlike a state file, which starts empty. */
export async function loadSnapshotFile(file: string): Promise<EmulatorState> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    throw emuError("EMU_ERR_STATE_INVALID", {
      message: `The snapshot file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Give --load-snapshot a file saved from GET /__emulator/snapshots/<name> or a state file.`,
    });
  }
  return parseStateText(
    text,
    `The snapshot file ${file}`,
    "Save it again from GET /__emulator/snapshots/<name>.",
  );
}

function parseStateText(text: string, source: string, fix: string): EmulatorState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw emuError("EMU_ERR_STATE_INVALID", { message: `${source} is not JSON. ${fix}` });
  }
  return parseStateJson(raw, source, "EMU_ERR_STATE_INVALID");
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
