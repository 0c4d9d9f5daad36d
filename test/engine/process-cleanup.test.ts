// A test that starts provider hosts must leave nothing running even when it gets no chance to clean up: a process
// that started a real provider host is killed with SIGKILL, and the host must end too (a run once left one behind).
// Runs the compiled helpers (dist/, from `npm run build`), because the killed process is a plain node process.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { until } from "../helpers/promises";

jest.setTimeout(60_000);

const REPO_ROOT = path.resolve(__dirname, "..", "..");
// Built JS on purpose: the process under test is a plain `node` child that is SIGKILLed (no jest, no
// TypeScript loader in it), like a test process a CI job kill would end.
const COMPILED_HOST = path.join(REPO_ROOT, "dist", "test", "helpers", "provider-host.js");

/** Running = the process exists and is not a zombie (an orphan's exit is not always reaped in a container). */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

const describeOnLinux = process.platform === "linux" ? describe : describe.skip; // skipped off Linux only: it reads /proc (CI runs on Linux)

describeOnLinux("process cleanup", () => {
  test("a provider host ends when the process that started it is killed with SIGKILL", async () => {
    if (!fs.existsSync(COMPILED_HOST))
      throw new Error(`${COMPILED_HOST} is missing: run \`npm run build\` first`);
    const script = `
      const { startProviderHost } = require(${JSON.stringify(COMPILED_HOST)});
      startProviderHost({ cwd: ${JSON.stringify(REPO_ROOT)}, project: "cleanup", config: {} }).then((host) => {
        process.stdout.write(host.pid + "\\n");
        setInterval(() => undefined, 1000); // then wait, with the host running, until killed
      });
    `;
    const parent = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let hostPid = 0;
    try {
      hostPid = await new Promise<number>((resolve, reject) => {
        let out = "";
        parent.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) resolve(Number(out.trim()));
        });
        parent.once("exit", (code) =>
          reject(new Error(`the parent exited (code ${code}) before starting a host`)),
        );
      });
      expect(isRunning(hostPid)).toBe(true);
      const parentGone = new Promise((r) => parent.once("exit", r));
      parent.kill("SIGKILL");
      await parentGone;
      await until(`host ${hostPid} to end`, () => !isRunning(hostPid), {
        timeoutMs: 15_000,
        intervalMs: 100,
      });
    } finally {
      if (parent.exitCode === null && parent.signalCode === null) parent.kill("SIGKILL");
      if (hostPid && isRunning(hostPid)) process.kill(hostPid, "SIGKILL");
    }
  });
});
