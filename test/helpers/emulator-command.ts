// The emulator command run as users run it, as a real process: `rimuhosting-emulator`, bin/'s or a packed plugin's
// `pulumi-resource-rimuhosting emulator`, or `pulumi plugin run`. It runs in a process group of its own, ended with
// SIGTERM (as Ctrl-C ends it) by stop(), or with SIGKILL if the test process exits first. answersAsTheEmulator
// checks what a user and a client first see of it.
import { spawn } from "node:child_process";
import { expect } from "@jest/globals";
import { scaledMs } from "./deadlines.js";

export interface RunningCommand {
  /** What it printed on stdout up to the end of its banner (the `export RIMUHOSTING_BASEURL=…` line). */
  stdout: string;
  /** The banner's base URL, `http://127.0.0.1:<port>/r`. */
  baseUrl: string;
  /** Everything it printed since it started, stdout and stderr. */
  output(): string;
  /** The process started (the group's leader). */
  pid: number;
  /** SIGTERM to its process group; resolves with its exit code when it has exited. */
  stop(): Promise<number | null>;
}

const running = new Set<number>();
process.once("exit", () => {
  for (const pid of running)
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
});

/** Starts `command args…` and resolves once its banner is out (rejects if it exits first or takes too long). */
export function startEmulatorCommand(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<RunningCommand> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const pid = child.pid!;
  running.add(pid);
  let stdout = "";
  let all = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // The whole group, even once the leader is gone: what it started may still run (a plugin `pulumi plugin run` left).
  const stop = async () => {
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      // gone
    }
    running.delete(pid);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        void stop().then(() =>
          reject(new Error(`\`${command} ${args.join(" ")}\` printed no banner in time:\n${all}`)),
        );
      },
      scaledMs(options.timeoutMs ?? 60_000),
    );
    child.stderr.on("data", (chunk: Buffer) => (all += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      all += chunk.toString();
      const banner = /^export RIMUHOSTING_BASEURL=.*\n/m.exec(stdout);
      const baseUrl = /listening on (http:\/\/\S+\/r)\n/.exec(stdout)?.[1];
      if (banner && baseUrl) {
        clearTimeout(timer);
        resolve({
          stdout: stdout.slice(0, banner.index + banner[0].length),
          baseUrl,
          output: () => all,
          pid,
          stop,
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`\`${command} ${args.join(" ")}\` exited ${code} before its banner:\n${all}`));
    });
  });
}

/** Its banner first (started with `--time-scale 0.05`), then a client's GET /r/distributions answered. */
export async function answersAsTheEmulator(emulator: RunningCommand): Promise<void> {
  expect(emulator.stdout.split("\n")[0]).toMatch(
    /^RimuHosting emulator listening on http:\/\/127\.0\.0\.1:\d+\/r$/,
  );
  expect(emulator.stdout).toContain("Time scale 0.05: a create takes 2.3 s");
  const res = await fetch(`${emulator.baseUrl}/distributions`, { headers: { accept: "application/json" } });
  expect(res.status).toBe(200);
  expect(Object.keys((await res.json()) as object)).toEqual(["get_distros_response"]);
}
