// What the bill's CLI tests share (bill-dynamic.test.ts, the dynamic Vps; bill.test.ts, the native plugin in YAML): a
// fleet before and after a run that creates one VPS, resizes one, replaces one (another data centre) and deletes
// one, beside one it leaves alone; `pulumi preview --event-log` recorded (ordering nothing); the bill of the file
// from the npm bin or the plugin's subcommand; and the check of a bill against the emulator itself: before, what
// the emulator bills the order now; after, its own quote (R16) for the VPS as the program now declares it.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "@jest/globals";
import { EVENT_LOG_SWITCH } from "../../provider/bill/run-preview";
import { amountUsd } from "../../provider/wire-mapping/values";
import type { CliStack } from "./cli-stack";
import type { Scenario } from "./e2e-support";
import { PLUGIN_DIR } from "./native-programs";
import { billTableRows as tableRows } from "../helpers/bill-table";
import { BILL } from "./budget-support";

export const PLUGIN = path.join(PLUGIN_DIR, "pulumi-resource-rimuhosting");

export type Fleet = Record<string, { memoryMb: number; dcLocation: "DCDALLAS" | "DCLONDON" }>;
const DALLAS_1G = { memoryMb: 1024, dcLocation: "DCDALLAS" } as const;
/** Before: four VPSs in Dallas. After: one resized, one moved to London (a replacement), one gone, one new. */
export const BEFORE: Fleet = { resized: DALLAS_1G, replaced: DALLAS_1G, deleted: DALLAS_1G, kept: DALLAS_1G };
export const AFTER: Fleet = {
  resized: { memoryMb: 2048, dcLocation: "DCDALLAS" },
  replaced: { memoryMb: 1024, dcLocation: "DCLONDON" },
  kept: DALLAS_1G,
  created: DALLAS_1G,
};

/**
 * `PULUMI_DEBUG_COMMANDS=true pulumi preview --event-log <file>`, docs/cost.md's way to make the file, and its exit
 * code (a failed preview writes its event log too).
 */
function recordPreview(cli: CliStack, file: string, extra: string[] = []): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "pulumi",
      ["preview", "--event-log", file, "--stack", cli.name, "--non-interactive", ...extra],
      {
        cwd: cli.programDir,
        env: { ...cli.commandEnv(), ...EVENT_LOG_SWITCH },
        stdio: "ignore",
      },
    );
    child.on("error", reject);
    child.on("close", resolve);
  });
}

/** The bill's Markdown and exit code, from the npm bin or the plugin's subcommand, of a file or of stdin. */
export function bill(
  file: string,
  how: "bin" | "plugin" | "bin-stdin" = "bin",
): { status: number | null; stdout: string; stderr: string } {
  const [command, args, input] =
    how === "plugin"
      ? [PLUGIN, ["bill", file], undefined]
      : how === "bin-stdin"
        ? [process.execPath, [BILL], fs.readFileSync(file)]
        : [process.execPath, [BILL, file], undefined];
  const { status, stdout, stderr } = spawnSync(command, args, { encoding: "utf8", input, timeout: 60_000 });
  return { status, stdout, stderr };
}

export const usd = (amount: number): string => `$${amount.toFixed(2)}`;
export const signedUsd = (amount: number): string =>
  Math.round(amount * 100) === 0 ? "±$0.00" : `${amount > 0 ? "+" : "-"}${usd(Math.abs(amount))}`;

/** The emulator's own quote (R16) for a VPS declared as in the fleet (the program's disk, no plan: the default). */
export async function quoted(s: Scenario, vps: Fleet[string]): Promise<number> {
  const answer = await s.client.quoteNewVm({
    dc_location: vps.dcLocation,
    vps_parameters: { memory_mb: vps.memoryMb, disk_space_mb: 20480 },
  });
  const fee = amountUsd(answer.monthly_recurring_amt);
  if (fee === undefined) throw new Error(`the emulator quoted no USD amount: ${JSON.stringify(answer)}`);
  return fee;
}

/** What the emulator bills now for the order of the VPS called `name` (its domain is `<name>.example.com`). */
export function billedNow(s: Scenario, name: string): number {
  const order = s.emulator.snapshot().find((o) => o.domainName === `${name}.example.com` && !o.cancelled);
  if (!order) throw new Error(`no live order for ${name}`);
  return order.monthlyFeeUsd;
}

/** Records the preview into `<workDir>/<name>`, checking that it ordered or changed nothing. */
export async function recordTo(
  s: Scenario,
  name: string,
  extra: string[] = [],
): Promise<{ code: number | null; file: string }> {
  const mark = s.mark();
  const file = path.join(s.workDir, name);
  const code = await recordPreview(s.stack.cli, file, extra);
  expect(s.mutationsSince(mark)).toEqual([]);
  return { code, file };
}

/**
 * Records the preview of the change from BEFORE to AFTER (already applied to the program) and checks the bill
 * against the emulator. Returns the recorded file. `within`: also the preview exactly at the budget and its bill
 * (YAML's; the dynamic Vps's runs at the budget's boundary are money-model-cli-dynamic.test.ts's, and the bill's
 * words for it come from the event log's stack config, the same on both front ends).
 */
