/**
 * A counterexample the money model found (test/cost/money-model.test.ts), replayed as a named case, and what the
 * cases are written with: an added VPS, no limit, the schedulers that let the runs' calls through in a given order,
 * and the runs two cases share. The cases: named-cases-64.ts (issue 64) and named-cases-81.ts (issue 81 and later).
 */
import fc from "fast-check";
import {
  nowPicking,
  quietAct,
  UpCommand,
  ConcurrentCommand,
  OutsideCommand,
  type BudgetChoice,
  type Edit,
  type Real,
} from "./commands";
import type { FrontEndName } from "./front-ends";

/** A counterexample, replayed as a named case. */
export interface NamedCase {
  title: string;
  stacks: number;
  commands: (UpCommand | ConcurrentCommand | OutsideCommand)[];
  /** The order in which the scheduler lets the runs' calls through (default: all at once, as the engine makes them). */
  scheduler?: () => fc.Scheduler;
  /** The front end it was found on (default: the dynamic provider's). */
  front?: FrontEndName;
  /** A counterexample not fixed yet: the case asserts that it still fails (it.failing), so its fix turns it red. */
  known?: true;
  /** RIMU_MODEL_WITH's events it needs. */
  with?: string[];
  /** What must hold once its commands ran, beyond I1–I6 (a promise no invariant states). */
  then?: (real: Real) => void;
  /** What the machine holds before its commands (a file another process left). */
  before?: () => void;
}

/** A scheduler that lets one call through at a time, in the order they are made (how the model found some cases). */
export const oneAtATime = () => fc.schedulerFor(Array.from({ length: 400 }, (_, i) => i + 1));

export const add = (dcLocation: "DCLONDON" | "DCFRANKFURT" | "DCDALLAS", more: Partial<Edit> = {}): Edit =>
  ({ op: "add", memoryMb: 512, diskSpaceMb: 10240, dcLocation, dbr: false, provider: 0, ...more }) as Edit;
export const NO_LIMIT: BudgetChoice = { limit: "none", offsetCents: 0 };

/**
 * L3's race: a 2 GB VPS, then a run shrinking it to 1 GB beside a new 1 GB VPS exactly on the budget, the update
 * registering the new VPS first.
 */
export const shrinkBesideNewL3 = () => [
  new UpCommand(0, [add("DCDALLAS", { memoryMb: 2048 })], NO_LIMIT),
  new UpCommand(
    0,
    [{ op: "resize", pick: 0, memoryMb: 1024 }, add("DCDALLAS", { memoryMb: 1024 })],
    { limit: "monthly", offsetCents: 0 },
    undefined,
    undefined,
    undefined,
    [1, 0],
  ),
];

/**
 * Seed 85004's second run: VPS #0 moved to Frankfurt beside a new VPS of the explicit provider, a cent under the
 * budget, the replaced order's cancellation answered once with a 503, VPS `grown` grown by hand during it, the
 * update registering in `order`.
 */
export const moveBesideNew85004 = (grown: number, order: readonly number[]) =>
  new UpCommand(
    0,
    [{ op: "move", pick: 0, dcLocation: "DCFRANKFURT", dbr: false }, add("DCDALLAS", { provider: 1 })],
    { limit: "monthly", offsetCents: 1 },
    { route: "deleteVps", kind: "503" },
    { kind: "resize", pick: grown },
    undefined,
    order,
  );

/**
 * The order in which a counterexample's scheduler let the tasks through (its report's task numbers), with the picks
 * made as the generated scheduler makes them, once the runs are quiet (model/turns.ts), so the tasks are numbered
 * alike.
 */
export const inTurn = (tasks: number[]) => () => {
  const scheduler = fc.schedulerFor(tasks, { act: quietAct });
  nowPicking(scheduler);
  return scheduler;
};

/** Each counterexample the model found (issues 64 and 81), replayed as a named case. */
