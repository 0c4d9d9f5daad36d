// What `pulumi refresh` and `pulumi up --refresh` print about a VPS changed outside Pulumi, through the real CLI, for
// either front end (refresh-dynamic.test.ts, refresh-native.test.ts). A refresh shows the drift as drift and a disk
// the program would shrink as refused; it prints no restart, start, stop or price line, because it changes nothing.
// After a `refresh --preview-only` (the drift check's), a plain `up` changes nothing and `up --refresh` puts back
// what the program says (the drift report's advice, provider/drift/markdown.ts): the engine's handling of a
// preview-only refresh, the same for both front ends, shown once, on the native plugin's (the cheaper) stack. `up --refresh` refuses a program that would shrink the grown disk, prints the warnings and the price of a change it
// plans, and none when the program already matches the VPS (its refresh's warning about a disk grown past the recorded
// size still shows). The program's memoryMb, diskSpaceMb and runningState are the stack's config.
import { expect, test } from "@jest/globals";
import type { Scenario } from "./e2e-support";
import { pulumiFailure, pulumiText } from "./native-programs";

export const REFRESH_PROGRAM_CONFIG = { memoryMb: "1024", diskSpaceMb: "20480", runningState: "RUNNING" };

/** Lines only a planned change may print: its effects and its price. */
const PLANNED_CHANGE_LINES = [/restarts the VPS/, /starts the VPS/, /stops the VPS/, /\$\d/];

function expectNoPlannedChangeLines(text: string): void {
  for (const line of PLANNED_CHANGE_LINES) expect(text).not.toMatch(line);
}

/**
 * The keys an update's line names, added (`+`), changed (`~`) or removed (`-`), sorted:
 * `web updating (0s) [diff: +currentMonthlyFeeUsd~memoryMb,runningState]`.
 */
const updateDiffKeys = (text: string): string[] =>
  (/\bweb\b[^\n]*updat[^\n]*\[diff: ([^\]]+)\]/.exec(text)?.[1] ?? "")
    .split(/[+~,-]/)
    .filter((key) => key !== "")
    .sort();

/**
 * Registers the scenario's tests, in order, on the scenario `scenario()` returns (made in the caller's beforeAll);
 * `front`, the front end of its program.
 */
