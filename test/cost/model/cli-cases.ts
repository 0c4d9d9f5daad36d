/**
 * The money model's cases for the real CLI (test/cost/money-model-cli.ts, run by test/engine/money-model-cli-*.test.ts): 1–2 stacks of one account and 2–3
 * runs of `pulumi up`, each run changing one stack's program of 1–4 VPSs (created, resized up and down, moved with
 * and without deleteBeforeReplace, removed, their PTR name changed) under a budget at its boundary (exact, a cent
 * either side, or far above). The changes and the budgets are the in-process model's (edits.ts, commands.ts), so
 * both tests generate the same kinds of runs; no adoption, outside change, fault or concurrent run here (the
 * in-process model has them). A case's programs are worked out before it runs; its budget's figures at each run,
 * from the live account, as commands.ts does.
 */
import fc from "fast-check";
import { findDataCenter } from "../../../emulator/catalog/data-centers";
import { vpsMonthlyFeeUsd } from "../../../emulator/catalog/pricing";
import type { OrderSeen } from "../invariants";
import type { Settings } from "../judges";
import { budgetArb, type BudgetChoice, type Real } from "./commands";
import { edit, editArb, editWords, type Edit } from "./edits";
import { Stack, type Spec } from "./engine";

/** The most VPSs one program declares here (the brief of the CLI's cases: 1–4). */
export const MAX_PROGRAM_VPSS = 4;

/** One run of `pulumi up`: the stack it runs on, its program after this run's changes, and its budget. */
export interface CliRun {
  stack: number;
  /** The changes to the stack's program this run makes (its first run: the VPSs it starts with). */
  edits: readonly Edit[];
  /** The stack's program once they are made. */
  program: readonly Spec[];
  budget: BudgetChoice;
}

/** One generated case: its stacks (on one account) and its runs, one after the other. */
export interface CliCase {
  stacks: number;
  runs: CliRun[];
}

const addArb = editArb.filter((e) => e.op === "add").map((e) => ({ ...e, provider: 0 as const }));
/** The model's changes, less adoption (no order is made by hand here) and the explicit provider (the dynamic Vps has none). */
const changeArb = editArb
  .filter((e) => e.op !== "adopt")
  .map((e) => (e.op === "add" ? { ...e, provider: 0 as const } : e));

interface Drawn {
  stack: number;
  /** Used when this is the stack's first run. */
  start: Edit[];
  /** Used otherwise. */
  changes: Edit[];
  budget: BudgetChoice;
}

const drawnArb = (stacks: number): fc.Arbitrary<Drawn> =>
  fc.record({
    stack: fc.nat(stacks - 1),
    start: fc.array(addArb, { minLength: 1, maxLength: MAX_PROGRAM_VPSS }),
    changes: fc.array(changeArb, { minLength: 1, maxLength: 3 }),
    budget: budgetArb,
  });

/** The programs of a case's runs: each run's changes made to its stack's program, in order (edits.ts's rules). */
function programsOf(stacks: number, drawn: readonly Drawn[]): CliCase {
  const held = Array.from({ length: stacks }, (_, i) => new Stack(`s${i}`));
  // edit() reads `stacks` (the model's cap over all stacks) and, only to adopt, the emulator: no adoption here.
  const real = { stacks: held } as unknown as Real;
  const started = new Set<number>();
  const runs = drawn.map((d): CliRun => {
    const stack = held[d.stack]!;
    const first = !started.has(d.stack);
    started.add(d.stack);
    const edits = first ? d.start : d.changes;
    for (const e of edits)
      if (e.op !== "add" || stack.program.length < MAX_PROGRAM_VPSS) edit(real, stack, e);
    return { stack: d.stack, edits, program: stack.program.map((spec) => ({ ...spec })), budget: d.budget };
  });
  return { stacks, runs };
}

export const cliCaseArb: fc.Arbitrary<CliCase> = fc
  .integer({ min: 1, max: 2 })
  .chain((stacks) =>
    fc.array(drawnArb(stacks), { minLength: 2, maxLength: 3 }).map((drawn) => programsOf(stacks, drawn)),
  );

/** RimuHosting's fee of a VPS, in cents: the emulator's price (where a budget's boundary is). */
export const feeCents = (spec: Pick<Spec, "memoryMb" | "diskSpaceMb" | "dcLocation">): number =>
  Math.round(
    vpsMonthlyFeeUsd(
      { memoryMb: spec.memoryMb, diskMb: spec.diskSpaceMb },
      findDataCenter(spec.dcLocation)!,
    ) * 100,
  );

/**
 * The budget's settings for `choice` (as commands.ts's settingsFor): the monthly budget at the account's total once
 * the run's program is applied, the increase limit at what the run adds (a replacement counted once, in place of
 * the order it replaces), each moved by the choice's offset. `held`: the order each VPS of the stack's state holds.
 */
export function boundarySettings(
  choice: BudgetChoice,
  live: readonly OrderSeen[],
  held: ReadonlyMap<string, number>,
  program: readonly Spec[],
): Settings {
  if (choice.limit === "none") return {};
  const liveCents = (oid: number | undefined) => live.find((o) => o.oid === oid)?.cents ?? 0;
  let after = live.reduce((sum, o) => sum + o.cents, 0);
  let adds = 0;
  for (const spec of program) {
    const change = feeCents(spec) - liveCents(held.get(spec.name));
    after += change;
    adds += Math.max(0, change);
  }
  const named = new Set(program.map((spec) => spec.name));
  for (const [name, oid] of held) if (!named.has(name)) after -= liveCents(oid);
  const usd = (c: number) => (Math.max(0, c + choice.offsetCents) / 100).toFixed(2);
  return {
    ...(choice.limit === "monthly" || choice.limit === "both" ? { monthlyBudgetUsd: usd(after) } : {}),
    ...(choice.limit === "increase" || choice.limit === "both" ? { maxMonthlyIncreaseUsd: usd(adds) } : {}),
  };
}

const specWords = (s: Spec): string =>
  `${s.name} ${s.memoryMb}MB/${s.diskSpaceMb / 1024}GB ${s.dcLocation}` +
  `${s.deleteBeforeReplace ? " dbr" : ""}${s.reverseDns ? ` ptr ${s.reverseDns}` : ""}`;

const budgetWords = (b: BudgetChoice): string =>
  b.limit === "none"
    ? "no limit"
    : `${b.limit} at the boundary ${b.offsetCents >= 0 ? "+" : ""}${b.offsetCents}¢`;

/** A run in words, for the failure message: the stack, its changes, its program and its budget. */
export const runWords = (run: CliRun, index: number): string =>
  `run ${index + 1} on s${run.stack}: ${run.edits.map(editWords).join(", ")}; ${budgetWords(run.budget)}\n` +
  `  program: ${run.program.map(specWords).join(" | ") || "(no VPS)"}`;

export const caseWords = (c: CliCase): string =>
  `${c.stacks} stack${c.stacks > 1 ? "s" : ""}, ${c.runs.length} runs:\n${c.runs.map(runWords).join("\n")}`;
