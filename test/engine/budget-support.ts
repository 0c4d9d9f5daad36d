// What the budget's engine tests share (budget.test.ts, budget-flags.test.ts, recorded-order.test.ts): the preview's
// steps as JSON, with the fee each VPS's check planned, and the budget's settings in the stack config.
import type { Scenario } from "./e2e-support";

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
