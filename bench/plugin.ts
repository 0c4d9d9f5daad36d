/**
 * The plugin as users get it: the release's self-contained executables (`npm run release:build`, built first when
 * dist/release is missing or stale) beside the launcher tarball of `npm run plugin:pack` (a shell script that runs
 * the bundle with the `node` on PATH). Prints each tarball's size, and the time from starting the plugin to its
 * answer to the first gRPC call (GetPluginInfo: what the engine asks first) for the linux-amd64 executable and the
 * launcher, in alternating rounds so drift falls on both.
 *
 * Run: `npm run build && node dist/bench/index.js plugin`.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packPlugin, pluginTarballName, packageVersion } from "../provider/native/pack.js";
import { buildRelease, RELEASE_DIR } from "../tools/release/build.js";
import { firstCall } from "../tools/release/check-executable.js";
import { TARGETS } from "../tools/release/node-binaries.js";

export interface PluginBenchOptions {
  /** Rounds of first calls per side. Default 7. */
  rounds?: number;
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
    const times = { executable: [] as number[], launcher: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      // alternate which side goes first
      const order =
        round % 2 === 0 ? (["executable", "launcher"] as const) : (["launcher", "executable"] as const);
      for (const side of order) {
        const answer = await firstCall([side === "executable" ? executable : launcher]);
        if (answer.version !== version)
          throw new Error(`the ${side} answered ${answer.version}, not ${version}`);
        times[side].push(answer.ms);
      }
    }
    print(`  start to the first answer (GetPluginInfo), median of ${rounds} rounds (min-max):`);
    for (const side of ["executable", "launcher"] as const) {
      const label = side === "executable" ? "self-contained linux-amd64" : `launcher, on node ${pathNode}`;
      const ms = times[side];
      print(
        `  ${label.padEnd(40)}  ${median(ms).toFixed(0).padStart(5)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)})`,
      );
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
