/**
 * What the earlier updates of one stack recorded: the mark that tells a killed run's order (never in any state of
 * its stack) from a VPS that left the stack on purpose (`retainOnDelete`, `pulumi state delete`), which carries the
 * same stack token (stack-strays.ts; docs/troubleshooting.md, "A run was killed").
 *
 * A file backend (`file://`) keeps, for every operation that finished (an `up`, `refresh`, `destroy` or `import`,
 * failed or not), a copy of the stack's state as the operation left it: `.pulumi/history/<project>/<stack>/` holds
 * `<stack>-<time>.checkpoint.json` beside each `.history.json`, and `.pulumi/backups/<project>/<stack>/` another copy
 * (the layout without projects drops the `<project>/`; a `.gz` or `.zst` ending when the backend compresses). A run
 * killed with `kill -9` never finishes, so it adds neither; PULUMI_SKIP_CHECKPOINTS only stops the states written
 * during a run, not these copies. `pulumi stack rm` removes the history but keeps the backups (unless
 * `--remove-backups`), so a stack re-created with the same name still finds what the removed one recorded.
 *
 * The CLI prints no earlier state of a self-managed backend (`pulumi stack export --version N` needs a backend that
 * implements SpecificDeploymentExporter: in CLI v3.276.0's source only Pulumi Cloud does, not the diy backend that
 * serves file, PostgreSQL and S3), so a file backend's files are read where `pulumi whoami --json` says it is. Any other backend, no copy at all, or a copy that
 * cannot be read: `unread` says why, and nothing may be cancelled by this reading.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import * as zlib from "node:zlib";
import { backendUrlWithoutCredentials } from "../engine/backend-cli.js";
import { pulumiJson, type BackendStates, type StateResource } from "./backend-states.js";

/** The stack a creationScope (`<project>/<stack>/<name>`) names, or undefined. */
export function stackOfScope(creationScope: unknown): { project: string; stack: string } | undefined {
  if (typeof creationScope !== "string") return undefined;
  const [project, stack, ...name] = creationScope.split("/");
  return project && stack && name.length > 0 ? { project, stack } : undefined;
}

/** The directory of a `file://` backend URL (as the CLI resolves `~` and a relative path), or undefined. */
export function fileBackendDir(url: string, cwd: string): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  const path = decodeURIComponent(url.slice("file://".length).split("?")[0]!);
  if (path === "~" || path.startsWith("~/")) return join(homedir(), path.slice(1));
  return resolve(cwd, path);
}

/** The files holding copies of the stack's states: every finished operation's, and the stack's file with its `.bak`. */
function copiesOf(backendDir: string, { project, stack }: { project: string; stack: string }): string[] {
  const bookkeeping = join(backendDir, ".pulumi");
  const dirs = [
    ...[join("history", project, stack), join("history", stack)].map((d) => ({ d, only: ".checkpoint." })),
    ...[join("backups", project, stack), join("backups", stack)].map((d) => ({ d, only: "" })),
    ...[join("stacks", project), "stacks"].map((d) => ({ d, only: "" })),
  ];
  const files: string[] = [];
  for (const { d, only } of dirs) {
    const dir = join(bookkeeping, d);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isFile() || !/\.json(\.gz|\.zst)?(\.bak)?$/.test(entry.name)) continue;
      // In stacks/ only this stack's file (`<stack>.json`, its `.bak`), not its neighbours'.
      if (d.startsWith("stacks") && !entry.name.startsWith(`${stack}.json`)) continue;
      if (entry.name.includes(only)) files.push(join(dir, entry.name));
    }
  }
  return files;
}

/**
 * A checkpoint file's resources (its `.gz` or `.zst` ending undone), or why this Node.js cannot undo it. Throws when
 * the file cannot be read or parsed.
 */
function resourcesIn(file: string): StateResource[] | { why: string } {
  const raw = readFileSync(file);
  const name = file.replace(/\.bak$/, "");
  let text: Buffer = raw;
  if (name.endsWith(".gz")) text = zlib.gunzipSync(raw);
  else if (name.endsWith(".zst")) {
    const unzstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
    if (!unzstd) return { why: "this Node.js cannot read .zst files" };
    text = unzstd(raw);
  }
  const parsed = JSON.parse(text.toString("utf8")) as {
    checkpoint?: { latest?: { resources?: StateResource[] } };
  };
  return parsed.checkpoint?.latest?.resources ?? [];
}

/** The resources of every copy of the stack's states in the file backend at `backendDir` (see above). */
export function readStackCopies(
  backendDir: string,
  scope: { project: string; stack: string },
): BackendStates {
  const files = copiesOf(backendDir, scope);
  const finished = files.filter((f) => !f.includes(`${join(".pulumi", "stacks")}`));
  if (finished.length === 0)
    return {
      stacks: [],
      unread: `no finished operation of stack ${scope.stack} is recorded in ${join(backendDir, ".pulumi")}`,
    };
  const stacks: BackendStates["stacks"] = [];
  for (const file of files) {
    try {
      const resources = resourcesIn(file);
      if ("why" in resources) return { stacks, unread: `${file} could not be read (${resources.why})` };
      stacks.push({ stack: `${scope.stack} (${file})`, resources });
    } catch (error) {
      return {
        stacks,
        unread: `${file} could not be read (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
  return { stacks };
}

/** Every copy of the stack's states in the backend of the project in `cwd`, found through `pulumi whoami`. */
export async function readStackHistory(
  scope: { project: string; stack: string },
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<BackendStates> {
  const cwd = where.cwd ?? process.cwd();
  const who = await pulumiJson<{ url?: string }>(["whoami", "--json"], { cwd, env: where.env });
  if ("why" in who) return { stacks: [], unread: who.why };
  const url = who.value.url ?? "";
  const dir = fileBackendDir(url, cwd);
  if (dir === undefined)
    return {
      stacks: [],
      unread: `the backend ${url ? backendUrlWithoutCredentials(url) : "(unnamed)"} is not a file backend, whose earlier states this provider reads`,
    };
  return readStackCopies(dir, scope);
}
