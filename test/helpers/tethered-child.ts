// Child node processes that cannot outlive the process that started them. Tests start provider hosts
// (provider-host.ts) and the emulator's command; if the test process is killed (SIGKILL, a crashed jest worker) it gets no chance to end them, and a provider host
// is a gRPC server that would otherwise run forever.
//
// The children themselves are started exactly as the engine starts them (no preload, no extra flags: cmd/run changes
// behaviour when it sees `--import`/`--require`). Instead, one small "reaper" process per test process holds the
// read end of a pipe from it and is told the pid of every child as it starts and ends. When that process dies, however
// it dies, the kernel closes the pipe; the reaper sees end-of-file, kills the children still listed, and exits.
// Children still running when it exits normally are killed by an exit hook.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";

export type TetheredChild = ChildProcessByStdio<null, Readable, Readable>;

/** The reaper: reads "+pid" / "-pid" lines; on end-of-file kills every pid still registered. */
const REAPER_SOURCE = `
const pids = new Set();
let pending = "";
const end = () => {
  for (const pid of pids) { try { process.kill(pid, "SIGKILL"); } catch {} }
  process.exit(0);
};
process.on("SIGINT", () => undefined);
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (pending + chunk).split("\\n");
  pending = lines.pop();
  for (const line of lines) (line[0] === "+" ? pids.add(Number(line.slice(1))) : pids.delete(Number(line.slice(1))));
});
process.stdin.on("end", end).on("error", end);
`;

let reaper: ChildProcessByStdio<Writable, null, null> | undefined;
const live = new Set<TetheredChild>();

function tell(line: string): void {
  if (!reaper) {
    // Its own process group, so a terminal's Ctrl-C reaches it only through the closed pipe, after the test process.
    reaper = spawn(process.execPath, ["-e", REAPER_SOURCE], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
    });
    reaper.unref();
    (reaper.stdin as Socket).unref();
    reaper.stdin.on("error", () => undefined);
    process.once("exit", () => {
      for (const child of live) child.kill("SIGKILL");
    });
  }
  reaper.stdin.write(`${line}\n`);
}

/** `node <script> ...args` with stdout/stderr piped; ended when this process ends or dies. */
export function spawnTethered(
  script: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): TetheredChild {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) return child; // failed to start: the "error" event says why
  const pid = child.pid;
  live.add(child);
  tell(`+${pid}`);
  child.once("exit", () => {
    live.delete(child);
    tell(`-${pid}`);
  });
  return child;
}
