/**
 * Runs a documented command line the way a user's shell does (bash), in a project directory: to completion, or,
 * for a server such as the emulator, until its output shows the lines the documentation promises.
 */
import { spawn } from "node:child_process";
import { scaledMs } from "../../helpers/deadlines.js";

export interface ShellResult {
  code: number | null;
  /** stdout and stderr, interleaved as they came. */
  output: string;
}

export interface ShellOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the command's stdin, which is then closed (the answer to a prompt). */
  input?: string;
  /** Only `env` (see user-env.ts), nothing of the test's own environment. */
  clean?: boolean;
}

/** npm without audit, fund or update-notifier noise, taking what its cache has before asking the registry. */
export const QUIET_NPM_ENV = {
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
  npm_config_prefer_offline: "true",
};

/** Runs `command` with `bash -c` and resolves when it ends, whatever its exit code. */
export function shell(command: string, options: ShellOptions): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-o", "pipefail", "-c", command], {
      cwd: options.cwd,
      env: options.clean ? options.env : { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
    // A command that exits without reading its stdin closes the pipe first (EPIPE): not an error of the command.
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.stdin.end(options.input ?? "");
  });
}

/** Runs `command` and rejects, with its output, unless it exits 0. */
export async function shellOk(command: string, options: ShellOptions): Promise<string> {
  const result = await shell(command, options);
  if (result.code !== 0) throw new Error(`\`${command}\` exited with ${result.code}:\n${result.output}`);
  return result.output;
}

export interface Server {
  /** What it printed until every expected line had appeared. */
  output: string;
  /** Ends it (its whole process group: `npx` starts the server as a child) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts a long-running command in a process group of its own and resolves once its output matches each of
 * `expected` (in any order); rejects with its output if it exits first or `timeoutMs` passes.
 */
export function startServer(
  command: string,
  options: ShellOptions & { expected: RegExp[]; timeoutMs?: number },
): Promise<Server> {
  const child = spawn("bash", ["-c", command], {
    cwd: options.cwd,
    env: options.clean ? options.env : { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    // The whole group, even when its leader has exited: `pulumi plugin run` ends without ending the plugin it
    // started, which stays in the group (with PPID 1) and would outlive the test.
    try {
      process.kill(-child.pid!, "SIGTERM"); // the group this call created, and nothing else
    } catch {
      // every process of the group is gone
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => {
        void stop().then(() =>
          reject(new Error(`\`${command}\` did not print what was expected in time:\n${output}`)),
        );
      },
      scaledMs(options.timeoutMs ?? 120_000),
    );
    const seen = (text: string) => {
      output += text;
      if (options.expected.every((pattern) => pattern.test(output))) {
        clearTimeout(timer);
        resolve({ output, stop });
      }
    };
    child.stdout.setEncoding("utf8").on("data", seen);
    child.stderr.setEncoding("utf8").on("data", seen);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`\`${command}\` exited with ${code} before printing what was expected:\n${output}`));
    });
  });
}

/** A documented output line as a pattern: `…` stands for anything, `<port>` for a port number (captured). */
export function shownLinePattern(line: string): RegExp {
  const escaped = line
    .trim()
    .split(/(…|<port>)/)
    .map((part) =>
      part === "…" ? ".*?" : part === "<port>" ? "(\\d+)" : part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"),
    )
    .join("")
    .replace(/ +/g, "\\s+");
  return new RegExp(escaped);
}

/**
 * A page's emulator command on a free port: the command's own default, 8780, may be held by another test running
 * at the same time or by the developer's own emulator.
 */
export const onFreePort = (command: string): string =>
  command.replace(/\brimuhosting-emulator\b/, "$& --port 0");
