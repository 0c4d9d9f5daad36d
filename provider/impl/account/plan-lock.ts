/**
 * The lock of a shared plan's file (shared-plan.ts): the provider processes of one run read, change and write the
 * file, and two doing so at once would lose one's change (each writes what it read plus its own entry). A lock file
 * beside it, made with O_EXCL (`wx`: made only if absent, atomically, also on NFS v3+), held for the few
 * milliseconds of one read-change-write, all synchronous.
 *
 * Stale locks: a process killed while holding it leaves the file. It is taken as stale when the process it names
 * is gone, or when it is older than STALE_MS (no holder keeps it that long: a read and a write of a small file).
 * A process that cannot have the lock within WAIT_MS goes on without sharing that entry, as when the file cannot be
 * written at all: each provider then judges its own VPSs, and the guard at ordering reads the account fresh.
 */
import * as fs from "node:fs";

const STALE_MS = 10_000;
const WAIT_MS = 2_000;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Whether process `pid` is alive (a process of another user is: signal 0 is refused with EPERM). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes `lock` when the process it names is gone or it is older than STALE_MS; true when it did. */
function removedIfStale(lock: string): boolean {
  try {
    const holder = Number(fs.readFileSync(lock, "utf8").split("\n")[0]);
    const age = Date.now() - fs.statSync(lock).mtimeMs;
    if ((Number.isInteger(holder) && holder > 0 && !isAlive(holder)) || age > STALE_MS) {
      fs.rmSync(lock, { force: true });
      return true;
    }
  } catch {
    // Gone meanwhile (released), or half-written by its maker this very moment: try again.
  }
  return false;
}

/** Runs `change` holding `${file}.lock`; false (and `change` not run) when the lock could not be had. */
export function withPlanLock(file: string, change: () => void): boolean {
  const lock = `${file}.lock`;
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      if (removedIfStale(lock)) continue;
      if (Date.now() > until) return false;
      Atomics.wait(PAUSE, 0, 0, 2);
    }
  }
  try {
    change();
  } finally {
    fs.rmSync(lock, { force: true });
  }
  return true;
}
