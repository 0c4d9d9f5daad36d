/**
 * A lock between the processes of one machine (stack-identity.ts: the "read; if absent set; read back" of a stack's
 * own tag), as a file under the OS temp directory. `link()` of a file already written puts the holder's record in
 * place whole or not at all (like `open(…, "wx")`, it fails when the lock exists), so a waiter never reads a half
 * written record.
 *
 * A holder killed while it held the lock leaves the file: it is stale when its process is gone. A pid alone does not
 * say that (pid_max may be 32768: a pid comes back within minutes on a busy machine), so the record holds the pid,
 * its start time (`/proc/<pid>/stat`, field 22) and the boot's id; a pid whose start time differs is another
 * process. Where there is no /proc, a live pid holds it for at most MAX_HOLD_MS (backend-reader.ts's setOrderTags
 * holds it for four CLI calls and the wait for the history read beside them, each ended after 60 s;
 * record-pruning.ts's removals after them are not counted). A stale lock is removed by the one waiter that creates
 * its takeover file (named by the dead holder's nonce, `wx`): two waiters never both remove a lock, so neither
 * removes the one the other then took. Takeover files stay until they are an hour old (a few bytes, only after a holder was
 * killed).
 */
import { createHash, randomBytes } from "node:crypto";
import { promises as fs, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTimeOf } from "../engine/process-start.js";

/** Longest a holder without /proc is trusted; longest a waiter waits (the holder's CLI calls end within 5 × 60 s). */
const MAX_HOLD_MS = 320_000;
const TAKEOVER_KEPT_MS = 3_600_000;

interface Holder {
  pid: number;
  start?: string;
  boot?: string;
  at: number;
  nonce: string;
}

const readOr = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
};

const bootId = (): string | undefined => readOr("/proc/sys/kernel/random/boot_id")?.trim();

/** True while the process that wrote `holder` may still hold the lock. */
function isLive(holder: Holder): boolean {
  const boot = bootId();
  if (holder.boot !== undefined && boot !== undefined && holder.boot !== boot) return false;
  if (holder.start !== undefined) return startTimeOf(holder.pid) === holder.start;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  return Date.now() - holder.at < MAX_HOLD_MS;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** This user's lock directory (per user: another user's would not be writable). */
const lockDir = () => join(tmpdir(), `rimuhosting-locks-${process.getuid?.() ?? "user"}`);

/**
 * Removes takeover files older than TAKEOVER_KEPT_MS (no waiter that judged their lock stale still waits), and the
 * records killed holders had not linked or removed yet.
 */
async function dropOldFiles(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith(".takeover") && !name.endsWith(".tmp")) continue;
    const file = join(dir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > TAKEOVER_KEPT_MS) await fs.rm(file, { force: true });
  }
}

/**
 * Runs `work` holding the machine's lock named `name` (a hash: no secret in a file name), or says why it could not
 * be taken (a live holder past MAX_HOLD_MS, a temp directory that cannot be written).
 */
export async function withMachineLock<T>(
  name: string,
  work: () => Promise<T>,
): Promise<{ value: T } | { why: string }> {
  const dir = lockDir();
  const lock = join(dir, `${name}.lock`);
  const mine: Holder = {
    pid: process.pid,
    start: startTimeOf(process.pid),
    boot: bootId(),
    at: Date.now(),
    nonce: randomBytes(8).toString("hex"),
  };
  let record = JSON.stringify(mine);
  const written = join(dir, `${name}.${mine.nonce}.tmp`);
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    await fs.writeFile(written, record, { flag: "wx" });
  } catch (error) {
    return { why: `the lock ${lock} could not be written (${codeOf(error) ?? String(error)})` };
  }
  try {
    const deadline = Date.now() + MAX_HOLD_MS;
    for (;;) {
      // Stamped as the lock is taken, not when the wait began: without /proc, other waiters trust the holder for
      // MAX_HOLD_MS from `at`, and its work needs all of it however long it waited. Our file is linked to nothing yet.
      mine.at = Date.now();
      record = JSON.stringify(mine);
      try {
        await fs.writeFile(written, record);
        await fs.link(written, lock);
        break;
      } catch (error) {
        if (codeOf(error) !== "EEXIST")
          return { why: `the lock ${lock} could not be taken (${codeOf(error) ?? String(error)})` };
      }
      const text = await fs.readFile(lock, "utf8").catch(() => undefined);
      if (text === undefined) continue; // released meanwhile
      let holder: Holder;
      try {
        holder = JSON.parse(text) as Holder;
      } catch {
        holder = { pid: 0, at: 0, nonce: createHash("sha256").update(text).digest("hex").slice(0, 16) };
      }
      if (isLive(holder)) {
        if (Date.now() > deadline)
          return {
            why: `the lock ${lock} was still held by process ${holder.pid} after ${MAX_HOLD_MS / 1000} s of waiting`,
          };
        await sleep(20 + Math.random() * 40);
        continue;
      }
      // Stale: removed by the one waiter that creates its takeover file; the others wait for that removal.
      const takeover = join(dir, `${name}.${holder.nonce}.takeover`);
      const won = await fs.writeFile(takeover, record, { flag: "wx" }).then(
        () => true,
        () => false,
      );
      if (won) {
        await fs.rm(lock, { force: true });
        await dropOldFiles(dir);
      } else await sleep(20);
    }
    try {
      return { value: await work() };
    } finally {
      // Still ours (only a takeover removes another's lock, and only a dead holder's): released.
      if ((await fs.readFile(lock, "utf8").catch(() => undefined)) === record)
        await fs.rm(lock, { force: true });
    }
  } finally {
    await fs.rm(written, { force: true });
  }
}
