// The scheduled drift check through the real CLI, for either front end (drift-dynamic.test.ts, drift-native.test.ts):
// each change made outside Pulumi (a move to another host, in a program without hostServerOid; a resize of memory
// and disk; a stop; a reinstall; a deletion; a cancellation at the end of the billing period; an IP address added,
// and one taken away from a VPS whose program sets ipCount, by RimuHosting's support) makes `pulumi refresh --preview-only
// --expect-no-changes` exit 7, and the drift report of its JSON names the property (a move's new IP address, the
// cancellation's day) and what repairs it; an unchanged stack passes. The refresh's own display prints a drift line
// for the deletion and the cancellation. A preview of a VPS whose order is gone, the program unchanged, says so, and
// prices nothing for it (with a resize planned for it too: test/provider/impl/gone-order.test.ts, in-process); one
// RimuHosting will cancel is named with the day; the `up` after it changes nothing on the dynamic Vps and fails on the
// native plugin (docs/vps.md#drift). A plain `pulumi refresh`, which writes the
// state, prints the move's drift line with the new IP address and host, and records them and the cancellation's day.
import { expect, test } from "@jest/globals";
import { spawn } from "node:child_process";
import { PassThrough, Readable } from "node:stream";
import { runDrift } from "../../provider/drift/cli";
import type { AboutOrder } from "../../contract/index";
import type { Scenario } from "./e2e-support";
import type { CliStack } from "./cli-stack";
import { addIpAddress, removeIpAddress } from "../helpers/support-changes";

export const NAMES = [
  "moved",
  "resized",
  "stopped",
  "reinstalled",
  "gone",
  "cancelled",
  "ip-added",
  "ip-removed",
] as const;
type Name = (typeof NAMES)[number];

/** The program's `ipCount` of each VPS that sets one: `ip-removed` has an address to lose. */
export const IP_COUNTS: Partial<Record<Name, number>> = { "ip-removed": 2 };

/**
 * VPSs checked in the run of another, for the same kind of drift ("Moved, or addresses changed"), so that adding
 * them added no CLI run: each still has its own rows and advice in that run's report.
 */
const CHECKED_WITH: Partial<Record<Name, Name[]>> = { moved: ["ip-added", "ip-removed"] };
const checkedAlone = NAMES.filter((name) => !Object.values(CHECKED_WITH).flat().includes(name));

