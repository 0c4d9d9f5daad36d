/**
 * When a process started, as the system tells it: what, beside its id, says a process is the one that wrote a record.
 * A process id alone does not (pid_max is 32768 on many Linux systems, so ids come round within minutes on a busy
 * machine): a record of a process long gone looks alive once an unrelated process gets its id.
 *
 * Owns: nothing of the process (a read of the system's table each call).
 */
import { readFileSync } from "node:fs";

/**
 * Process `pid`'s start time (Linux: /proc/<pid>/stat's field 22, in clock ticks after boot), or undefined where it
 * cannot be read: no such process, or no /proc (macOS, Windows).
 */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2, the command's name, is in parentheses and may hold spaces and parentheses: count from the last ")".
    const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[22 - 3];
    return start !== undefined && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}
