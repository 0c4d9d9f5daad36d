/**
 * The few lines of a CPU profile a reader needs: where a process spent its CPU, by function (self time).
 * Node's `.cpuprofile` files are read here; the engine's pprof files with `go tool pprof` when Go is on PATH.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { promisify } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The `top` functions by self time of a Node CPU profile, idle time left out: `  1234 ms  fn  file:line`. */
export function topOfNodeProfile(file: string, top = 8): string[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const us = profile.timeDeltas[i] ?? 0;
    busy += us;
    const where = frame.url
      ? ` ${frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/dist\//, "dist/")}:${frame.lineNumber + 1}`
      : "";
    const key = `${frame.functionName || "(anonymous)"}${where}`;
    self.set(key, (self.get(key) ?? 0) + us);
  });
  const lines = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => `${String(Math.round(us / 1000)).padStart(7)} ms  ${key}`);
  return [`${Math.round(busy / 1000)} ms sampled, by self time:`, ...lines];
}

/**
 * The engine's pprof CPU profile through `go tool pprof`, or why not: its duration and samples, then the engine's
 * own functions by cumulative time (where the time goes: e.g. `SnapshotManager.saveSnapshot`, the checkpoints), then
 * the leaves by self time.
 */
export async function topOfGoProfile(binary: string, file: string, top = 10): Promise<string[]> {
  const pprof = async (...args: string[]) =>
    (
      await promisify(execFile)("go", ["tool", "pprof", ...args, binary, file], {
        maxBuffer: 16 * 1024 * 1024,
      })
    ).stdout
      .trim()
      .split("\n");
  try {
    const cumulative = await pprof("-top", "-cum", "-nodecount=200");
    const header = cumulative.filter((line) => /^Duration:/.test(line));
    const table = (lines: string[]) => lines.filter((line) => /^\s+(0|[\d.]+m?s)\s/.test(line));
    const engine = table(cumulative)
      .filter((line) => line.includes("github.com/pulumi/pulumi/"))
      .slice(0, top)
      .map((line) => line.replace(/github\.com\/pulumi\/pulumi\/(pkg|sdk)\/v3\//, ""));
    const flat = table(await pprof("-top", `-nodecount=${Math.ceil(top / 2)}`));
    return [
      ...header,
      "      flat  flat%   sum%        cum   cum%  (the engine's functions, by cumulative time)",
      ...engine,
      "      (by self time)",
      ...flat,
    ];
  } catch (error) {
    return [`(go tool pprof could not read ${file}: ${(error as Error).message.split("\n")[0]})`];
  }
}
