/**
 * The provider at scale, through the real `pulumi` CLI against the emulator, in one run: `up`, an update (memoryMb
 * of every VPS), `refresh`, a no-op `preview` and `destroy` of the fleet example with 1 VPS and with N (default
 * 200), each with `--parallel N`, sizes alternating and the median of the rounds compared. Next to each target it
 * prints the ratio against 1 VPS, the API calls by endpoint (the emulator's request log: whatever the provider
 * does, counted), where the CPU went (the engine, that is the CLI and its language host; the program; the
 * dynamic-provider host) and the state's bytes per VPS. A missed target gets one more run with CPU profiles of the
 * three, and the top of each is printed, with the program's and the provider host's CPU per VPS by place (against
 * the same profiled with 1 VPS).
 *
 * The fleet runs with the package installed, not linked (test/engine/installed-program.ts): the state then holds
 * what users' states hold.
 *
 * Needs `pulumi` on PATH (scripts/pulumi-cli.sh builds it); without one it says so and measures nothing.
 * Run: `npm run bench -- cli [--fleet 500] [--rounds 1] [--profile]` (or `node dist/bench/index.js cli …`).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO_API_KEY, startEmulator, type RunningEmulator } from "../emulator/index.js";
import { findPulumiCli, offlineCliEnv } from "../test/engine/cli-stack.js";
import { installedProgram } from "../test/engine/installed-program.js";
import type { ProcessCpu } from "./process-cpu.js";
import { perVpsByPlace, topOfGoProfile, topOfNodeProfile } from "./profile-summary.js";

const run = promisify(execFile);
const REPO = path.resolve(__dirname, "..", "..");
const FLEET_EXAMPLE = path.join(REPO, "examples", "fleet");
const CPU_HOOK = path.join(__dirname, "process-cpu.js");
const VPS_TYPE = "pulumi-nodejs:dynamic/rimuhosting:Vps";
/** Emulated durations are the real ones times this: ordering a VPS takes ~0.9 s instead of 45 s. */
const TIME_SCALE = 0.02;
/**
 * The fleet is spread over these data centres in turn: the emulator's hosts, like RimuHosting's, have finite room
 * (Dallas has about 390 GB of memory for VPSs), and the update doubles every VPS's memory.
 */
const DATA_CENTRES = "DCDALLAS,DCLONDON,DCSYDNEY,DCBRISBANE,DCAUCKLAND,DCFRANKFURT,DCNY";

const OPS = ["up", "update", "refresh", "preview", "destroy"] as const;
type Op = (typeof OPS)[number];
/** The time of an operation on N VPSs against 1 VPS (issue 20). Refresh has none: it is shown for the record. */
const TARGETS: Partial<Record<Op, number>> = { up: 2.5, update: 3, preview: 2, destroy: 2.5 };

export interface CliBenchOptions {
  /** The larger fleet. Default 200. */
  fleet?: number;
  /** Rounds of the five operations per fleet size; the medians are compared. Default 2. */
  rounds?: number;
  /** Profile every operation of the larger fleet in an extra round, not only those that miss their target. */
  profile?: boolean;
  /**
   * The stacks' `monthlyBudgetUsd`. Unset (the default), the budget's guard judges nothing; set, it judges each order
   * and growing change at ordering, one at a time, and a resize holds its turn until done (docs/cost.md).
   */
  budgetUsd?: number;
  print?: (line: string) => void;
}

interface CpuSplit {
  /** The `pulumi` process and everything it started, from the shell's `times`. */
  totalMs: number;
  programMs: number;
  providerHostMs: number;
  /** Other node processes the language host starts (its version checks). */
  otherNodeMs: number;
  /** The CLI and its language host: the total less the node processes. */
  engineMs: number;
  programMaxRssMb: number;
}

interface Measured {
  seconds: number;
  calls: Record<string, number>;
  cpu: CpuSplit;
}

interface Profiled {
  dir: string;
  engineProfile?: string;
}

