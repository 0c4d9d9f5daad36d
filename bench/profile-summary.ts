/**
 * The few lines of a CPU profile a reader needs: where a process spent its CPU, by place and by function.
 * Node's `.cpuprofile` files are read here; the engine's pprof files with `go tool pprof` when Go is on PATH.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { promisify } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The longest a sample counts, in microseconds. Node samples about once a millisecond of wall time: a sample that
 * follows a longer gap was taken after the process waited for a core (a loaded machine), and counting the whole gap
 * would charge that wait to whatever function was running (a socket write that woke the emulator, for one).
 */
const SAMPLE_CAP_US = 2_000;

/** Where a frame's code lives: `dist/provider/impl/lifecycle` (this package's, by folder), `npm:got`, `node:fs`. */
function placeOf(frame: ProfileNode["callFrame"]): string {
  if (frame.functionName === "(garbage collector)") return "(garbage collector)";
  if (!frame.url) return frame.functionName === "(program)" ? "(program)" : "(native)";
  const url = frame.url.replace(/^file:\/\//, "");
  const cut = url.lastIndexOf("node_modules/");
  if (cut >= 0) {
    const parts = url.slice(cut + "node_modules/".length).split("/");
    if (parts[0] === "pulumi-rimuhosting") return parts.slice(1, -1).join("/");
    return `npm:${parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  if (url.startsWith("node:")) return url.replace(/^node:internal\//, "node:");
  const dist = url.indexOf("/dist/");
  return dist >= 0 ? url.slice(dist + 1, url.lastIndexOf("/")) : url.slice(url.lastIndexOf("/") + 1);
}

const ours = (place: string): boolean => place.startsWith("dist/");

/** A function as `name place:line`, this package's with its file: `sink dist/provider/impl/engine/log.js:9`. */
function functionOf(frame: ProfileNode["callFrame"], place: string): string {
  const where = ours(place) ? `${place}/${frame.url.slice(frame.url.lastIndexOf("/") + 1)}` : place;
  return `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
}

/**
 * A Node CPU profile in the few lines a reader needs, idle time left out and each sample capped (SAMPLE_CAP_US):
 * self time by place (this package's folders, npm packages, Node), the `top` functions by self time, and this
 * package's functions with what they call (the time under the nearest frame of this package: HTTP, logging).
 */
export function topOfNodeProfile(file: string, top = 8): string[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map<string, number>();
  const places = new Map<string, number>();
  const under = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const us = Math.min(profile.timeDeltas[i] ?? 0, SAMPLE_CAP_US);
    busy += us;
    const place = placeOf(frame);
    add(places, place, us);
    add(self, functionOf(frame, place), us);
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const caller = byId.get(at)!.callFrame;
      const callerPlace = placeOf(caller);
      if (!ours(callerPlace)) continue;
      add(under, functionOf(caller, callerPlace), us);
      break;
    }
  });
  const ms = (us: number) => `${String(Math.round(us / 1000)).padStart(7)} ms`;
  const best = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => `${ms(us)}  ${key}`);
  const oursSelf = [...places].filter(([place]) => ours(place)).reduce((sum, [, us]) => sum + us, 0);
  const oursUnder = [...under.values()].reduce((sum, us) => sum + us, 0);
  return [
    `${Math.round(busy / 1000)} ms sampled (samples capped at ${SAMPLE_CAP_US / 1000} ms); this package's code ` +
      `${Math.round(oursSelf / 1000)} ms, with what it calls ${Math.round(oursUnder / 1000)} ms; by place:`,
    ...best(places, top),
    "    by function (self time):",
    ...best(self, top),
    "    this package's functions, with what they call:",
    ...best(under, top),
  ];
}

/** Busy time by place (placeOf), idle left out and each sample capped as in topOfNodeProfile. */
function busyByPlace(file: string): Map<string, number> {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const places = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const us = Math.min(profile.timeDeltas[i] ?? 0, SAMPLE_CAP_US);
    places.set(placeOf(frame), (places.get(placeOf(frame)) ?? 0) + us);
  });
  return places;
}

/**
 * Where a process's CPU goes per VPS: the profile of the same process with `big` VPSs less the one with 1, by
 * place, over the VPSs beyond the first. What grows with the fleet stands out from what every run pays once (Node's
 * and the SDK's start, module loading), which the big profile alone mixes in.
 */
export function perVpsByPlace(oneFile: string, bigFile: string, big: number, top = 8): string {
  const one = busyByPlace(oneFile);
  const many = busyByPlace(bigFile);
  const perVps = (us: number) => us / 1000 / (big - 1);
  const growth = [...new Set([...one.keys(), ...many.keys()])].map(
    (place) => [place, perVps((many.get(place) ?? 0) - (one.get(place) ?? 0))] as const,
  );
  const total = growth.reduce((sum, [, ms]) => sum + ms, 0);
  const best = [...growth]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([place, ms]) => `${place} ${ms.toFixed(2)}`);
  return `${total.toFixed(2)} ms a VPS beyond the first: ${best.join(", ")}`;
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
