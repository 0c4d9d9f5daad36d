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

/**
 * What the CLI says when a read of the backend met an empty sidecar: Go's io.EOF from decoding it. The stack's tags
 * (`<stack>.pulumi-tags`, the provider's run records) are written the same way, and `pulumi up` says
 * "failed to load stack tags: failed to read stack tags file: EOF" when their sidecar is the torn one.
 */
export const TORN_SAVE_ERROR =
  /\berror: (failed to load checkpoint: |failed to load stack tags: failed to read stack tags file: )?EOF\b/;

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
 * are removed (the page's `find … -name '*.attrs' -empty -delete`) and the cancel runs again; an empty sidecar of the
 * stack's tags is removed too (below). Any other failure, or the error with no empty sidecar to remove, is thrown.
 * Returns the sidecars removed.
 */
export async function cancelAfterKill(cli: CliStack): Promise<string[]> {
  const cancelled = await repairedIfTorn(cli, () => cli.cancel());
  // `pulumi cancel` reads the checkpoint, not the stack's tags, and `pulumi stack tag ls` reads torn tags as none at
  // all; `pulumi up` fails on them ("failed to load stack tags: failed to read stack tags file: EOF"). A kill during a
  // write of the tags (the provider's run records, `pulumi stack tag set`) leaves that (a CI flake of
  // skip-checkpoints-kill.test.ts): the page's repair, made now for the tags' sidecar.
  const dir = fileBackendDir(cli);
  const tags = dir === undefined ? [] : emptySidecars(dir).filter((f) => f.endsWith(".pulumi-tags.attrs"));
  for (const file of tags) fs.rmSync(path.join(dir!, file));
  if (tags.length > 0) {
    repairsMade.push(...tags);
    process.stderr.write(`a kill tore a save of stack ${cli.name}'s tags: removed ${tags.join(", ")}\n`);
  }
  return [...cancelled, ...tags];
}

/** Runs `read`; when it fails with the torn save's error, removes the empty sidecars and runs it again. */
async function repairedIfTorn(cli: CliStack, read: () => Promise<unknown>): Promise<string[]> {
  try {
    await read();
    return [];
  } catch (error) {
    const dir = fileBackendDir(cli);
    const torn = dir === undefined ? [] : emptySidecars(dir);
    if (!TORN_SAVE_ERROR.test(String(error)) || torn.length === 0) throw error;
    for (const file of torn) fs.rmSync(path.join(dir!, file));
    repairsMade.push(...torn);
    process.stderr.write(`a kill tore a save of stack ${cli.name}: removed ${torn.join(", ")}\n`);
    await read();
    return torn;
  }
}
