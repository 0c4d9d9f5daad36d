// The machinery for killing the real `pulumi` engine mid-operation: SIGKILL a whole run (the CLI, its language host,
// its provider hosts) once a condition holds and `pulumi cancel` after it, cut a request at a loopback proxy while the
// kill happens, and read the checkpoint the killed run leaves. The scenarios built on it: engine-kill.ts; other tests
// that kill a run: killed-runs.test.ts, killed-destroy.test.ts, state-moves.test.ts and the rest that import this.
//
// CLI only: what a killed engine leaves behind (its lock, pending operations in the checkpoint, a provider host
// that outlives it) and what the user then runs (`pulumi cancel`, `refresh --clear-pending-creates`) exist only in
// the real engine.
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import type { CliStack } from "./cli-stack";
import type { Scenario } from "./e2e-support";
import { cancelAfterKill } from "./torn-save";
import { until } from "../helpers/promises";

/** The live processes whose environment carries E2E_KILL_TAG=<tag>, with their command lines (Linux: /proc). */
export function taggedProcesses(tag: string): { pid: number; command: string }[] {
  const marker = `E2E_KILL_TAG=${tag}`;
  const found: { pid: number; command: string }[] = [];
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue; // a zombie has ended
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim();
      found.push({ pid: Number(pid), command });
    } catch {
      // gone already, or not ours to read
    }
  }
  return found;
}

/** SIGKILLs every process whose environment carries E2E_KILL_TAG=<tag>. */
export function killTagged(tag: string): void {
  for (const { pid } of taggedProcesses(tag)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
}

/**
 * `pulumi <command>` on the stack, SIGKILLed once `killWhen` holds (it also gets the kill itself, for callers that
 * must kill at an exact moment), then `pulumi cancel`: the killed engine leaves its lock behind (and, killed while
 * saving, an empty sidecar of the file backend, removed as docs/troubleshooting.md says: torn-save.ts). Fails if the
 * command ends by itself before `killWhen` holds. Resolves to the sidecars removed.
 */
export async function runKilled(
  cli: CliStack,
  command: "up" | "refresh" | "destroy",
  what: string,
  killWhen: (killNow: () => void) => boolean | Promise<boolean>,
): Promise<string[]> {
  const tag = crypto.randomBytes(8).toString("hex");
  const child = spawn(
    "pulumi",
    [command, "--yes", "--skip-preview", "--non-interactive", "--stack", cli.name],
    {
      cwd: cli.programDir,
      env: { ...cli.commandEnv(), E2E_KILL_TAG: tag },
      detached: true, // its own process group: pulumi, the language host, the program
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code) => {
      exitCode = code;
      resolve();
    }),
  );
  let killed = false;
  const killNow = (): void => {
    if (killed) return;
    killed = true;
    if (exitCode === undefined) process.kill(-child.pid!, "SIGKILL");
    // The engine starts its plugins (the provider host) in process groups of their own, so they outlive a kill
    // of its group, as a CI runner's kill of the whole job would not let them: end every process of this run.
    killTagged(tag);
  };
  try {
    await until(what, async () => {
      if (await killWhen(killNow)) return true;
      if (exitCode !== undefined && !killed)
        throw new Error(`pulumi ${command} ended (exit ${exitCode}) before ${what}:\n${output}`);
      return false;
    });
  } finally {
    killNow();
    await exited;
  }
  return cancelAfterKill(cli);
}

/**
 * A loopback TCP proxy to `target` that, when a request starting with `requestLine` passes, calls `onMatch` (before
 * anything of that request is forwarded) and cuts both connections.
 */
export async function killingProxy(
  target: URL,
  requestLine: string,
  onMatch: () => void,
): Promise<{ url: string; matched(): boolean; close(): void }> {
  let matched = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let recent = "";
    client.on("data", (chunk: Buffer) => {
      recent = (recent + chunk.toString("latin1")).slice(-4096);
      if (recent.includes(requestLine)) {
        matched = true;
        onMatch();
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    matched: () => matched,
    close: () => {
      for (const sock of sockets) sock.destroy();
      server.close();
    },
  };
}

type Outputs = Record<string, unknown>;
export interface Checkpoint {
  deployment: {
    resources?: { urn: string; id?: string; type: string; outputs?: Outputs }[];
    pending_operations?: { type?: string; resource: { urn: string } }[];
  };
}

/** The stack's checkpoint as `pulumi stack export` prints it (secrets encrypted). */
export async function checkpointOf(s: Scenario): Promise<Checkpoint> {
  return JSON.parse(await s.stack.exportState()) as Checkpoint;
}
