/**
 * One stack of the cli bench (bench/cli.ts): the fleet example, or the floor's program of the same shape
 * (bench/floor-program.ts), installed as users install it, on a scratch file backend against the emulator; each
 * command is timed, its API calls counted and its CPU split between the engine, the program and the provider host.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO_API_KEY, type RunningEmulator } from "../emulator/index.js";
import { offlineCliEnv } from "../test/engine/cli-stack.js";
import { installedProgram } from "../test/engine/installed-program.js";
import { floorProgram } from "./floor-program.js";
import type { ProcessCpu } from "./process-cpu.js";

const run = promisify(execFile);
const REPO = path.resolve(__dirname, "..", "..");
const FLEET_EXAMPLE = path.join(REPO, "examples", "fleet");
const CPU_HOOK = path.join(__dirname, "process-cpu.js");
export const VPS_TYPE = "pulumi-nodejs:dynamic/rimuhosting:Vps";
/**
 * The fleet is spread over these data centres in turn: the emulator's hosts, like RimuHosting's, have finite room
 * (Dallas has about 390 GB of memory for VPSs), and the update doubles every VPS's memory.
 */
const DATA_CENTRES = "DCDALLAS,DCLONDON,DCSYDNEY,DCBRISBANE,DCAUCKLAND,DCFRANKFURT,DCNY";

/** `noop`: `pulumi up` again with nothing changed (the no-op update Pulumi's own performance gate times). */
export const OPS = ["up", "update", "noop", "refresh", "preview", "destroy"] as const;
export type Op = (typeof OPS)[number];

/** Which program a stack runs: the fleet example with this package, or the floor's do-nothing provider. */
export type BenchProgram = "fleet" | "floor";

export interface BenchStackOptions {
  program?: BenchProgram;
  /** The stack's `rimuhosting:monthlyBudgetUsd`. */
  budgetUsd?: number;
  /** The floor's: a fleet VPS's recorded outputs, which its provider returns for every VPS. */
  floorOutputs?: Record<string, unknown>;
  /** The stack's `rimuhosting:requestsPerSecond` (the provider's pace, under an emulated rate limit). */
  requestsPerSecond?: number;
}

export interface CpuSplit {
  /** The `pulumi` process and everything it started, from the shell's `times`. */
  totalMs: number;
  programMs: number;
  providerHostMs: number;
  /** Other node processes the language host starts (its version checks). */
  otherNodeMs: number;
  /** The CLI and its language host: the total less the node processes. */
  engineMs: number;
  /**
   * The bench's own process while the command ran: the emulator serving the API (it runs in this process), and
   * reading the CLI's output. Not counted in totalMs: on a user's machine it is RimuHosting's servers' work.
   */
  emulatorMs: number;
  programMaxRssMb: number;
}

export interface Measured {
  seconds: number;
  calls: Record<string, number>;
  /** Every request the command sent to the API, retries included, and how many of them were answered 429. */
  requests: { sent: number; refused429: number };
  cpu: CpuSplit;
}

export interface Profiled {
  dir: string;
  engineProfile?: string;
}

