// What one `pulumi up --yes --json` of the money model's cases did (money-model-cli.ts), read from its output: whether
// its preview passed and its update completed, the preview's steps with their checked fees, the errors it printed;
// and the figures the invariants compare: the account the preview foresees, what the run added (maxMonthlyIncreaseUsd).
import type { OrderSeen } from "./invariants";
import type { CliStack } from "../engine/cli-stack";

/** One step of the preview's JSON document (`pulumi up --json`'s first). */
interface Step {
  op: string;
  urn: string;
  oldState?: { type: string; id?: string; outputs?: { monthlyFeeUsd?: unknown } };
  newState?: { type: string; inputs?: Record<string, unknown> };
}

/** What one `pulumi up --yes --json` did. */
export interface UpRun {
  /** Its preview passed: the update started (it printed the update's events). */
  passed: boolean;
  /** It exited 0, its update's summary "succeeded". */
  completed: boolean;
  steps: Step[];
  /** The errors it printed (each diagnostic of severity error; what it printed on stderr if none). */
  errors: string[];
}

export async function upWithPreview(cli: CliStack): Promise<UpRun> {
  let stdout: string;
  let stderr = "";
  let exited = true;
  try {
    stdout = await cli.command("up", "--yes", "--json");
  } catch (error) {
    exited = false;
    const failed = error as { stdout?: string; stderr?: string };
    stdout = failed.stdout ?? "";
    stderr = failed.stderr ?? String(error);
  }
  const lines = stdout.split("\n");
  const first = lines.findIndex((line) => line.startsWith('{"sequence"'));
  const previewText = (first < 0 ? lines : lines.slice(0, first)).join("\n").trim();
  const events = (first < 0 ? [] : lines.slice(first))
    .filter((line) => line.trim() !== "")
    .map(
      (line) =>
        JSON.parse(line) as {
          diagnosticEvent?: { message: string; severity: string };
          summaryEvent?: { result: string };
        },
    );
  if (previewText === "") throw new Error(`pulumi up printed no preview:\n${stdout}\n${stderr}`);
  const preview = JSON.parse(previewText) as {
    steps?: Step[];
    diagnostics?: { message: string; severity: string }[];
  };
  const errors = [
    ...(preview.diagnostics ?? []),
    ...events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : [])),
  ]
    .filter((d) => d.severity === "error")
    .map((d) => d.message.trim());
  if (!exited && errors.length === 0) errors.push(stderr.trim());
  return {
    passed: events.length > 0,
    completed: exited && events.some((e) => e.summaryEvent?.result === "succeeded"),
    steps: preview.steps ?? [],
    errors,
  };
}

export const centsOf = (value: unknown): number | undefined =>
  typeof value === "number" ? Math.round(value * 100) : undefined;

/**
 * The account's monthly fees once the run is done, as its preview counts them: the account before, each VPS step
 * moved from what its order is billed now to its checked plannedMonthlyFeeUsd, each VPS deleted gone. NaN when a
 * changed VPS's fee is not known (the preview then states no figure).
 */
export function previewFigure(steps: readonly Step[], type: string, before: readonly OrderSeen[]): number {
  const billed = (step: Step): number => {
    const oid = Number(step.oldState?.id);
    return before.find((o) => o.oid === oid)?.cents ?? centsOf(step.oldState?.outputs?.monthlyFeeUsd) ?? 0;
  };
  let cents = before.reduce((sum, o) => sum + o.cents, 0);
  for (const step of steps) {
    if (step.op === "same" || (step.newState ?? step.oldState)?.type !== type) continue;
    if (step.op === "delete") {
      cents -= billed(step);
      continue;
    }
    const planned = centsOf(step.newState?.inputs?.plannedMonthlyFeeUsd);
    if (planned === undefined) return NaN;
    const now = centsOf(step.newState?.inputs?.currentMonthlyFeeUsd) ?? (step.oldState ? billed(step) : 0);
    cents += planned - now;
  }
  return cents;
}

export const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * I3 for maxMonthlyIncreaseUsd: what the run added to the account, each domain name's orders (a VPS and its
 * replacement) counted from its fees before to its fees after, growth only (shrinks are not netted).
 */
export function increaseKept(
  limitUsd: string | undefined,
  before: readonly OrderSeen[],
  after: readonly OrderSeen[],
) {
  if (limitUsd === undefined) return undefined;
  const byDomain = (orders: readonly OrderSeen[]) => {
    const sums = new Map<string, number>();
    for (const o of orders) sums.set(o.domain, (sums.get(o.domain) ?? 0) + o.cents);
    return sums;
  };
  const [was, is] = [byDomain(before), byDomain(after)];
  let added = 0;
  for (const [domain, cents] of is) added += Math.max(0, cents - (was.get(domain) ?? 0));
  const limit = Math.round(Number(limitUsd) * 100);
  return added <= limit
    ? undefined
    : `I3: the run added ${usd(added)} a month (new VPSs and growing changes), over maxMonthlyIncreaseUsd ${usd(limit)}`;
}
