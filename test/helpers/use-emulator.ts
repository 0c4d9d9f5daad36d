/** Jest helpers around startTestEmulator: one emulator per describe block/file, and a temp dir. */
import { afterAll, beforeAll } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { StartEmulatorOptions } from "../../emulator/index.js";
import { type TestEmulator, startTestEmulator } from "./start-emulator.js";

/** Starts one emulator for the enclosing describe block / file and closes it afterwards. */
export function useEmulator(options: StartEmulatorOptions = {}): () => TestEmulator {
  let emu: TestEmulator | undefined;
  beforeAll(async () => {
    emu = await startTestEmulator(options);
  });
  afterAll(async () => {
    await emu?.close();
  });
  return () => {
    if (!emu) throw new Error("useEmulator(): the emulator is only available inside tests");
    return emu;
  };
}

/** A temporary directory removed after the file's tests (for state files). */
export function useTempDir(): () => string {
  let dir: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "rimu-emu-"));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => dir!;
}
