/**
 * Where the budget's plan files live (shared-plan.ts's, one per command and account; previewed-plan.ts's, one per
 * stack and account), how a line is added to one, and the sweep of old ones. Owns: the plans' directory and its
 * tidiness, nothing of a plan's content.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** How every plan file's name starts (previewed-plan.ts's add to it), so one sweep finds them all. */
export const PLAN_PREFIX = "pulumi-rimuhosting-plan-";
/** Entries and files older than this are another command's, whatever process id it had. */
export const PLAN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the files of commands long finished from `dir` and, for those earlier versions wrote straight into the
 * temporary directory, from there too (under `dir`'s mark), so an upgrade leaves none behind. The mark's time says
 * whether any process swept in the last hour (sweepPlanFiles): a plan asks once (shared-plan.ts), and most asks
 * cost one stat of the mark.
 */
export function sweepOldPlanFiles(dir: string): void {
  sweepPlanFiles(dir, Date.now(), [os.tmpdir()]);
}

/**
 * The directory of this user's plan files (shared-plan.ts's and previewed-plan.ts's): one of their own in the system's
 * temporary directory, not the temporary directory itself. A machine that runs many commands (CI, a test suite)
 * leaves tens of thousands of plan files there in a day, and whatever lists the temporary directory pays for each:
 * the pulumi CLI reads every directory from a project's up to its repository's, so a project under /tmp took
 * 1.4-1.5 CPU-s per YAML preview against 0.8-0.9 with 249,000 plan files there (perf stat, three runs each).
 * Named by the user's id: another user's would refuse this one's writes (0700).
 */
export function planDirectory(): string {
  return path.join(os.tmpdir(), `pulumi-rimuhosting-plans-${process.getuid?.() ?? "user"}`);
}

/** The shared plan's file (shared-plan.ts) of the engine run `command` on the account `accountKey`. */
export function sharedPlanFile(accountKey: string, command: string): string {
  const name = createHash("sha256").update(`${command}\n${accountKey}`).digest("hex").slice(0, 32);
  return path.join(planDirectory(), `${PLAN_PREFIX}${name}.jsonl`);
}

/**
 * The file of the orders every provider of the engine run `command` places, whatever its account and key
 * (command-orders.ts).
 */
export function commandOrdersFile(command: string): string {
  const name = createHash("sha256").update(`${command}\norders of the command`).digest("hex").slice(0, 32);
  return path.join(planDirectory(), `${PLAN_PREFIX}orders-${name}.jsonl`);
}

/** The previewed plan's file (previewed-plan.ts) of the stack `stack` (project/stack) on the account `accountKey`. */
export function previewedPlanFile(accountKey: string, stack: string): string {
  const name = createHash("sha256").update(`${accountKey}\n${stack}`).digest("hex").slice(0, 32);
  return path.join(planDirectory(), `${PLAN_PREFIX}stack-${name}.jsonl`);
}

/**
 * Appends `text` (one line, one write: O_APPEND keeps concurrent writers' lines whole) to the plan file `file`,
 * making its directory (planDirectory) on first use, readable by this user alone. Throws what the file system
 * throws: the callers go on without a shared plan.
 */
export function appendPlanLine(file: string, text: string): void {
  try {
    fs.appendFileSync(file, text, { mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.appendFileSync(file, text, { mode: 0o600 });
  }
}

/**
 * The whole lines appended to the plan file `file` since byte `offset` (a line not yet ended is left for the next
 * read) and the offset after them; `restart` when the file is shorter than `offset` (removed and begun again: read
 * from its start). Throws what the file system throws (no file yet).
 */
export function linesSince(
  file: string,
  offset: number,
): { lines: string[]; offset: number; restart: boolean } {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const restart = size < offset;
    const from = restart ? 0 : offset;
    if (size === from) return { lines: [], offset: from, restart };
    const bytes = Buffer.alloc(size - from);
    const got = fs.readSync(fd, bytes, 0, bytes.length, from);
    const complete = got === 0 ? 0 : bytes.lastIndexOf(0x0a, got - 1) + 1;
    const lines = bytes.subarray(0, complete).toString("utf8").split("\n");
    return { lines: lines.filter((line) => line !== ""), offset: from + complete, restart };
  } finally {
    fs.closeSync(fd);
  }
}

/** The file whose time says when `dir`'s plan files were last swept. */
const SWEPT_MARK = `${PLAN_PREFIX}swept`;
/** How often a directory's plan files are swept, by any process. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Removes `dir`'s plan files older than PLAN_MAX_AGE_MS, unless a process swept it in the last hour. A machine that runs
 * many commands (CI, a test suite) leaves tens of thousands of plan files in a day; stating each at the start of
 * every provider process cost 0.3-0.5 s of CPU per process with 74,000 of them, so one process an hour sweeps,
 * and the others read only the mark's time. The directories `alsoIn` are swept with `dir`, under its mark.
 */
export function sweepPlanFiles(dir: string, now: number, alsoIn: readonly string[] = []): void {
  const mark = path.join(dir, SWEPT_MARK);
  try {
    if (now - fs.statSync(mark).mtimeMs < SWEEP_EVERY_MS) return;
  } catch {
    // No mark yet: sweep.
  }
  try {
    fs.writeFileSync(mark, "");
  } catch {
    return; // No directory yet (nothing to sweep), or none of ours: sweeping is tidiness only.
  }
  for (const swept of [dir, ...alsoIn]) {
    try {
      for (const name of fs.readdirSync(swept)) {
        if (!name.startsWith(PLAN_PREFIX) || name === SWEPT_MARK) continue;
        const file = path.join(swept, name);
        if (now - fs.statSync(file).mtimeMs > PLAN_MAX_AGE_MS) fs.rmSync(file, { force: true });
      }
    } catch {
      // Sweeping is tidiness only.
    }
  }
}
