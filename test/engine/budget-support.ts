// What the budget's engine tests share (budget.test.ts, budget-flags.test.ts, budget-shared-account.test.ts,
// budget-shrink-create.test.ts, recorded-order.test.ts, bill.test.ts, bill-dynamic.test.ts): the preview's steps as
// JSON, with the fee each VPS's check planned, the budget's settings in the stack config, the bill of a stack, and
// the account's orders and fees as the emulator records and quotes them.
import { spawn } from "node:child_process";
import * as path from "node:path";
import type { CliStack } from "./cli-stack";
import type { Scenario } from "./e2e-support";
import { REPO_ROOT } from "./native-programs";
import { amountUsd } from "../../provider/wire-mapping/values";

/** The built `rimuhosting-bill`. */
export const BILL = path.join(REPO_ROOT, "dist/provider/bill/cli.js");

/**
 * `rimuhosting-bill --stack <stack>` (or the plugin's `bill --stack`) in the program's directory, with the CLI
 * environment of the harness minus nothing: asynchronously, since the emulator answers from this process.
 */
export function billOfStack(
  cli: CliStack,
  command: string,
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: cli.programDir, env: cli.commandEnv() });
    let [stdout, stderr] = ["", ""];
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

export interface PreviewStep {
  op: string;
  urn: string;
  newState?: { type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
}

/**
 * `pulumi preview --json --show-sames`: the VPS steps by name, with their op and checked inputs (without
 * --show-sames the JSON leaves out the VPSs a run does not change).
 */
export async function previewJson(s: Scenario, type: string): Promise<Record<string, PreviewStep>> {
  const out = JSON.parse(await s.stack.cli.command("preview", "--json", "--show-sames")) as {
    steps?: PreviewStep[];
  };
  return Object.fromEntries(
    (out.steps ?? [])
      .filter((step) => step.newState?.type === type)
      .map((step) => [step.urn.split("::").pop()!, step]),
  );
}

/** The orders and other changes the emulator received since `mark` (a quote changes nothing). */
export const changesSince = (s: Scenario, mark: number) => s.mutationsSince(mark);

/** Sets or removes `rimuhosting:<key>` in the stack config (undefined removes it; one not set is passed over). */
export async function setStackLimits(s: Scenario, limits: Record<string, string | undefined>): Promise<void> {
  const entries = Object.entries(limits);
  const set = Object.fromEntries(
    entries.flatMap(([key, value]) => (value === undefined ? [] : [[`rimuhosting:${key}`, value]])),
  );
  const removed = entries.filter(([, value]) => value === undefined).map(([key]) => `rimuhosting:${key}`);
  await s.stack.cli.setConfigs(set);
  await s.stack.cli.removeConfigs(removed);
}

/** The demo account's active orders (not cancelled), from the emulator's own records. */
export const activeOrders = (s: Scenario) =>
  s.emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

/** What the account is billed a month, in cents. */
export const accountCents = (s: Scenario): number =>
  activeOrders(s).reduce((sum, order) => sum + Math.round(order.monthlyFeeUsd * 100), 0);

export const activeOrderCount = (s: Scenario): number => activeOrders(s).length;

/**
 * The emulator's quote (R16), in cents, for a VPS as the programs of budget-shared-account.test.ts and
 * budget-shrink-create.test.ts declare it (Dallas, MIRO1B, a
 * 20 GB disk) with `memoryMb`: the fee the provider plans for it, new or resized to it (test/engine/bill.test.ts
 * checks the preview's fees against these quotes).
 */
export async function quotedCents(s: Scenario, memoryMb: number): Promise<number> {
  const answer = await s.client.quoteNewVm({
    dc_location: "DCDALLAS",
    pricing_plan_code: "MIRO1B",
    vps_parameters: { memory_mb: memoryMb, disk_space_mb: 20480 },
  });
  const fee = amountUsd(answer.monthly_recurring_amt);
  if (fee === undefined) throw new Error(`the emulator quoted no USD amount: ${JSON.stringify(answer)}`);
  return Math.round(fee * 100);
}
