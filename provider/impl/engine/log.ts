/**
 * Progress lines from the provider. In the dynamic-provider host, console output is what reaches the
 * user (pulumi.log finds no engine there, docs/dynamic-providers.md §7). Never given secrets.
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
let exitWrites = false;

/** The host's output: stdout, in batches. */
const toStdout = (line: string): void => {
  if (!exitWrites) process.once("exit", () => stdoutLines.flush());
  exitWrites = true;
  stdoutLines.add(line);
};

let sink: (line: string) => void = toStdout;

export function log(line: string): void {
  sink(`[rimuhosting] ${line}`);
}

/** Resolves once the lines logged so far are written (an engine call's, before it answers). */
export function linesWritten(): Promise<void> {
  return stdoutLines.written();
}

/** Replaces the output (tests collect lines instead of printing them); none: stdout again. */
export function setLogSink(next?: (line: string) => void): void {
  sink = next ?? toStdout;
}
