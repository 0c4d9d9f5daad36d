/**
 * Runs a command with a pseudo-terminal as its standard input, output and error, as a person at a terminal runs it,
 * typing nothing: util-linux's `script` makes the terminal and passes on what it reads from its own standard input,
 * which is held open and never written, so a command that reads the terminal waits as it would for a person. A
 * command still running after `limitMs` is ended (its code is then null): a hang is what the callers look for.
 */
import { spawn } from "node:child_process";
import { expect } from "@jest/globals";

export interface TerminalOutcome {
  /** The command's exit code (`script -e` passes it on); null when it was ended at the limit. */
  code: number | null;
  /** What it wrote to the terminal, both streams together, with the terminal's \r\n made \n. */
  output: string;
  /** How long it ran, in milliseconds. */
  ms: number;
}

/**
 * `file args` in a pseudo-terminal, nothing typed, in `env` and `cwd` (default: this process's); ended after
 * `limitMs`.
 */
export function runInTerminal(
  file: string,
  args: string[],
  { env, cwd, limitMs = 10_000 }: { env?: NodeJS.ProcessEnv; cwd?: string; limitMs?: number } = {},
): Promise<TerminalOutcome> {
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", [file, ...args].map(quote).join(" "), "/dev/null"], {
      stdio: ["pipe", "pipe", "pipe"],
      env,
      cwd,
    });
    let output = "";
    let ended = false;
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      ended = true;
      child.kill("SIGKILL");
    }, limitMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code: ended ? null : code, output: output.replace(/\r\n/g, "\n"), ms: Date.now() - started });
    });
  });
}

/** Why bill and drift, given no file at a terminal, print their help instead of waiting for what is typed. */
export const NO_FILE_AT_TERMINAL = "no file given, and standard input is a terminal: ";

/**
 * Runs `name` (`file args`) at a terminal with nothing given and expects what bill, drift and import-file promise:
 * the line saying why (starting with `why`, NO_FILE_AT_TERMINAL for bill and drift), then the help (whose usage
 * line starts with `usage`, a regular expression), exit 2, and no waiting. `options` as for runInTerminal.
 */
export async function expectHelpAtTerminal(
  name: string,
  file: string,
  args: string[],
  usage: string,
  why = NO_FILE_AT_TERMINAL,
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<void> {
  const { code, output, ms } = await runInTerminal(file, args, options);
  expect({ code, output }).toEqual({
    code: 2,
    output: expect.stringMatching(new RegExp(`^${name}: ${why}.*\\n\\nUsage: ${name} ${usage}`)),
  });
  expect(ms).toBeLessThan(5_000); // it exits at once; generous for a loaded machine, where a hang runs to 10 s
}
