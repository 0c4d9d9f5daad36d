/**
 * Who wrote a line of a plan file (shared-plan.ts's, previewed-plan.ts's), and whether that writer still runs. Both
 * files outlive the commands that write them, and their names come back: the shared plan's with the engine's address
 * (a port, used again by a later command), the previewed plan's with the stack. So each line names the run that wrote
 * it, unique to that run (a process id and a random part), and a reader tells this run's lines and a live run's from
 * those a finished command left.
 *
 * Owns: the run's name in the plan files (WRITER), nothing of their content.
 */
import { randomUUID } from "node:crypto";
import { runState, type RunContext } from "../engine/run-context.js";

/** The run's name in the plans it writes: unique, so no run takes another's lines for its own. */
const WRITER = runState("the run's name in the plans it shares", () => `${process.pid}/${randomUUID()}`);

/** The name `run` writes its plan lines under (`<pid>/<random>`). */
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

/** Whether the process that wrote a line (`<pid>/<run>`) still runs: a finished run's processes are gone. */
export function writerAlive(writer: string): boolean {
  const pid = Number(writer.split("/")[0]);
  return !Number.isInteger(pid) || pid <= 0 || isAlive(pid);
}
