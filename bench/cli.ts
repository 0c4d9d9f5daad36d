/**
 * The provider at scale, through the real `pulumi` CLI against the emulator: `up`, `refresh` and `destroy` of the
 * fleet example with 1 and with 20 VPSs at a fixed create time (the emulator's time scale), the API calls each makes
 * by kind, and `pulumi preview` of the quickstart against an empty program (the provider's own cost). One run, side
 * by side; printed as ratios next to their targets.
 *
 * Needs `pulumi` on PATH (scripts/pulumi-cli.sh builds it); without one it says so and measures nothing.
 * Run: `npm run bench -- cli` (or `node dist/bench/index.js cli` after a build).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO_API_KEY, startEmulator, type RunningEmulator } from "../emulator/index.js";
import { findPulumiCli, offlineCliEnv } from "../test/engine/cli-stack.js";

const run = promisify(execFile);
const REPO = path.resolve(__dirname, "..", "..");
const EXAMPLES = path.join(REPO, "examples");
/** Emulated durations are the real ones times this: ordering a VPS takes ~0.9 s instead of 45 s. */
const TIME_SCALE = 0.02;

export interface CliBenchOptions {
  /** The larger fleet. Default 20. */
  fleet?: number;
  /** Rounds of up/refresh/destroy per fleet size; the medians are compared. Default 3. */
  rounds?: number;
  print?: (line: string) => void;
}

interface Timed {
  seconds: number;
  calls: Record<string, number>;
}

/** One stack of one program on a scratch file backend; each command is timed and its API calls counted. */
class BenchStack {
  private readonly env: NodeJS.ProcessEnv;
  private constructor(
    private readonly programDir: string,
    private readonly stack: string,
    private readonly emulator: RunningEmulator,
    private readonly workDir: string,
  ) {
    this.env = { ...process.env, ...offlineCliEnv(path.join(workDir, "backend")) };
  }

  static async create(programDir: string, emulator: RunningEmulator, config: Record<string, string>) {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cli-"));
    const stack = `bench-${process.pid}-${Math.random().toString(16).slice(2, 8)}`;
    const s = new BenchStack(programDir, stack, emulator, workDir);
    fs.mkdirSync(path.join(workDir, "backend"), { recursive: true });
    await s.pulumi("stack", "init");
    await s.pulumi("config", "set", "--secret", "rimuhosting:apiKey", DEMO_API_KEY);
    await s.pulumi("config", "set", "rimuhosting:baseUrl", emulator.baseUrl);
    for (const [k, v] of Object.entries(config)) await s.pulumi("config", "set", k, "--", v);
    return s;
  }