export function refreshOutputTests(scenario: () => Scenario, front: "dynamic" | "native"): void {
  let oid = 0;
  const program = async (memoryMb: number, diskSpaceMb: number, runningState: string) => {
    await scenario().stack.setConfigs({
      memoryMb: String(memoryMb),
      diskSpaceMb: String(diskSpaceMb),
      runningState,
    });
  };

  test("up orders the VPS", async () => {
    const up = await scenario().stack.up();
    oid = Number(up.steps.find((step) => step.name === "web")?.id);
    expect(oid).toBeGreaterThan(0);
  });

  if (front === "native")
    test("the drift report's advice: after refresh --preview-only a plain up changes nothing; up --refresh undoes it", async () => {
      const s = scenario();
      await s.client.changeParameters(oid, { memory_mb: 2048 });
      await pulumiText(s.stack.cli, "refresh", "--preview-only");
      const mark = s.mark();
      // What each up does, not what its preview says: the previews of up --refresh are the tests below.
      await pulumiText(s.stack.cli, "up", "--yes", "--skip-preview");
      expect(s.mutationsSince(mark)).toEqual([]);
      expect((await s.client.getOrder(oid)).about_order.vps_parameters?.memory_mb).toBe(2048);
      await pulumiText(s.stack.cli, "up", "--refresh", "--yes", "--skip-preview");
      expect((await s.client.getOrder(oid)).about_order.vps_parameters?.memory_mb).toBe(1024);
    });

  test("refresh after a resize and a stop outside Pulumi: drift, the refused shrink, no restart, start or price", async () => {
    const s = scenario();
    await s.client.changeParameters(oid, { memory_mb: 2048, disk_space_mb: 40960 });
    await s.client.setRunningState(oid, "NOTRUNNING");
    const mark = s.mark();
    // With its preview: both print.
    const text = await pulumiText(s.stack.cli, "refresh", "--yes");
    expect(s.mutationsSince(mark)).toEqual([]);
    expectNoPlannedChangeLines(text);
    expect(text).not.toMatch(/resize 2048 → 1024/);
    expect(text).toMatch(
      /web: changed outside Pulumi: memoryMb 1024 → 2048, diskSpaceMb 20480 → 40960, runningState RUNNING → NOTRUNNING/,
    );
    expect(text).toMatch(
      /warning: (\[rimuhosting\] )?web: if the program still says diskSpaceMb 20480 \(as recorded before this refresh\), the next up is refused: a disk cannot shrink \(40960 MB to 20480 MB\)/,
    );
  });

  test("up --refresh on a program that would shrink the grown disk: refused, not priced, nothing changed", async () => {
    const s = scenario();
    const mark = s.mark();
    const text = await pulumiFailure(s.stack.cli, "up", "--refresh", "--yes");
    expect(s.mutationsSince(mark)).toEqual([]);
    expect(text).toMatch(
      /\[RIMU_ERR_CHANGE_REFUSED\] diskSpaceMb: a disk cannot shrink \(40960 MB to 20480 MB\)/,
    );
    expectNoPlannedChangeLines(text);
  });

  test("up --refresh on a program that differs shows the change it plans: restart, start and price", async () => {
    const s = scenario();
    await program(1024, 40960, "RUNNING");
    const text = await pulumiText(s.stack.cli, "up", "--refresh", "--yes");
    expect(text).toMatch(/warning: (\[rimuhosting\] )?web: resizing memoryMb restarts the VPS/);
    expect(text).toMatch(/web: runningState RUNNING starts the VPS/);
    expect(text).toMatch(/web: resize 2048 → 1024 MB: \$[\d.]+ → \$[\d.]+ a month \(-\$[\d.]+\)/);
    // The update's line (issue 57: "cosmetic [diff: …MonthlyFeeUsd] lines", docs/vps.md#drift): the native plugin
    // names the inputs changed; the engine names the dynamic Vps's from its checked inputs, the check's fees too.
    // Here the refresh just recorded inputs without the check's keys: the dynamic Vps's line calls them added.
    expect(updateDiffKeys(text)).toEqual(
      front === "native"
        ? ["memoryMb", "runningState"]
        : ["checkedInDeployment", "currentMonthlyFeeUsd", "memoryMb", "plannedMonthlyFeeUsd", "runningState"],
    );
    const order = (await s.client.getOrder(oid)).about_order;
    expect(order.vps_parameters?.memory_mb).toBe(1024);
    expect(order.running_state).toBe("RUNNING");
  });

  test("up --refresh on a program that matches the VPS changed outside Pulumi: the drift, no change made or priced", async () => {
    const s = scenario();
    await s.client.changeParameters(oid, { memory_mb: 4096, disk_space_mb: 61440 });
    await s.client.setRunningState(oid, "NOTRUNNING");
    await program(4096, 61440, "NOTRUNNING");
    const mark = s.mark();
    const text = await pulumiText(s.stack.cli, "up", "--refresh", "--yes");
    expect(s.mutationsSince(mark)).toEqual([]);
    expectNoPlannedChangeLines(text);
    expect(text).toMatch(
      /web: changed outside Pulumi: memoryMb 1024 → 4096, diskSpaceMb 40960 → 61440, runningState RUNNING → NOTRUNNING/,
    );
    // Its refresh knows the size the last up recorded, not this program's (which the up then takes, unrefused).
    expect(text).toMatch(
      /web: if the program still says diskSpaceMb 40960 \(as recorded before this refresh\), the next up is refused/,
    );
    expect(text).not.toMatch(/RIMU_ERR_CHANGE_REFUSED/);
  });
}
