/**
 * Progress lines from the provider, written where the run's sink sends them (RunContext.log): in the dynamic-provider
 * host, console output is what reaches the user (pulumi.log finds no engine there, docs/dynamic-providers.md §7);
 * the native plugin's run sends them to the engine's log, a command's (killed-orders) to its stderr. Never given
 * secrets.
 *
 * The host's lines are written in batches, one write per turn of the event loop: each write to the engine's pipe is
 * a system call that wakes the engine's reader, and an update of 300 VPSs wrote 600 lines one at a time, a tenth of
 * its provider host's time (docs/benchmarks.md, "Where a VPS's CPU goes"). Every engine call waits for its lines to
 * be written before it answers (linesWritten(), impl/index.ts), so a line is never left unwritten when the engine
 * stops the host after the last answer; the process's exit writes what is left.
 */

/** Lines waiting for the next write, and that write (one per turn of the event loop). */
class LineBatch {
  private lines: string[] = [];
  private scheduled: Promise<void> | undefined;

  constructor(private readonly write: (text: string) => void) {}

  add(line: string): void {
    this.lines.push(line);
    void this.written();
  }

  /** Resolves once every line added so far is written. */
  written(): Promise<void> {
    if (this.lines.length === 0) return Promise.resolve();
    return (this.scheduled ??= new Promise((resolve) =>
      setImmediate(() => {
        this.scheduled = undefined;
        this.flush();
        resolve();
      }),
    ));
  }

  /** Writes the waiting lines now, in one write. */
  flush(): void {
    if (this.lines.length === 0) return;
    const text = `${this.lines.join("\n")}\n`;
    this.lines = [];
    this.write(text);
  }
}

/** Writes to stdout in one call: a pipe's writes are synchronous, so nothing is lost at exit. */
export function batchedLines(write: (text: string) => void): LineBatch {
  return new LineBatch(write);
}

const stdoutLines = batchedLines((text) => process.stdout.write(text));
/** What the process's exit runs: the lines still waiting are written. */
const writeWaitingLines = (): void => stdoutLines.flush();

/** Where a run's log lines go, each whole, its prefix included. */
export type LogSink = (line: string) => void;

/** The host's output: stdout, in batches; the process's exit writes what is left (its listener added once). */
export const toStdout: LogSink = (line) => {
  if (!process.listeners("exit").includes(writeWaitingLines)) process.once("exit", writeWaitingLines);
  stdoutLines.add(line);
};

/** Writes `line` where `run`'s lines go (its sink: RunContext.log). */
export function log(run: { readonly log: LogSink }, line: string): void {
  run.log(`[rimuhosting] ${line}`);
}

/** Resolves once the lines logged so far are written (an engine call's, before it answers). */
export function linesWritten(): Promise<void> {
  return stdoutLines.written();
}