/** One stack of the fleet example on a scratch file backend; each command is timed, its calls and CPU counted. */
class BenchStack {
  private readonly env: NodeJS.ProcessEnv;
  private memoryMb = 1024;
  private constructor(
    readonly size: number,
    private readonly programDir: string,
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
    budgetUsd?: number,
  ): Promise<BenchStack> {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cli-"));
    const programDir = installedProgram(FLEET_EXAMPLE, path.join(workDir, "fleet"));
    const s = new BenchStack(size, programDir, "bench", emulator, workDir, parallel);
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
   * with `extraEnv` in the CLI's environment.
   */
  async measure(op: Op, profiled?: Profiled, extraEnv: NodeJS.ProcessEnv = {}): Promise<Measured> {
    if (op === "update") {
      this.memoryMb = this.memoryMb === 1024 ? 2048 : 1024;
      await this.pulumi("config", "set", "memoryMb", String(this.memoryMb));
    }
    const args: Record<Op, string[]> = {
      up: ["up", "--yes", "--skip-preview"],
      update: ["up", "--yes", "--skip-preview"],
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
    ];
    const mark = this.emulator.requestLog().length;
    const started = process.hrtime.bigint();
    // Through bash for `times`: the CPU of `pulumi` and of every process it started and waited for.
    await run(
      "bash",
      ["-c", 'pulumi "$@"; rc=$?; times > "$BENCH_TIMES"; exit $rc', "pulumi", ...args[op], ...flags],
      { cwd: this.programDir, env, maxBuffer: 256 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      const output = `${error.stdout ?? ""}\n${error.stderr ?? ""}`;
      const diagnostics = output.includes("Diagnostics:")
        ? output.slice(output.indexOf("Diagnostics:"))
        : output;
      throw new Error(`pulumi ${op} of ${this.size} VPSs failed:\n${diagnostics.slice(0, 6000)}`);
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const calls: Record<string, number> = {};
    for (const e of this.emulator.requestLog().slice(mark)) {
      const kind = `${e.method} ${e.route}`;
      calls[kind] = (calls[kind] ?? 0) + 1;
    }
    return { seconds, calls, cpu: cpuSplit(cpuDir, timesFile) };
  }

  /** Bytes of state per VPS (compact JSON of each Vps in `pulumi stack export`) and of the whole export. */
  async stateBytes(): Promise<{ perVps: number; whole: number }> {
    const { stdout } = await this.pulumi("stack", "export");
    const state = JSON.parse(stdout) as { deployment: { resources?: { type: string }[] } };
    const vpss = (state.deployment.resources ?? []).filter((r) => r.type === VPS_TYPE);
    const bytes = vpss.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
    return { perVps: vpss.length ? Math.round(bytes / vpss.length) : 0, whole: Buffer.byteLength(stdout) };
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

function cpuSplit(cpuDir: string, timesFile: string): CpuSplit {
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

const fmtCalls = (calls: Record<string, number>): string =>
  Object.entries(calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${n} ${k}`)
    .join(", ") || "none";

const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fmtCpu = (c: CpuSplit) =>
  `engine ${s1(c.engineMs)}, program ${s1(c.programMs)}, provider host ${s1(c.providerHostMs)}`;

function median(runs: Measured[]): Measured {
  return [...runs].sort((a, b) => a.seconds - b.seconds)[(runs.length - 1) >> 1]!;
}

export async function benchCli(options: CliBenchOptions = {}): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const cli = findPulumiCli();
  if (!cli.path) {
    print(`cli: not measured: ${cli.reason}`);
    return;
  }
  const big = options.fleet ?? 200;
  const rounds = options.rounds ?? 2;
  const started = Date.now();
  const emulator = await startEmulator({ timeScale: TIME_SCALE });
  const { stdout: version } = await run("pulumi", ["version"]);
  print(
    `pulumi ${version.trim()} at ${cli.path}; node ${process.version}; ${os.cpus().length} cores, load ` +
      `${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; emulator time scale ${TIME_SCALE}` +
      (options.budgetUsd === undefined ? "" : `; monthlyBudgetUsd ${options.budgetUsd}`),
  );
  const stacks: Record<number, BenchStack> = {};
  try {
    for (const n of [1, big]) stacks[n] = await BenchStack.create(n, emulator, big, options.budgetUsd);
    const results: Record<Op, Record<number, Measured[]>> = {
      up: {},
      update: {},
      refresh: {},
      preview: {},
      destroy: {},
    };
    const state: Record<number, { perVps: number; whole: number }> = {};
    // Sizes alternate from round to round so that drift (the machine's load) falls on both.
    for (let round = 0; round < rounds; round++) {
      for (const n of round % 2 === 0 ? [1, big] : [big, 1]) {
        for (const op of OPS) {
          (results[op][n] ??= []).push(await stacks[n]!.measure(op));
          if (op === "update" && round === 0) state[n] = await stacks[n]!.stateBytes();
        }
      }
    }

    print("");
    print(
      `fleet through the real CLI: 1 vs ${big} VPSs, --parallel ${big}, median of ${rounds} round(s), the package ` +
        `installed:`,
    );
    const missed: Op[] = [];
    for (const op of OPS) {
      const one = median(results[op][1]!);
      const many = median(results[op][big]!);
      const ratio = many.seconds / one.seconds;
      const target = TARGETS[op];
      const verdict = target === undefined ? "(no target)" : ratio <= target ? "ok" : "MISSED";
      if (target !== undefined && ratio > target) missed.push(op);
      print(
        `  ${op.padEnd(8)} 1: ${one.seconds.toFixed(1)} s  ${big}: ${many.seconds.toFixed(1)} s  ratio ` +
          `${ratio.toFixed(2)}${target === undefined ? "" : ` (target <= ${target})`} ${verdict}`,
      );
      print(`           API calls for 1: ${fmtCalls(one.calls)}`);
      print(`           API calls for ${big}: ${fmtCalls(many.calls)}`);
      print(`           CPU for 1: ${fmtCpu(one.cpu)}`);
      print(
        `           CPU for ${big}: ${fmtCpu(many.cpu)}; per VPS beyond the first: program ` +
          `${((many.cpu.programMs - one.cpu.programMs) / (big - 1)).toFixed(1)} ms, provider host ` +
          `${((many.cpu.providerHostMs - one.cpu.providerHostMs) / (big - 1)).toFixed(1)} ms, engine ` +
          `${((many.cpu.engineMs - one.cpu.engineMs) / (big - 1)).toFixed(1)} ms; program peak ` +
          `${many.cpu.programMaxRssMb} MB`,
      );
    }
    print(
      `  state per VPS: ${state[1]!.perVps} bytes with 1 VPS, ${state[big]!.perVps} with ${big} ` +
        `(the whole export: ${Math.round(state[big]!.whole / 1024)} kB)`,
    );

    // Where the time goes, for what missed its target (or everything with `profile`). First the same operations
    // without the engine's checkpoints (PULUMI_SKIP_CHECKPOINTS: the state is written once, at the end): what is
    // left is the program's, the provider's and the API's share. Then one round with CPU profiles of the engine, the
    // program and the provider host.
    const toProfile = options.profile ? [...OPS] : missed;
    if (toProfile.length > 0) {
      print("");
      print(
        `the same with ${big} VPSs without the engine's checkpoints (PULUMI_SKIP_CHECKPOINTS=true, one round), ` +
          `against 1 VPS as above:`,
      );
      for (const op of OPS) {
        const m = await stacks[big]!.measure(op, undefined, { PULUMI_SKIP_CHECKPOINTS: "true" });
        if (!toProfile.includes(op)) continue;
        const one = median(results[op][1]!);
        const ratio = m.seconds / one.seconds;
        const target = TARGETS[op];
        print(
          `  ${op.padEnd(8)} ${big}: ${m.seconds.toFixed(1)} s  ratio ${ratio.toFixed(2)}` +
            `${target === undefined ? "" : ` (target <= ${target}) ${ratio <= target ? "ok" : "MISSED"}`}; ` +
            `CPU ${fmtCpu(m.cpu)}`,
        );
      }
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-profiles-"));
      print("");
      print(`where the time goes with ${big} VPSs (one more round, profiled; profiles in ${dir}):`);
      for (const op of OPS) {
        const opDir = path.join(dir, op);
        const oneDir = path.join(dir, `${op}-1`);
        fs.mkdirSync(opDir);
        fs.mkdirSync(oneDir);
        const m = await stacks[big]!.measure(op, { dir: opDir });
        // The 1-VPS stack too, so that each process's growth per VPS can be told from what every run pays once.
        await stacks[1]!.measure(op, { dir: oneDir });
        if (!toProfile.includes(op)) continue;
        print(`  ${op}: ${m.seconds.toFixed(1)} s (profiled); CPU ${fmtCpu(m.cpu)}`);
        for (const role of ["program", "provider-host"]) {
          const profileOf = (d: string) => fs.readdirSync(d).find((f) => f.startsWith(`${role}-`));
          const [one, many] = [profileOf(oneDir), profileOf(opDir)];
          if (one && many)
            print(
              `    ${role}, by place: ${perVpsByPlace(path.join(oneDir, one), path.join(opDir, many), big)}`,
            );
        }
        for (const file of fs.readdirSync(opDir).sort()) {
          const full = path.join(opDir, file);
          const lines = file.endsWith(".cpuprofile")
            ? topOfNodeProfile(full)
            : /\.cpu$/.test(file)
              ? await topOfGoProfile(cli.path, full)
              : [];
          if (lines.length === 0) continue;
          print(`    ${file.replace(/-\d+\.cpuprofile$/, "").replace(/\.\d+\.cpu$/, " (engine, pprof)")}:`);
          for (const line of lines) print(`      ${line}`);
        }
      }
    }
    print("");
    print(`bench wall time: ${((Date.now() - started) / 60000).toFixed(1)} min`);
  } finally {
    for (const s of Object.values(stacks)) await s.remove();
    await emulator.close();
  }
}

if (require.main === module) {
  benchCli().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
