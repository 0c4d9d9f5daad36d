/**
 * The provider at scale, through the real `pulumi` CLI against the emulator, in one run: `up`, an update (memoryMb
 * of every VPS), a no-op `up` (`noop`: nothing changed), `refresh`, a no-op `preview` and `destroy` of the fleet example with 1 VPS and with N (default
 * 200), each with `--parallel N`, sizes alternating and the median of the rounds compared. Next to each target it
 * prints the ratio against 1 VPS, the API calls by endpoint (the emulator's request log: whatever the provider
 * does, counted), where the CPU went (the engine, that is the CLI and its language host; the program; the
 * dynamic-provider host) and the state's bytes per VPS. A missed target gets one more run with CPU profiles of the
 * three, and the top of each is printed, with the program's and the provider host's CPU per VPS by place (against
 * the same profiled with 1 VPS). Each CPU line ends with the ratio the larger run's extra CPU alone implies.
 *
 * `--floor` runs every command without the engine's checkpoints, and the same commands, sizes and rounds on the
 * floor's program (./floor-program.ts: the fleet's shape, a provider that does nothing), printed beside the fleet's:
 * what the SDK and the engine alone cost here, and the fleet's wall time per VPS beyond it. Its profiled round profiles
 * the floor's stacks too, and prints their CPU per VPS by place under the fleet's.
 *
 * The fleet runs with the package installed, not linked (test/engine/installed-program.ts): the state then holds
 * what users' states hold.
 *
 * `--rate-limit R/S` runs the emulator with that rate limit (at most R requests per API key every S seconds, then 429)
 * and the stacks at a pace just under it (`rimuhosting:requestsPerSecond`): the requests each command sends and the
 * 429s among them are printed beside its time, and the shortest time the limit allows for that many requests.
 *
 * Needs `pulumi` on PATH (scripts/pulumi-cli.sh builds it); without one it says so and measures nothing.
 * Run: `npm run bench -- cli [--fleet 500] [--rounds 1] [--profile] [--floor]` (or `node dist/bench/index.js cli …`).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../emulator/index.js";
import type { RateLimit } from "../emulator/rate-limit.js";
import { findPulumiCli } from "../test/engine/cli-stack.js";
import { BenchStack, OPS, type BenchProgram, type CpuSplit, type Measured, type Op } from "./bench-stack.js";
import { perVpsByPlace, topOfGoProfile, topOfNodeProfile } from "./profile-summary.js";

const run = promisify(execFile);
/** Emulated durations are the real ones times this (by default): ordering a VPS takes ~0.9 s instead of 45 s. */
const TIME_SCALE = 0.02;
const NO_CHECKPOINTS = { PULUMI_SKIP_CHECKPOINTS: "true" };

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
  /**
   * Beside the fleet, the same commands on the floor's program (bench/floor-program.ts: a do-nothing provider),
   * and every round without the engine's checkpoints: the SDK's and the engine's own ratios beside ours.
   */
  floor?: boolean;
  /** The emulator's rate limit; the stacks then keep a pace just under it (PACE_SHARE of it). */
  rateLimit?: RateLimit;
  /**
   * The emulator's modelled durations times this (default TIME_SCALE); 0: none, so what is left beside the floor is
   * the three processes' work and the emulator's CPU, not the API's modelled waits.
   */
  timeScale?: number;
  print?: (line: string) => void;
}

/** The share of a rate limit the stacks' pace takes: a little under it, so the pace's jitter meets no 429. */
const PACE_SHARE = 0.95;

/**
 * The shortest time `sent` requests can take under `limit`'s fixed windows (each key's first request opens one): all
 * but the last window's are spent in full windows.
 */
const forcedSeconds = (sent: number, limit: RateLimit): number =>
  Math.floor(Math.max(0, sent - 1) / limit.requests) * limit.windowSeconds;

const fmtRequests = (m: Measured, limit: RateLimit | undefined): string =>
  `${m.requests.sent} requests (${m.requests.refused429} answered 429)` +
  (limit ? `, the rate limit forces >= ${forcedSeconds(m.requests.sent, limit).toFixed(0)} s` : "");