/** `pulumi <args>` on the stack: its exit code, stdout and stderr apart (`--json` prints the JSON on stdout). */
export function pulumiRun(
  cli: CliStack,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args, "--stack", cli.name, "--non-interactive"], {
      cwd: cli.programDir,
      env: cli.commandEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The drift report of a refresh's JSON, as the npm command prints it, and its exit code. */
export async function driftReport(json: string): Promise<{ code: number; markdown: string }> {
  const stdout = new PassThrough();
  let markdown = "";
  stdout.on("data", (chunk: Buffer) => (markdown += chunk.toString("utf8")));
  const stderr = new PassThrough();
  const code = await runDrift([], { stdin: Readable.from([json]), stdout, stderr });
  return { code, markdown };
}

/** How a front end's refresh JSON holds a moved VPS's step (docs/vps.md#drift). */
export const MOVED_STEP = {
  /** No detailed diff from a dynamic provider: the step stays `refresh`. */
  dynamic: { op: "refresh" },
  /** The native plugin's detailed diff, comparing the outputs before and after. */
  native: {
    op: "update",
    detailedDiff: {
      primaryIp: { kind: "update", inputDiff: false },
      hostServerOid: { kind: "update", inputDiff: false },
    },
  },
} as const;

/**
 * Registers the tests on the scenario `scenario()` returns; `front`, which front end the program uses (MOVED_STEP says what its refresh's JSON holds for the moved VPS).
 * The native plugin's stack checks each kind of change in a check of its own (`--target`), so each is shown to make
 * the check exit 7 by itself; the dynamic Vps's checks them all in one check, its report holding every row: whether
 * a change is drift is the one core's read and diff (provider/impl), the same for both front ends and tried change by
 * change in-process (test/provider/impl/service-drift.test.ts, refresh-diff.test.ts), and one check shows the dynamic
 * Vps's wiring (CPU, issue 67).
 */
export function driftCheckTests(scenario: () => Scenario, front: keyof typeof MOVED_STEP): void {
  const movedStep: object = MOVED_STEP[front];
  /** The checks of the changes: one per kind on the native plugin, one for all on the dynamic Vps. */
  const checks: Name[][] =
    front === "native" ? checkedAlone.map((name) => [name, ...(CHECKED_WITH[name] ?? [])]) : [[...NAMES]];
  const urns: Record<string, string> = {};
  const oids: Record<string, number> = {};
  const before: Record<string, AboutOrder> = {};
  let movedTo: AboutOrder | undefined;
  /** The address RimuHosting's support gave `ip-added`, and the one it took from `ip-removed`. */
  let addedIp = "";
  let removedIp = "";
  /** When RimuHosting will cancel `cancelled` (ISO 8601, as the order says). */
  let cancelDay = "";
  const ip = (order: AboutOrder) => order.allocated_ips?.primary_ip;
  const goneWarning = () =>
    new RegExp(
      `\\[RIMU_ERR_ORDER_GONE\\] gone: RimuHosting no longer has VPS order ${oids.gone}: .*Run \`pulumi refresh\``,
    );
  const check = (...target: string[]) =>
    pulumiRun(scenario().stack.cli, "refresh", "--preview-only", "--expect-no-changes", "--json", ...target);

  test("up, and the check of the unchanged stack passes: exit 0, no drift", async () => {
    const s = scenario();
    const up = await s.stack.up();
    for (const name of NAMES) {
      const step = up.steps.find((candidate) => candidate.name === name)!;
      urns[name] = step.urn;
      oids[name] = Number(step.id);
      before[name] = (await s.client.getOrder(oids[name])).about_order;
    }
    const run = await check();
    expect(run.code).toBe(0);
    expect(await driftReport(run.stdout)).toMatchObject({ code: 0 });
  });

  test("each change outside Pulumi makes the check exit 7, and the report names it", async () => {
    const s = scenario();
    // What only RimuHosting's support can do (support-changes.ts), then what the API does.
    addedIp = await addIpAddress(s.emulator.baseUrl, oids["ip-added"]!);
    removedIp = await removeIpAddress(s.emulator.baseUrl, oids["ip-removed"]!);
    const moved = await s.client.moveVps(oids.moved!, { is_update_dns: false });
    movedTo = moved.about_order;
    // A resize of memory and disk together: the disk grown is its own row, sharing the fee's change.
    await s.client.changeParameters(oids.resized!, { memory_mb: 2048, disk_space_mb: 30720 });
    await s.client.setRunningState(oids.stopped!, "NOTRUNNING");
    await s.client.reinstallVps(oids.reinstalled!, {
      instantiation_options: { distro: "deb13.64" },
      vps_parameters: { memory_mb: null, disk_space_mb: null },
      dc_location: null,
    });
    await s.client.deleteVps(oids.gone!);
    const cancelled = await s.client.cancelOrder(oids.cancelled!);
    cancelDay = cancelled.about_order!.billing_info!.cancellation_date!.iso_format!;
    const addresses =
      /- \*\*Moved, or addresses changed\*\* \(([^)]*)\): The VPS keeps its new host and addresses/;
    const expected: Record<Name, (string | RegExp)[]> = {
      moved: [
        `| moved (moved.example.com) | primaryIp | ${ip(before.moved!)} → ${ip(moved.about_order)} | none |`,
        `| moved (moved.example.com) | hostServerOid | ${before.moved!.host_server_oid} → ${moved.about_order.host_server_oid} | none |`,
      ],
      resized: [
        "| resized (resized.example.com) | memoryMb | 1024 → 2048 | +$7.00 a month (with diskSpaceMb) |",
        "| resized (resized.example.com) | diskSpaceMb | 20480 → 30720 | +$7.00 a month (with memoryMb) |",
        "- **Disk grown** (resized): A disk cannot shrink: write the new size in the program",
      ],
      stopped: ["| stopped (stopped.example.com) | runningState | RUNNING → NOTRUNNING | none |"],
      reinstalled: ["| reinstalled (reinstalled.example.com) | distro | deb12.64 → deb13.64 | none |"],
      gone: [
        `| gone (gone.example.com) | order | order ${oids.gone} gone.example.com → gone (cancelled or removed) | -$10.00 a month ` +
          "(no longer billed; its credit for the unused time is in RimuHosting's answer to the delete, which no " +
          "read of its API reports) |",
        "- **Gone** (gone): `pulumi up --refresh` orders a new VPS",
      ],
      cancelled: [
        `| cancelled (cancelled.example.com) | cancellationDate | none → ${cancelDay} | none |`,
        "- **Cancellation scheduled** (cancelled): RimuHosting will cancel it on that day",
      ],
      "ip-added": [
        `| ip-added (ip-added.example.com) | secondaryIps | [] → ["${addedIp}"] | none |`,
        addresses,
      ],
      "ip-removed": [
        "| ip-removed (ip-removed.example.com) | ipCount | 2 → 1 | none |",
        `| ip-removed (ip-removed.example.com) | secondaryIps | ["${removedIp}"] → [] | none |`,
        addresses,
      ],
    };
    for (const together of checks) {
      const name = together[0]!;
      const run = await check(
        ...(together.length === NAMES.length ? [] : together.flatMap((vps) => ["--target", urns[vps]!])),
      );
      expect({ name, code: run.code }).toEqual({ name, code: 7 });
      const report = await driftReport(run.stdout);
      expect(report.code).toBe(1);
      if (name === "moved") {
        const steps = (JSON.parse(run.stdout) as { steps: { urn: string; detailedDiff?: unknown }[] }).steps;
        const step = steps.find((candidate) => candidate.urn === urns.moved);
        expect({ ...step, detailedDiff: step?.detailedDiff ?? undefined }).toMatchObject(movedStep);
        if (!("detailedDiff" in movedStep)) expect(step?.detailedDiff ?? undefined).toBeUndefined();
      }
      for (const row of together.flatMap((vps) => expected[vps])) {
        if (typeof row === "string") expect(report.markdown).toContain(row);
        else expect(report.markdown).toMatch(row);
      }
      // The advice for addresses names each VPS whose addresses changed.
      if (name === "moved")
        expect(addresses.exec(report.markdown)?.[1]?.split(", ").sort()).toEqual(
          [name, ...CHECKED_WITH[name]!].sort(),
        );
    }
  });

  test("the refresh's own display: the drift line and the engine's diff of the new IP address", async () => {
    const s = scenario();
    const run = await pulumiRun(s.stack.cli, "refresh", "--preview-only", "--diff");
    const text = run.stdout + run.stderr;
    expect(run.code).toBe(0);
    expect(text).toMatch(/moved: changed outside Pulumi: primaryIp \S+ → \S+, hostServerOid \S+ → \S+/);
    expect(text).toMatch(/~ primaryIp\s*: "[\d.]+" => "[\d.]+"/);
    expect(text).toMatch(/\(delete\)\s*\n\s*\[id=\d+\]\s*\n\s*\[urn=[^\]\n]*::gone\]/);
    // Issue 57: a deletion had only its delete step, and a scheduled cancellation nothing at all.
    expect(text).toContain(
      `gone: changed outside Pulumi: order ${oids.gone} gone.example.com → gone (cancelled or removed).`,
    );
    expect(text).toContain(`cancelled: changed outside Pulumi: cancellationDate none → ${cancelDay}.`);
    expect(text).toContain(`ip-added: changed outside Pulumi: secondaryIps [] → ["${addedIp}"].`);
    expect(text).toContain(
      `ip-removed: changed outside Pulumi: ipCount 2 → 1, secondaryIps ["${removedIp}"] → [].`,
    );
  });

  test("the unchanged program's preview of a VPS whose order is gone: the warning, an update, no price", async () => {
    // Issue 41's report: with the program unchanged, the preview called the gone VPS unchanged.
    const s = scenario();
    const run = await pulumiRun(s.stack.cli, "preview", "--diff", "--expect-no-changes");
    const text = run.stdout + run.stderr;
    expect(text).toMatch(goneWarning());
    expect(text).toMatch(/\(update\)\s*\n\s*\[id=\d+\]\s*\n\s*\[urn=[^\]\n]*::gone\]/);
    // A VPS RimuHosting will cancel runs until then: the preview says so, with the day (issue 57).
    expect(text).toContain(
      `cancelled: RimuHosting will cancel VPS order ${oids.cancelled} at ${cancelDay}: it was cancelled at the end`,
    );
    // Nothing is priced: the program changes nothing, and the gone VPS is never priced.
    expect(text).not.toMatch(/\$\d/);
    expect(text).toMatch(/error: no changes were expected (for preview )?but changes were proposed/);
    expect(run.code).not.toBe(0);
  });

  test("the `up` after it: changes nothing on the dynamic Vps, fails with RIMU_ERR_ORDER_GONE on the native plugin", async () => {
    const s = scenario();
    const run = await pulumiRun(s.stack.cli, "up", "--yes", "--target", urns.gone!);
    const text = run.stdout + run.stderr;
    if (front === "dynamic") {
      // Only the preview looks ahead at the account; the update's diff compares the program with the state.
      expect(run.code).toBe(0);
      expect(text).not.toMatch(/gone\s+updated|~ 1 updated/);
    } else {
      // The plugin's diff cannot tell a preview from an update, so the update is tried, and refused.
      expect(run.code).not.toBe(0);
      expect(text).toMatch(/RIMU_ERR_ORDER_GONE/);
    }
  });

  test("a plain `pulumi refresh` (it writes the state): the move's drift line with the new IP and host, recorded", async () => {
    // Issue 41's report: in a program without hostServerOid, this printed "unchanged" while it wrote the move.
    const s = scenario();
    const run = await pulumiRun(s.stack.cli, "refresh", "--yes", "--diff");
    const text = run.stdout + run.stderr;
    expect(run.code).toBe(0);
    const from = before.moved!;
    const to = movedTo!;
    expect(ip(to)).not.toBe(ip(from));
    expect(text).toContain(
      `moved: changed outside Pulumi: primaryIp ${ip(from)} → ${ip(to)}, hostServerOid ${from.host_server_oid} → ${to.host_server_oid}`,
    );
    const state = JSON.parse(await s.stack.exportState()) as {
      deployment: { resources: { urn: string; outputs?: Record<string, unknown> }[] };
    };
    const outputs = state.deployment.resources.find((resource) => resource.urn === urns.moved)?.outputs;
    expect({ primaryIp: outputs?.primaryIp, hostServerOid: String(outputs?.hostServerOid) }).toEqual({
      primaryIp: ip(to),
      hostServerOid: String(to.host_server_oid),
    });
    const cancelled = state.deployment.resources.find((resource) => resource.urn === urns.cancelled)?.outputs;
    expect(cancelled?.cancellationDate).toBe(cancelDay);
    const ipAdded = state.deployment.resources.find((resource) => resource.urn === urns["ip-added"])?.outputs;
    expect(ipAdded?.secondaryIps).toEqual([addedIp]);
  });
}
