// A file backend's save torn by a kill, and the repair docs/troubleshooting.md tells users to make
// ("A run killed while saving"). The CLI's file backend (gocloud.dev's fileblob, CLI v3.276.0) writes each file of
// the backend to a temporary file and renames it into place, but first rewrites the file's `<file>.attrs` sidecar
// in place (`os.Create`, which truncates it, then one write): a run SIGKILLed between the two leaves that sidecar
// empty, and every later read of the file fails ("failed to load checkpoint: EOF"; `pulumi stack ls` says
// "error: EOF"). The file itself is the last save, whole; fileblob reads a file without a sidecar as it reads one
// with, so removing the empty sidecar is the whole repair.
import * as fs from "node:fs";
import * as path from "node:path";
import type { CliStack } from "./cli-stack";

/** What the CLI says when a read of the backend met an empty sidecar: Go's io.EOF from decoding it. */
export const TORN_SAVE_ERROR = /\berror: (failed to load checkpoint: )?EOF\b/;

/** The directory of the stack's file backend (`file://<dir>`), or undefined for another backend. */
export function fileBackendDir(cli: CliStack): string | undefined {
  const url = cli.commandEnv().PULUMI_BACKEND_URL ?? "";
  return url.startsWith("file://") ? url.slice("file://".length).split("?")[0] : undefined;
}

/** The empty `.attrs` sidecars under `<backend>/.pulumi`, relative to the backend directory. */
export function emptySidecars(backendDir: string): string[] {
  const root = path.join(backendDir, ".pulumi");
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".attrs") && fs.statSync(path.join(root, f)).size === 0)
    .map((f) => path.join(".pulumi", f));
}

/** The repairs made by this process, for the tests to count (each is also printed). */
export const repairsMade: string[] = [];

/**
 * `pulumi cancel --yes` after a kill, as the page says: when it fails with the torn save's error, the empty sidecars
 * are removed (the page's `find … -name '*.attrs' -empty -delete`) and the cancel runs again. Any other failure,
 * or the error with no empty sidecar to remove, is thrown. Returns the sidecars removed.
 */
export async function cancelAfterKill(cli: CliStack): Promise<string[]> {
  try {
    await cli.cancel();
    return [];
  } catch (error) {
    const dir = fileBackendDir(cli);
    const torn = dir === undefined ? [] : emptySidecars(dir);
    if (!TORN_SAVE_ERROR.test(String(error)) || torn.length === 0) throw error;
    for (const file of torn) fs.rmSync(path.join(dir!, file));
    repairsMade.push(...torn);
    process.stderr.write(`a kill tore a save of stack ${cli.name}: removed ${torn.join(", ")}\n`);
    await cli.cancel();
    return torn;
  }
}
