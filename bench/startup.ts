/**
 * What a command of a small stack costs before any VPS is judged, with and without `NODE_COMPILE_CACHE` set where
 * `pulumi` runs (docs/ci.md, "Faster commands"): a one-VPS stack of the fleet example, installed as users install it,
 * against the emulator; a no-op `preview`, a no-op `up` and a `refresh`, each run alternately without the variable
 * (what every user gets: only this package's provider keeps its compiled code, vps-shim.ts) and with it (Node keeps
 * the compiled code of every process the command starts: the program's TypeScript, @pulumi/pulumi, the provider host),
 * the cache filled by one command first, as a second run of a CI job finds it. Prints each command's median time and
 * the CPU of the program and the provider host.
 *
 * Needs `pulumi` on PATH (scripts/pulumi-cli.sh builds it); without one it says so and measures nothing.
 * Run: `npm run bench -- startup [--rounds 5]`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator/index.js";
import { findPulumiCli } from "../test/engine/cli-stack.js";
import { BenchStack, type Measured, type Op } from "./bench-stack.js";

export interface StartupBenchOptions {
  /** Runs of each command in each arm; the medians are compared. Default 5. */
  rounds?: number;
  print?: (line: string) => void;
}

const COMMANDS: Op[] = ["preview", "noop", "refresh"];

/** The arms: the variable unset (a child's env leaves out an undefined value), or naming a directory. */
type Arm = "without" | "with";

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export async function benchStartup(options: StartupBenchOptions = {}): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const cli = findPulumiCli();
  if (!cli.path) {
    print(`startup: not measured: ${cli.reason}`);
    return;
  }
  const rounds = options.rounds ?? 5;
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-compile-cache-"));
  const env: Record<Arm, NodeJS.ProcessEnv> = {
    without: { NODE_COMPILE_CACHE: undefined },
    with: { NODE_COMPILE_CACHE: cacheDir },
  };
  const emulator = await startEmulator({ timeScale: 0.02 });
  const stack = await BenchStack.create(1, emulator, 1);
  try {
    await stack.measure("up");
    await stack.measure("preview", undefined, env.with);
    const runs: Record<Arm, Partial<Record<Op, Measured[]>>> = { without: {}, with: {} };
    for (let round = 0; round < rounds; round++) {
      // Which arm goes first alternates, so that the machine's drift falls on both.
      const arms: Arm[] = round % 2 === 0 ? ["without", "with"] : ["with", "without"];
      for (const arm of arms)
        for (const op of COMMANDS) (runs[arm][op] ??= []).push(await stack.measure(op, undefined, env[arm]));
    }
    print(
      `a one-VPS stack through the real CLI, median of ${rounds} runs; NODE_COMPILE_CACHE unset, then set ` +
        `(filled by one command first); node ${process.version}, load ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}:`,
    );
    for (const op of COMMANDS) {
      const [off, on] = [runs.without[op]!, runs.with[op]!];
      const seconds = (m: Measured[]) => median(m.map((r) => r.seconds));
      const cpu = (m: Measured[]) => median(m.map((r) => r.cpu.programMs + r.cpu.providerHostMs)) / 1000;
      print(
        `  ${op.padEnd(8)} unset ${seconds(off).toFixed(2)} s, set ${seconds(on).toFixed(2)} s ` +
          `(${(seconds(on) / seconds(off)).toFixed(2)}x); program and provider host CPU ` +
          `${cpu(off).toFixed(2)} s, set ${cpu(on).toFixed(2)} s`,
      );
    }
    const bytes = fs
      .readdirSync(cacheDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
    print(`  the cache directory: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  } finally {
    await stack.measure("destroy").catch(() => undefined);
    await stack.remove();
    await emulator.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}
