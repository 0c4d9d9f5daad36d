/**
 * The plugin as users get it: the release's self-contained executables (`npm run release:build`, built first when
 * dist/release is missing or stale) beside the launcher tarball of `npm run plugin:pack` (a shell script that runs
 * the bundle with the `node` on PATH). Prints each tarball's size, then the time from the spawn to the answer to the
 * first gRPC call (GetPluginInfo: what the engine asks first) of: the linux-amd64 executable, the launcher, and a
 * minimal Go provider on pulumi-go-provider (bench/go-provider.ts; skipped, saying why, without Go); and from the
 * spawn to the exit of a bare `node -e 0` on the Node the executable is made of. Each provider is started as the
 * engine starts it, with an engine's address as its first argument (a stand-in that answers health checks,
 * bench/stand-in-engine.ts): what a provider does with it as it starts is part of its start. All with one program in
 * one run, the order turning each round so drift falls on all; median (min-max) of each, the executable's median
 * over `node -e 0`'s and over the Go provider's (wall and CPU), the CPU each provider had used when it answered
 * (Linux), and the load average before and after.
 *
 * Run: `npm run bench -- plugin` (or `npm run build && node dist/bench/index.js plugin --rounds 11`); with
 * `--against <executable>`, another linux-amd64 executable joins the rounds (and its ratio is printed); with
 * `--whole-process`, each provider's whole CPU from exec to exit is measured too (whole-process-cpu.ts).
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packPlugin, pluginTarballName, packageVersion } from "../provider/native/pack.js";
import { buildRelease, RELEASE_DIR } from "../tools/release/build.js";
import { firstCall } from "../tools/release/check-executable.js";
import { HOST_TARGET, nodeBinary, SEA_NODE_VERSION, TARGETS } from "../tools/release/node-binaries.js";
import { frameworkVersion, goProvider } from "./go-provider.js";
import { standInEngine } from "./stand-in-engine.js";
import { perfMissing, wholeProcessCpuMs } from "./whole-process-cpu.js";

export interface PluginBenchOptions {
  /** Rounds of first calls per side. Default 7. */
  rounds?: number;
  /**
   * Another linux-amd64 plugin executable (say, an earlier commit's) timed in the same rounds, alternating with the
   * others: a change's effect measured under the same load.
   */
  against?: string;
  /** Also the CPU of each provider's whole process, exec to exit, under `perf stat` (whole-process-cpu.ts). */
  wholeProcess?: boolean;
  print?: (line: string) => void;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchPlugin(options: PluginBenchOptions = {}): Promise<void> {
  const rounds = options.rounds ?? 7;
  const print = options.print ?? ((line: string) => console.log(line));
  const version = packageVersion();
  await buildRelease({ ifStale: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bench-plugin-"));
  const engine = await standInEngine();
  try {
    const launcherTarball = await packPlugin(scratch);
    const unpack = (tarball: string, into: string) => {
      fs.mkdirSync(into);
      execFileSync("tar", ["-xzf", tarball, "-C", into]);
      return path.join(into, "pulumi-resource-rimuhosting");
    };
    const launcher = unpack(launcherTarball, path.join(scratch, "launcher"));
    const executable = unpack(
      path.join(RELEASE_DIR, pluginTarballName(version, "linux-amd64")),
      path.join(scratch, "executable"),
    );

    print(`  tarball                                   size     the plugin unpacked`);
    const row = (name: string, tarball: string, unpacked: string) =>
      print(
        `  ${name.padEnd(40)}  ${mb(fs.statSync(tarball).size).padStart(7)}  ${mb(fs.statSync(unpacked).size)}`,
      );
    for (const t of TARGETS) {
      const tarball = path.join(RELEASE_DIR, pluginTarballName(version, t.platform));
      const size = Number(
        execFileSync("sh", ["-c", `tar -xzOf "$1" "$2" | wc -c`, "sh", tarball, t.executable]),
      );
      print(
        `  ${`self-contained ${t.platform}`.padEnd(40)}  ${mb(fs.statSync(tarball).size).padStart(7)}  ${mb(size)}`,
      );
    }
    row("launcher (needs node on PATH)", launcherTarball, path.join(scratch, "launcher/provider.js"));

    const pathNode = execFileSync("node", ["--version"], { encoding: "utf8" }).trim();
    const seaNode = nodeBinary(HOST_TARGET).exe;
    const go = goProvider(print);
    const sides: { label: string; time: () => Promise<Timing> }[] = [
      { label: "self-contained linux-amd64", time: () => answerMs(executable, engine.address, version) },
      { label: `launcher, on node ${pathNode}`, time: () => answerMs(launcher, engine.address, version) },
      {
        label: `node -e 0 (node v${SEA_NODE_VERSION}), to its exit`,
        time: () => exitMs(seaNode, ["-e", "0"]),
      },
    ];
    if ("exe" in go)
      sides.push({
        label: `Go provider (pulumi-go-provider ${frameworkVersion()})`,
        time: () => answerMs(go.exe, engine.address),
      });
    const against = options.against;
    if (against !== undefined)
      sides.push({
        label: `against ${path.basename(against)}`,
        time: () => answerMs(against, engine.address),
      });
    const times = sides.map(() => [] as number[]);
    const cpu = sides.map(() => [] as number[]);
    const load = () =>
      os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ");
    const loadBefore = load();
    for (let round = 0; round < rounds; round++) {
      // each round starts with the next side, so drift and warm caches fall on all
      for (let i = 0; i < sides.length; i++) {
        const side = (round + i) % sides.length;
        const timing = await sides[side]!.time();
        times[side]!.push(timing.ms);
        if (timing.cpuMs !== undefined) cpu[side]!.push(timing.cpuMs);
      }
    }
    print(
      `  from the spawn to the first answer (GetPluginInfo), median of ${rounds} rounds (min-max); the CPU the process had used by then:`,
    );
    const range = (ms: number[]) =>
      `${median(ms).toFixed(0).padStart(5)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)})`;
    sides.forEach((side, i) => {
      const used = cpu[i]!.length > 0 ? `  CPU ${range(cpu[i]!)}` : "";
      print(`  ${side.label.padEnd(44)}  ${range(times[i]!)}${used}`);
    });
    if ("reason" in go) print(`  ${"Go provider".padEnd(44)}  not run: ${go.reason}`);
    print(`  self-contained / node -e 0: ${(median(times[0]!) / median(times[2]!)).toFixed(1)}`);
    // Issue 67's aim is at most 1.5 times the Go provider, in one run: the medians' ratio, and the CPU's.
    if ("exe" in go)
      print(
        `  self-contained / Go provider: ${(median(times[0]!) / median(times[3]!)).toFixed(2)}, CPU ${(median(cpu[0]!) / median(cpu[3]!)).toFixed(2)}`,
      );
    if (against !== undefined) {
      const i = sides.length - 1;
      print(
        `  self-contained / against: ${(median(times[0]!) / median(times[i]!)).toFixed(2)}, CPU ${(median(cpu[0]!) / median(cpu[i]!)).toFixed(2)}`,
      );
    }
    if (options.wholeProcess) {
      const missing = perfMissing();
      const processes = [
        { label: "self-contained linux-amd64", exe: executable },
        ...("exe" in go ? [{ label: "Go provider", exe: go.exe }] : []),
        ...(against !== undefined ? [{ label: `against ${path.basename(against)}`, exe: against }] : []),
      ];
      if (missing) print(`  the whole process's CPU: not measured (${missing})`);
      else {
        const whole = processes.map(() => [] as number[]);
        for (let round = 0; round < rounds; round++)
          for (let i = 0; i < processes.length; i++) {
            const p = (round + i) % processes.length;
            whole[p]!.push(await wholeProcessCpuMs(processes[p]!.exe, engine.address));
          }
        print(
          `  the whole process's CPU, every thread, from exec to exit (perf stat; answered, then SIGTERM):`,
        );
        processes.forEach((p, i) => print(`  ${p.label.padEnd(44)}  ${range(whole[i]!)}`));
      }
    }
    print(`  load average (1, 5, 15 min): ${loadBefore} before, ${load()} after`);
  } finally {
    await engine.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** A side's time, and the CPU its process had used by then where it is known (Linux; not after an exit). */
interface Timing {
  ms: number;
  cpuMs?: number;
}

/**
 * From spawning the provider `exe`, given the engine's address as the engine does, to its answer to GetPluginInfo
 * (checked to be `version`).
 */
async function answerMs(exe: string, engineAddress: string, version?: string): Promise<Timing> {
  const answer = await firstCall([exe, engineAddress]);
  if (version !== undefined && answer.version !== version)
    throw new Error(`${exe} answered ${answer.version}, not ${version}`);
  return { ms: answer.ms, cpuMs: answer.cpuMs };
}

/** From spawning `command` to its exit (which must be a success). */
function exitMs(command: string, args: string[]): Promise<Timing> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6 })
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}`)),
    );
  });
}
