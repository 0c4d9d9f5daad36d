/**
 * `rimuhosting-bill --stack <stack>`: runs the stack's preview with an event log, so that the bill is one command.
 * The Pulumi CLI registers `--event-log` only when PULUMI_DEBUG_COMMANDS is true (pulumi/pulumi,
 * pkg/cmd/pulumi/operations/preview.go; docs/cost.md), which the Automation API sets for the CLI it runs. So does
 * this, for that one child: the user's shell, and the other commands they run, never get it.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The variable, and its value, that makes the CLI accept `--event-log` (the one place the code names it). */
export const EVENT_LOG_SWITCH = { PULUMI_DEBUG_COMMANDS: "true" } as const;

/** A preview that ran: its event log (empty when it stopped before the engine started) and its exit code. */
export interface PreviewRun {
  eventLog: string;
  exitCode: number | null;
  /**
   * The `error:` lines of its display, without the prefix: the cause when it stopped before it finished (a policy
   * pack it could not load, a stack that does not exist), which its event log does not hold.
   */
  errors: string[];
}

/** At most this much of the display's end is kept for its `error:` lines (a preview's display can be long). */
const DISPLAY_TAIL = 64 * 1024;

/** The `error: …` lines of a preview's display, without the prefix and terminal colours, each once. */
export function errorLines(display: string): string[] {
  // eslint-disable-next-line no-control-regex -- ESC starts a terminal colour code, which is what is removed
  const plain = display.replace(/\x1b\[[0-9;]*m/g, "");
  const found = [...plain.matchAll(/^\s*error: (.+?)\s*$/gm)].map((m) => m[1]!);
  return [...new Set(found)];
}

/** The preview could not be started at all (no `pulumi` on PATH): what to tell the user. */
export class PreviewNotStarted extends Error {
  override name = "PreviewNotStarted";
}

/**
 * Runs `pulumi preview --stack <stack> --event-log <a file of its own> <previewArgs…>` in the current directory, its
 * display (stdout and stderr) written to `display`, so that the caller's stdout stays the bill's. Resolves once the
 * preview has ended, whatever its exit code: a failed preview writes its event log too, and the bill shows why it
 * failed; one that stopped before it finished writes only part of it, and its display's `error:` lines say why.
 */
export async function runPreview(
  stack: string,
  previewArgs: readonly string[],
  display: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PreviewRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rimuhosting-bill-"));
  const file = path.join(dir, "preview.events");
  let shown = "";
  const show = (chunk: Buffer) => {
    display.write(chunk);
    shown = (shown + chunk.toString("utf8")).slice(-DISPLAY_TAIL);
  };
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn("pulumi", ["preview", "--stack", stack, "--event-log", file, ...previewArgs], {
        env: { ...env, ...EVENT_LOG_SWITCH },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.on("data", show);
      child.stderr.on("data", show);
      child.on("error", (error: NodeJS.ErrnoException) =>
        reject(
          error.code === "ENOENT"
            ? new PreviewNotStarted(
                "cannot run `pulumi` for --stack: it is not on PATH. Install the Pulumi CLI or put its directory " +
                  "on PATH, then run this again",
              )
            : error,
        ),
      );
      child.on("close", resolve);
    });
    const eventLog = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    return { eventLog, exitCode, errors: errorLines(shown) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