const fmtCalls = (calls: Record<string, number>): string =>
  Object.entries(calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${n} ${k}`)
    .join(", ") || "none";

const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fmtCpu = (c: CpuSplit) =>
  `engine ${s1(c.engineMs)}, program ${s1(c.programMs)}, provider host ${s1(c.providerHostMs)}; ` +
  `emulator ${s1(c.emulatorMs)}`;
/** The three processes a user's machine runs (the emulator stands in for RimuHosting's servers). */
const ownCpuMs = (c: CpuSplit) => c.engineMs + c.programMs + c.providerHostMs + c.otherNodeMs;

/** The fleet's time and CPU against the floor's at one size: the aim's ratio (issue 90: within 1.15). */
const againstFloor = (fleet: Measured, floor: Measured): string =>
  `${(fleet.seconds / floor.seconds).toFixed(2)}x the floor's time; CPU of engine, program and host ` +
  `${(ownCpuMs(fleet.cpu) / ownCpuMs(floor.cpu)).toFixed(2)}x (${s1(ownCpuMs(fleet.cpu))} vs ` +
  `${s1(ownCpuMs(floor.cpu))}); the emulator's CPU beside it ${s1(fleet.cpu.emulatorMs)} (the floor's ` +
  `${s1(floor.cpu.emulatorMs)})`;

/** Each process's CPU per VPS beyond the first, and the program's peak memory. */
const perVps = (one: Measured, many: Measured, big: number): string => {
  const each = (key: "programMs" | "providerHostMs" | "engineMs") =>
    `${((many.cpu[key] - one.cpu[key]) / (big - 1)).toFixed(1)} ms`;
  return (
    `per VPS beyond the first: program ${each("programMs")}, provider host ${each("providerHostMs")}, ` +
    `engine ${each("engineMs")}; program peak ${many.cpu.programMaxRssMb} MB`
  );
};

/**
 * The ratio the larger run's extra CPU alone implies: the 1-VPS run's seconds, plus that CPU spread over every core
 * with nothing else running. An estimate, not a bound: it takes the 1-VPS run's time (mostly start-up, one process
 * after another) as unable to overlap the extra work, which a wait on the API in it could.
 */
const cpuRatio = (one: Measured, many: Measured): string => {
  const cores = os.cpus().length;
  const extraSeconds = (many.cpu.totalMs - one.cpu.totalMs) / 1000 / cores;
  return `its extra CPU over ${cores} cores: ratio ${((one.seconds + extraSeconds) / one.seconds).toFixed(2)}`;
};

type StateBytes = Awaited<ReturnType<BenchStack["stateBytes"]>>;
const emptyResults = (): Record<Op, Record<number, Measured[]>> => ({
  up: {},
  update: {},
  noop: {},
  refresh: {},
  preview: {},
  destroy: {},
});

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
  const limit = options.rateLimit;
  const timeScale = options.timeScale ?? TIME_SCALE;
  const emulator = await startEmulator({ timeScale, ...(limit ? { rateLimit: limit } : {}) });
  const requestsPerSecond = limit
    ? Math.floor((limit.requests / limit.windowSeconds) * PACE_SHARE * 100) / 100
    : undefined;
  const { stdout: version } = await run("pulumi", ["version"]);
  print(
    `pulumi ${version.trim()} at ${cli.path}; node ${process.version}; ${os.cpus().length} cores, load ` +
      `${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; emulator time scale ${timeScale}` +
      (options.budgetUsd === undefined ? "" : `; monthlyBudgetUsd ${options.budgetUsd}`) +
      (limit
        ? `; rate limit ${limit.requests} requests per ${limit.windowSeconds} s, requestsPerSecond ${requestsPerSecond}`
        : ""),
  );
  // With the floor, every command runs without the engine's checkpoints (the aim's terms), the floor's too.
  const env = options.floor ? NO_CHECKPOINTS : {};
  const programs: BenchProgram[] = options.floor ? ["fleet", "floor"] : ["fleet"];
  const stacks: Record<BenchProgram, Record<number, BenchStack>> = { fleet: {}, floor: {} };
  try {
    for (const n of [1, big])
      stacks.fleet[n] = await BenchStack.create(n, emulator, big, {
        budgetUsd: options.budgetUsd,
        requestsPerSecond,
      });
    const results = { fleet: emptyResults(), floor: emptyResults() };
    const state: Record<BenchProgram, Record<number, StateBytes>> = { fleet: {}, floor: {} };
    // Sizes alternate from round to round so that drift (the machine's load) falls on both. The fleet's and the
    // floor's run of each command come one after the other, which goes first alternating from command to command,
    // not as two blocks a minute apart: on dev-2c, shared with other work, the machine's speed drifts (the same
    // no-op's program CPU went from 4.3 to 5.6 s between two runs ten minutes apart), and every ratio with it. The
    // floor's stacks are made once the fleet has a VPS's recorded outputs (its first `up` of one VPS).
    let floorOutputs: Record<string, unknown> | undefined;
    for (let round = 0; round < rounds; round++) {
      for (const n of round % 2 === 0 ? [1, big] : [big, 1]) {
        for (const [index, op] of OPS.entries()) {
          for (const program of (round + index) % 2 === 0 ? programs : [...programs].reverse()) {
            if (program === "floor" && stacks.floor[n] === undefined) {
              floorOutputs ??= (await stacks.fleet[1]!.stateBytes()).outputs;
              stacks.floor[n] = await BenchStack.create(n, emulator, big, { program, floorOutputs });
            }
            const stack = stacks[program][n]!;
            (results[program][op][n] ??= []).push(await stack.measure(op, undefined, env));
            if (op === "update" && round === 0) state[program][n] = await stack.stateBytes();
          }
        }
      }
    }

    print("");
    print(
      `fleet through the real CLI: 1 vs ${big} VPSs, --parallel ${big}, median of ${rounds} round(s), the package ` +
        `installed${options.floor ? ", without the engine's checkpoints (PULUMI_SKIP_CHECKPOINTS=true)" : ""}:`,
    );
    const missed: Op[] = [];
    for (const op of OPS) {
      const one = median(results.fleet[op][1]!);
      const many = median(results.fleet[op][big]!);
      const ratio = many.seconds / one.seconds;
      const target = TARGETS[op];
      const verdict = target === undefined ? "(no target)" : ratio <= target ? "ok" : "MISSED";
      if (target !== undefined && ratio > target) missed.push(op);
      print(
        `  ${op.padEnd(8)} 1: ${one.seconds.toFixed(1)} s  ${big}: ${many.seconds.toFixed(1)} s  ratio ` +
          `${ratio.toFixed(2)}${target === undefined ? "" : ` (target <= ${target})`} ${verdict}`,
      );
      print(`           requests: 1: ${fmtRequests(one, limit)}; ${big}: ${fmtRequests(many, limit)}`);
      print(`           API calls for 1: ${fmtCalls(one.calls)}`);
      print(`           API calls for ${big}: ${fmtCalls(many.calls)}`);
      print(`           CPU for 1: ${fmtCpu(one.cpu)}`);
      print(
        `           CPU for ${big}: ${fmtCpu(many.cpu)}; ${perVps(one, many, big)}; ${cpuRatio(one, many)}`,
      );
      if (!options.floor) continue;
      const [floorOne, floorMany] = [median(results.floor[op][1]!), median(results.floor[op][big]!)];
      print(
        `           floor: 1: ${floorOne.seconds.toFixed(1)} s  ${big}: ${floorMany.seconds.toFixed(1)} s  ` +
          `ratio ${(floorMany.seconds / floorOne.seconds).toFixed(2)}; CPU for 1: ${fmtCpu(floorOne.cpu)}`,
      );
      print(
        `           floor CPU for ${big}: ${fmtCpu(floorMany.cpu)}; ${perVps(floorOne, floorMany, big)}; ` +
          cpuRatio(floorOne, floorMany),
      );
      print(`           ${big} VPSs: ${againstFloor(many, floorMany)}`);
      // What the fleet's time grows by beyond the floor's: the part a faster provider or program could win back.
      const beyond = (many.seconds - one.seconds - (floorMany.seconds - floorOne.seconds)) / (big - 1);
      print(`           the fleet beyond the floor: ${(beyond * 1000).toFixed(1)} ms of wall time per VPS`);
    }
    for (const program of programs)
      print(
        `  ${program === "floor" ? "floor's " : ""}state per VPS: ${state[program][1]!.perVps} bytes with 1 VPS, ` +
          `${state[program][big]!.perVps} with ${big} (the whole export: ` +
          `${Math.round(state[program][big]!.whole / 1024)} kB)`,
      );
    const fleet = stacks.fleet;

    // Where the time goes, for what missed its target (or everything with `profile`). First the same operations
    // without the engine's checkpoints (PULUMI_SKIP_CHECKPOINTS: the state is written once, at the end): what is
    // left is the program's, the provider's and the API's share (with the floor, the rounds above already were).
    // Then one round with CPU profiles of the engine, the program and the provider host.
    // Under a rate limit the times are the limit's (the ratios against 1 VPS are missed by design): nothing to profile.
    const toProfile = options.profile ? [...OPS] : limit ? [] : missed;
    if (toProfile.length > 0) {
      if (!options.floor) {
        print("");
        print(
          `the same with ${big} VPSs without the engine's checkpoints (PULUMI_SKIP_CHECKPOINTS=true, one round), ` +
            `against 1 VPS as above:`,
        );
      }
      for (const op of options.floor ? [] : OPS) {
        const m = await fleet[big]!.measure(op, undefined, NO_CHECKPOINTS);
        if (!toProfile.includes(op)) continue;
        const one = median(results.fleet[op][1]!);
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
        const m = await fleet[big]!.measure(op, { dir: opDir }, env);
        // The 1-VPS stack too, so that each process's growth per VPS can be told from what every run pays once.
        await fleet[1]!.measure(op, { dir: oneDir }, env);
        // With the floor, its stacks profiled the same way: where the fleet's CPU per VPS goes beyond the floor's is
        // read place by place, not guessed from the fleet's profile alone.
        const floorDirs = options.floor ? { one: `${oneDir}-floor`, many: `${opDir}-floor` } : undefined;
        if (floorDirs) {
          fs.mkdirSync(floorDirs.one);
          fs.mkdirSync(floorDirs.many);
          await stacks.floor[big]!.measure(op, { dir: floorDirs.many }, env);
          await stacks.floor[1]!.measure(op, { dir: floorDirs.one }, env);
        }
        if (!toProfile.includes(op)) continue;
        print(`  ${op}: ${m.seconds.toFixed(1)} s (profiled); CPU ${fmtCpu(m.cpu)}`);
        for (const role of ["program", "provider-host"]) {
          const profileOf = (d: string) => fs.readdirSync(d).find((f) => f.startsWith(`${role}-`));
          const [one, many] = [profileOf(oneDir), profileOf(opDir)];
          if (one && many)
            print(
              `    ${role}, by place: ${perVpsByPlace(path.join(oneDir, one), path.join(opDir, many), big)}`,
            );
          const [floorOne, floorMany] = floorDirs
            ? [profileOf(floorDirs.one), profileOf(floorDirs.many)]
            : [];
          if (floorDirs && floorOne && floorMany)
            print(
              `    the floor's ${role}, by place: ` +
                perVpsByPlace(path.join(floorDirs.one, floorOne), path.join(floorDirs.many, floorMany), big),
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
    for (const s of [...Object.values(stacks.fleet), ...Object.values(stacks.floor)]) await s.remove();
    await emulator.close();
  }
}

if (require.main === module) {
  benchCli().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