/** One stack on a scratch file backend; each command is timed, its calls and CPU counted. */
export class BenchStack {
  private readonly env: NodeJS.ProcessEnv;
  private memoryMb = 1024;
  private constructor(
    readonly size: number,
    readonly programDir: string,
    private readonly stack: string,
    private readonly emulator: RunningEmulator,
    private readonly workDir: string,
    private readonly parallel: number,
  ) {
    this.env = {
      ...process.env,
      ...offlineCliEnv(path.join(workDir, "backend")),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${CPU_HOOK}`.trim(),
    };
  }

  static async create(
    size: number,
    emulator: RunningEmulator,
    parallel: number,
    { program = "fleet", budgetUsd, floorOutputs = {}, requestsPerSecond }: BenchStackOptions = {},
  ): Promise<BenchStack> {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cli-"));
    const programDir = installedProgram(FLEET_EXAMPLE, path.join(workDir, "fleet"));
    if (program === "floor") floorProgram(programDir, floorOutputs);
    // A stack name per size: the stacks share one emulator account, and a VPS's creation token names its
    // project/stack/name, so the profiled round's up of 1 VPS beside the N still standing found node-0's token on an
    // order of the N's and refused it as another stack's (RIMU_ERR_FOREIGN_ORDER).
    const s = new BenchStack(size, programDir, `bench-${size}`, emulator, workDir, parallel);
    fs.mkdirSync(path.join(workDir, "backend"), { recursive: true });
    await s.pulumi("stack", "init");
    await s.pulumi("config", "set", "--secret", "rimuhosting:apiKey", DEMO_API_KEY);
    await s.pulumi("config", "set", "rimuhosting:baseUrl", emulator.baseUrl);
    await s.pulumi("config", "set", "count", String(size));
    await s.pulumi("config", "set", "memoryMb", String(s.memoryMb));
    await s.pulumi("config", "set", "stopped", "--", "-1");
    await s.pulumi("config", "set", "dcLocations", DATA_CENTRES);
    if (budgetUsd !== undefined)
      await s.pulumi("config", "set", "rimuhosting:monthlyBudgetUsd", String(budgetUsd));
    if (requestsPerSecond !== undefined)
      await s.pulumi("config", "set", "rimuhosting:requestsPerSecond", String(requestsPerSecond));
    return s;
  }

  /** Runs `pulumi <args>` on this stack; arguments after a "--" stay positional (config values such as -1). */
  pulumi(...args: string[]): Promise<{ stdout: string; stderr: string }> {
    const split = args.includes("--") ? args.indexOf("--") : args.length;
    const flags = ["--stack", this.stack, "--non-interactive"];
    return run("pulumi", [...args.slice(0, split), ...flags, ...args.slice(split)], {
      cwd: this.programDir,
      env: this.env,
      maxBuffer: 256 * 1024 * 1024,
    });
  }

  /**
   * The operation, timed, with its API calls and the CPU of each process; profiled into `profiled.dir` if given,
   * with `extraEnv` in the CLI's environment and `extraArgs` after its flags.
   */
  async measure(
    op: Op,
    profiled?: Profiled,
    extraEnv: NodeJS.ProcessEnv = {},
    extraArgs: string[] = [],
  ): Promise<Measured> {
    if (op === "update") {
      // Grown to 2 GB, 2,000 VPSs over seven data centres would not fit the emulator's two large hosts in each (about
      // 190 GB free apiece): a fleet that large grows to 1.25 GB.
      const grown = this.size > 1000 ? 1280 : 2048;
      this.memoryMb = this.memoryMb === 1024 ? grown : 1024;
      await this.pulumi("config", "set", "memoryMb", String(this.memoryMb));
    }
    const args: Record<Op, string[]> = {
      up: ["up", "--yes", "--skip-preview"],
      update: ["up", "--yes", "--skip-preview"],
      noop: ["up", "--yes", "--skip-preview"],
      refresh: ["refresh", "--yes", "--skip-preview"],
      preview: ["preview"],
      destroy: ["destroy", "--yes", "--skip-preview"],
    };
    const cpuDir = fs.mkdtempSync(path.join(this.workDir, `cpu-${op}-`));
    const timesFile = path.join(cpuDir, "times.txt");
    const profiling = profiled ? ["--profiling", path.join(profiled.dir, `engine-${op}`)] : [];
    const env = {
      ...this.env,
      ...extraEnv,
      BENCH_CPU_DIR: cpuDir,
      BENCH_TIMES: timesFile,
      ...(profiled ? { BENCH_PROFILE_DIR: profiled.dir } : {}),
    };
    const flags = [
      "--stack",
      this.stack,
      "--non-interactive",
      "--parallel",
      String(this.parallel),
      ...profiling,
      ...extraArgs,
    ];
    const mark = this.emulator.requestLog().length;
    const started = process.hrtime.bigint();
    const benchCpu = process.cpuUsage();
    // Through bash for `times`: the CPU of `pulumi` and of every process it started and waited for.
    await run(
      "bash",
      ["-c", 'pulumi "$@"; rc=$?; times > "$BENCH_TIMES"; exit $rc', "pulumi", ...args[op], ...flags],
      { cwd: this.programDir, env, maxBuffer: 256 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      const output = `${error.stdout ?? ""}\n${error.stderr ?? ""}`;
      // Its errors first: a fleet's log lines fill the diagnostics long before them.
      const errors = output.split("\n").filter((line) => /\berror\b/i.test(line));
      const diagnostics =
        errors.slice(0, 20).join("\n") +
        "\n" +
        (output.includes("Diagnostics:") ? output.slice(output.indexOf("Diagnostics:")) : output);
      throw new Error(`pulumi ${op} of ${this.size} VPSs failed:\n${diagnostics.slice(0, 6000)}`);
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const emulatorCpu = process.cpuUsage(benchCpu);
    const calls: Record<string, number> = {};
    const requests = { sent: 0, refused429: 0 };
    for (const e of this.emulator.requestLog().slice(mark)) {
      requests.sent += 1;
      if (e.status === 429) requests.refused429 += 1;
      const kind = `${e.method} ${e.route}`;
      calls[kind] = (calls[kind] ?? 0) + 1;
    }
    const emulatorMs = Math.round((emulatorCpu.user + emulatorCpu.system) / 1000);
    return { seconds, calls, requests, cpu: { ...cpuSplit(cpuDir, timesFile), emulatorMs } };
  }

  /**
   * Bytes of state per VPS (compact JSON of each Vps in `pulumi stack export`) and of the whole export, and the
   * first VPS's recorded outputs (what the floor's provider returns: bench/floor-program.ts).
   */
  async stateBytes(): Promise<{ perVps: number; whole: number; outputs: Record<string, unknown> }> {
    const { stdout } = await this.pulumi("stack", "export");
    const state = JSON.parse(stdout) as {
      deployment: { resources?: { type: string; outputs?: Record<string, unknown> }[] };
    };
    const vpss = (state.deployment.resources ?? []).filter((r) => r.type === VPS_TYPE);
    const bytes = vpss.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
    return {
      perVps: vpss.length ? Math.round(bytes / vpss.length) : 0,
      whole: Buffer.byteLength(stdout),
      outputs: vpss[0]?.outputs ?? {},
    };
  }

  /** Removes the stack and its scratch directory (the program copy, the backend). */
  async remove(): Promise<void> {
    await this.pulumi("stack", "rm", "--yes", "--force").catch(() => undefined);
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }
}

/** `times` prints the shell's own times, then its children's: `1m2.500s 0m0.300s` (user, system). */
function childrenCpuMs(timesFile: string): number {
  const lines = fs.readFileSync(timesFile, "utf8").trim().split("\n");
  const seconds = (lines[1] ?? "").split(/\s+/).map((t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  });
  return Math.round(seconds.reduce((a, b) => a + b, 0) * 1000);
}

function cpuSplit(cpuDir: string, timesFile: string): Omit<CpuSplit, "emulatorMs"> {
  const records = fs
    .readdirSync(cpuDir)
    .filter((f) => /^\d+\.json$/.test(f))
    .map((f) => JSON.parse(fs.readFileSync(path.join(cpuDir, f), "utf8")) as ProcessCpu);
  const sum = (role: ProcessCpu["role"]) =>
    records.filter((r) => r.role === role).reduce((total, r) => total + r.cpuMs, 0);
  const totalMs = childrenCpuMs(timesFile);
  const programMs = sum("program");
  const providerHostMs = sum("provider-host");
  const otherNodeMs = sum("other");
  return {
    totalMs,
    programMs,
    providerHostMs,
    otherNodeMs,
    engineMs: Math.max(0, totalMs - programMs - providerHostMs - otherNodeMs),
    programMaxRssMb: Math.max(0, ...records.filter((r) => r.role === "program").map((r) => r.maxRssMb)),
  };
}