  /** Runs `pulumi <args>` on this stack; arguments after a "--" stay positional (config values such as -1). */
  pulumi(...args: string[]): Promise<unknown> {
    const split = args.includes("--") ? args.indexOf("--") : args.length;
    const flags = ["--stack", this.stack, "--non-interactive"];
    return run("pulumi", [...args.slice(0, split), ...flags, ...args.slice(split)], {
      cwd: this.programDir,
      env: this.env,
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  async timed(...args: string[]): Promise<Timed> {
    const mark = this.emulator.requestLog().length;
    const started = process.hrtime.bigint();
    await this.pulumi(...args);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const calls: Record<string, number> = {};
    for (const e of this.emulator.requestLog().slice(mark)) {
      const kind = `${e.method} ${e.route}`;
      calls[kind] = (calls[kind] ?? 0) + 1;
    }
    return { seconds, calls };
  }

  /** Removes the stack, its settings file in the program directory and its scratch backend. */
  async remove(): Promise<void> {
    await this.pulumi("stack", "rm", "--yes", "--force").catch(() => undefined);
    for (const ext of [".yaml", ".yml"])
      fs.rmSync(path.join(this.programDir, `Pulumi.${this.stack}${ext}`), { force: true });
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }
}

const fmtCalls = (calls: Record<string, number>): string =>
  Object.entries(calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${n} ${k}`)
    .join(", ") || "none";

export async function benchCli(options: CliBenchOptions = {}): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const cli = findPulumiCli();
  if (!cli.path) {
    print(`cli: not measured: ${cli.reason}`);
    return;
  }
  const big = options.fleet ?? 20;
  const emulator = await startEmulator({ timeScale: TIME_SCALE });
  const { stdout: version } = await run("pulumi", ["version"]);
  print(
    `pulumi ${version.trim()} at ${cli.path}; node ${process.version}; emulator time scale ${TIME_SCALE}`,
  );
  try {
    // Fleets of 1 and N, one operation at a time, alternating sizes so drift falls on both; several rounds, and the
    // median of each is compared (one CLI operation varies by a few tenths of a second from run to run).
    const rounds = options.rounds ?? 3;
    const results: Record<string, Record<number, Timed[]>> = { up: {}, refresh: {}, destroy: {} };
    const stacks: Record<number, BenchStack> = {};
    for (const n of [1, big])
      stacks[n] = await BenchStack.create(path.join(EXAMPLES, "fleet"), emulator, {
        count: String(n),
        stopped: "-1",
      });
    for (let round = 0; round < rounds; round++) {
      for (const op of ["up", "refresh", "destroy"] as const) {
        for (const n of round % 2 === 0 ? [1, big] : [big, 1]) {
          // --parallel: the engine runs at most 4 operations per core at once by default (8 on a 2-core machine),
          // which would make 20 creates three waves of create time: a limit of the engine, not of the provider.
          const timed = await stacks[n]!.timed(op, "--yes", "--skip-preview", "--parallel", String(big));
          (results[op]![n] ??= []).push(timed);
        }
      }
    }
    const medianOf = (runs: Timed[]): Timed =>
      [...runs].sort((a, b) => a.seconds - b.seconds)[runs.length >> 1]!;
    print("");
    print(
      `fleet through the real CLI (1 vs ${big} VPSs; median of ${rounds} rounds; --parallel ${big}, ` +
        `the CLI's default being 4 per core):`,
    );
    for (const op of ["up", "refresh", "destroy"] as const) {
      const one = medianOf(results[op]![1]!);
      const many = medianOf(results[op]![big]!);
      const ratio = many.seconds / one.seconds;
      print(
        `  ${op.padEnd(8)} 1: ${one.seconds.toFixed(1)} s  ${big}: ${many.seconds.toFixed(1)} s  ratio ${ratio.toFixed(2)} ` +
          `(target <= 1.30) ${ratio <= 1.3 ? "ok" : "MISSED"}`,
      );
      print(`           calls for 1: ${fmtCalls(one.calls)}`);
      print(`           calls for ${big}: ${fmtCalls(many.calls)}`);
    }
    for (const n of [1, big]) await stacks[n]!.remove();

    // The provider's own cost in a preview: the quickstart against a program that declares nothing.
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "bench-empty-"));
    fs.writeFileSync(
      path.join(empty, "Pulumi.yaml"),
      "name: empty\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    fs.writeFileSync(path.join(empty, "index.ts"), "export const nothing = 0;\n");
    fs.writeFileSync(
      path.join(empty, "package.json"),
      '{ "name": "empty", "private": true, "main": "index.ts" }\n',
    );
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(empty, "node_modules"));
    const q = await BenchStack.create(path.join(EXAMPLES, "quickstart"), emulator, {});
    const e = await BenchStack.create(empty, emulator, {});
    const previews = { quickstart: [] as number[], empty: [] as number[] };
    for (let i = 0; i < 3; i++) {
      previews.quickstart.push((await q.timed("preview")).seconds);
      previews.empty.push((await e.timed("preview")).seconds);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const pq = median(previews.quickstart);
    const pe = median(previews.empty);
    print("");
    print(
      `preview (median of 3): quickstart ${pq.toFixed(2)} s, empty program ${pe.toFixed(2)} s, ` +
        `ratio ${(pq / pe).toFixed(2)}; the provider's own cost ${(pq - pe).toFixed(2)} s`,
    );
    await q.remove();
    await e.remove();
    fs.rmSync(empty, { recursive: true, force: true });
  } finally {
    await emulator.close();
  }
}

if (require.main === module) {
  benchCli().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
