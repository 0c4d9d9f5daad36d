/**
 * Who wrote a line of a plan file (shared-plan.ts's, previewed-plan.ts's), and whether that writer still runs. Both
 * files outlive the commands that write them, and their names come back: the shared plan's with the engine's address
 * (a port, used again by a later command), the previewed plan's with the stack. So each line names the run that wrote
 * it, unique to that run (a process id and a random part), and a reader tells this run's lines and a live run's from
 * those a finished command left.
 *
 * A process id alone does not say the writer still runs: ids come round (pid_max is 32768 on many Linux systems), and
 * a finished run's entry whose id an unrelated process got later looked alive, its change counted by every reader of
 * the command. So a writer is its process id and that process's start time (engine/process-start.ts), and it is
 * alive only while a process with that id and that start time runs. Where the start time cannot be read (no /proc:
 * macOS, Windows; or a writer of an earlier release, which named none), the id alone decides, as before: that errs
 * towards alive, so a finished run's planned change is counted in the others' totals, and a judge refuses a change it
 * could have passed rather than orders past the budget.
 *
 * Owns: the run's name in the plan files (WRITER), nothing of their content.
 */
import { randomUUID } from "node:crypto";
import { startTimeOf } from "../engine/process-start.js";
import { runState, type RunContext } from "../engine/run-context.js";

/** The run's name in the plans it writes: unique, so no run takes another's lines for its own. */
const WRITER = runState("the run's name in the plans it shares", () => {
  const start = startTimeOf(process.pid);
  return `${process.pid}${start === undefined ? "" : `:${start}`}/${randomUUID()}`;
});

/** The name `run` writes its plan lines under (`<pid>[:<start time>]/<random>`). */
export const writerOf = (run: RunContext): string => run.get(WRITER);

/** Whether process `pid` is alive (a process of another user is: signal 0 is refused with EPERM). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the process that wrote a line (`<pid>[:<start time>]/<run>`) still runs: a finished run's processes are
 * gone, and a process that got its id since started later.
 */
export function writerAlive(writer: string): boolean {
  const [id, start] = (writer.split("/")[0] ?? "").split(":");
  const pid = Number(id);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (!isAlive(pid)) return false;
  // No start time to compare (the file's comment): the id alone, erring towards alive.
  const now = start === undefined ? undefined : startTimeOf(pid);
  return now === undefined || now === start;
}