export async function checkBill(s: Scenario, { within: atBudget = true } = {}): Promise<string> {
  const { code, file } = await recordTo(s, "preview.events");
  expect(code).toBe(0);

  const printed = bill(file);
  expect(printed.stderr).toBe("");
  expect(printed.status).toBe(0);
  const rows = tableRows(printed.stdout);

  const before = {
    resized: billedNow(s, "resized"),
    replaced: billedNow(s, "replaced"),
    deleted: billedNow(s, "deleted"),
    kept: billedNow(s, "kept"),
  };
  const after = {
    resized: await quoted(s, AFTER.resized!),
    replaced: await quoted(s, AFTER.replaced!),
    created: await quoted(s, AFTER.created!),
  };
  // The quotes differ from the fees billed now, so a fee copied from the wrong place cannot pass.
  expect(after.resized).not.toBe(before.resized);
  expect(after.replaced).not.toBe(before.replaced);

  expect(rows.get("resized")).toEqual([
    "resize: memoryMb 1024 → 2048",
    usd(before.resized),
    usd(after.resized),
    signedUsd(after.resized - before.resized),
  ]);
  expect(rows.get("replaced")).toEqual([
    "replace: dcLocation DCDALLAS → DCLONDON",
    usd(before.replaced),
    usd(after.replaced),
    signedUsd(after.replaced - before.replaced),
  ]);
  expect(rows.get("deleted")).toEqual(["delete", usd(before.deleted), "—", signedUsd(-before.deleted)]);
  expect(rows.get("created")).toEqual(["create", "—", usd(after.created), signedUsd(after.created)]);
  expect(rows.get("kept")).toEqual(["unchanged", usd(before.kept), usd(before.kept), "±$0.00"]);
  const totalBefore = before.resized + before.replaced + before.deleted + before.kept;
  const totalAfter = after.resized + after.replaced + after.created + before.kept;
  expect(rows.get("Stack total")).toEqual([
    "",
    usd(totalBefore),
    usd(totalAfter),
    signedUsd(totalAfter - totalBefore),
  ]);
  const rise = totalAfter - totalBefore;
  const percent = Math.round((rise * 100) / totalBefore);
  expect(printed.stdout).toContain(`\n**${signedUsd(rise)} a month ▲ (+${percent} %)**\n`);
  expect(printed.stdout).toContain("**Credits.** This run cancels `replaced`, `deleted`:");
  expect(printed.stdout).toContain("**Budget (stack config): no budget set.**");

  // The budget: the stack config in the preview's event log. The provider judges the account at the moment of
  // ordering, when `deleted` is still billed (the engine deletes it after the creates; docs/cost.md, "Deletes"),
  // so the run fits a budget of the total after plus the deleted VPS's fee exactly, and the bill says so: the
  // account (this stack's orders alone here) at that figure, nothing to spare, and the total once it is deleted…
  const growth = after.resized - before.resized + (after.replaced - before.replaced) + after.created;
  const atOrdering = totalAfter + before.deleted;
  await s.stack.setConfigs({
    "rimuhosting:monthlyBudgetUsd": (atBudget ? atOrdering : atOrdering - 0.01).toFixed(2),
    "rimuhosting:maxMonthlyIncreaseUsd": growth.toFixed(2),
  });
  if (atBudget) {
    const within = await recordTo(s, "within.events");
    expect(within.code).toBe(0);
    const passed = bill(within.file);
    expect(passed.status).toBe(0);
    expect(passed.stdout).toContain("**Budget (stack config): ✅ within.**");
    expect(passed.stdout).toContain(
      `this run takes the account (every active order its API key reaches, other stacks' too) from ` +
        `${usd(totalBefore)} to ${usd(atOrdering)} a month while the VPS it deletes is still billed, within it ` +
        `($0.00 to spare), and to ${usd(totalAfter)} once it is deleted (a delete counts until it is made, after ` +
        `the run's orders and changes); this stack's own change is ${signedUsd(totalAfter - totalBefore)} a month.`,
    );
    await s.stack.setConfig("rimuhosting:monthlyBudgetUsd", (atOrdering - 0.01).toFixed(2));
  }
  // …and a cent less fails the preview, whose event log the bill still reads: exit 1, the provider's words quoted.
  const over = await recordTo(s, "over.events");
  expect(over.code).not.toBe(0);
  const failed = bill(over.file);
  expect(failed.stderr).toBe("");
  expect(failed.status).toBe(1);
  expect(failed.stdout).toContain("**Budget (stack config): ❌ failed.**");
  expect(failed.stdout).toContain("**The preview failed** (below)");
  expect(failed.stdout).toMatch(/The provider's verdict in the preview:\n\n```text\n.*\[RIMU_ERR_BUDGET\]/);
  await s.stack.removeConfig("rimuhosting:monthlyBudgetUsd");
  await s.stack.removeConfig("rimuhosting:maxMonthlyIncreaseUsd");
  return file;
}
