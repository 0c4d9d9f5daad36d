/**
 * A small engine for the model test: runs a stack's program against the provider in-process, through one of its
 * two front ends (front-ends.ts: the dynamic provider's host, or the native plugin's resource functions), the way the
 * Pulumi engine does.
 *
 * - The preview is a provider process of its own (a run), checking each VPS with the preview flag and diffing it;
 *   a replacement is checked a second time with no old inputs, as the engine checks the new resource.
 *   On the native plugin, each create and update then has its preview step (Create or Update with `preview` set),
 *   which refuses with a budget verdict the check left to it.
 * - The update of `up` is another process of the same command: each VPS checked again (no flag), diffed, then the
 *   steps: creates, updates and replacements' creates all at once (the engine's parallelism), a
 *   `deleteBeforeReplace` replacement as delete then create, and once every one of them succeeded the deletes (of
 *   removed VPSs and of replaced orders). A failed step stops the deletes; a replaced order whose delete did not
 *   run stays in the state as a pending delete, deleted first by the next `up`. Either all checks first (`apply`), or
 *   as the engine gets the registrations (`applyAsRegistered`): in a given order, which can differ from the
 *   preview's, each VPS's step started just after its check and diff, while the next ones are checked.
 * - Each explicit provider is a process of its own, so a run of its own (of the same command).
 * - Every provider call first passes `gate`: the test's scheduler orders the calls of concurrent runs there, and a
 *   kill stops the run there (the calls after it are never made, and what completes after it is not recorded).
 *   Inside a call, each request to the emulator waits for its turn too (turns.ts).
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import type { VpsChanges } from "../../../provider/impl/inputs/vps-changes";
import { FRONT_ENDS, type FrontEnd, type FrontEndName } from "./front-ends";
import { asCall } from "./callers";

/** One VPS of a generated program. */
export interface Spec {
  name: string;
  dcLocation: "DCDALLAS" | "DCLONDON" | "DCFRANKFURT" | "DCNY";
  memoryMb: number;
  diskSpaceMb: number;
  /** An input that changes nothing billed (the PTR name's label). */
  reverseDns?: string;
  deleteBeforeReplace: boolean;
  /** Which provider manages it: 0 the default one, 1 an explicit one. */
  provider: 0 | 1;
  /** An order taken over (adoptOrderOid). */
  adopt?: number;
}

/** A resource as the stack's state holds it. */
export interface Held {
  id: string;
  outs: Record<string, unknown>;
  inputs: VpsInputs;
  spec: Spec;
}

/** The order a resource's state records: its id, or for a pending create the order it found since. */
export const oidOf = (held: Held): number =>
  typeof held.outs.orderOid === "number" ? held.outs.orderOid : Number(held.id);

export class Stack {
  /** The resources the state holds, by name. */
  readonly state = new Map<string, Held>();
  /** Replaced orders whose delete has not run: still in the state, deleted by the next `up` first. */
  pendingDeletes: Held[] = [];
  /** What the last runs printed (errors and what they name). */
  readonly said: string[] = [];
  program: Spec[] = [];
  readonly front: FrontEnd;
  constructor(
    readonly name: string,
    frontEnd: FrontEndName = "dynamic",
  ) {
    this.front = FRONT_ENDS[frontEnd];
  }

  /** The order numbers the state records. */
  orderOids(): Set<number> {
    return new Set([...this.state.values(), ...this.pendingDeletes].map(oidOf));
  }
}

export class Killed extends Error {
  constructor() {
    super("killed");
  }
}

/** Passed before every provider call: the scheduler's turn, and the kill. */
export type Gate = (label: string) => Promise<void>;

/** What diff() planned for one VPS, and the checks of its steps. */
export interface Planned {
  spec: Spec;
  kind: "create" | "same" | "update" | "replace";
  held?: Held;
  checked: VpsInputs;
  /** The replacement's inputs, checked with no old inputs. */
  replacement?: VpsInputs;
  /** diff()'s plan, input by input. */
  changes?: VpsChanges;
  /** Its check failed (the bill and the pack still judge its checked fees). */
  failed?: true;
}

/** One run's plan: each VPS of the program, the VPSs to delete, and each check's failure. */
export interface Plan {
  planned: Planned[];
  deletes: Held[];
  failures: string[];
}

/** Serves `call`, one provider call of `stack`'s run, in `run`: a call of its own (callers.ts). */
const serving = <T>(stack: Stack, run: testing.RunContext, call: () => T): T =>
  asCall(stack.name, () => testing.serving(run, call));

/** The runs of one provider process each (index: Spec.provider). */
export type Runs = readonly [testing.RunContext, testing.RunContext];

/** Checks and diffs every VPS of the program, as the engine does in a preview and again in the update. */
export async function plan(stack: Stack, runs: Runs, gate: Gate, preview: boolean): Promise<Plan> {
  const planned: Planned[] = [];
  const failures: string[] = [];
  for (const spec of stack.program) {
    const one = await planOne(stack, runs, gate, spec, preview);
    failures.push(...one.failures);
    if (one.planned) planned.push(one.planned);
  }
  return { planned, deletes: removed(stack), failures };
}

/** The VPSs the state holds that the program no longer has. */
const removed = (stack: Stack): Held[] => {
  const named = new Set(stack.program.map((spec) => spec.name));
  return [...stack.state.values()].filter((held) => !named.has(held.spec.name));
};

/** One VPS's check and diff (a replacement's second check), and in a preview its step. */
async function planOne(
  stack: Stack,
  runs: Runs,
  gate: Gate,
  spec: Spec,
  preview: boolean,
): Promise<{ planned?: Planned; failures: string[] }> {
  const run = runs[spec.provider];
  const front = stack.front;
  const held = stack.state.get(spec.name);
  const failing = (failures: readonly { reason: string }[]) =>
    failures.map((f) => `${spec.name}: ${f.reason}`);
  await gate(`check ${spec.name}`);
  const checked = await serving(stack, run, () => front.check(stack, spec, held?.inputs, preview));
  if (checked.failures) {
    const kind = held ? "update" : "create";
    const planned: Planned = { spec, kind, ...(held ? { held } : {}), checked: checked.inputs, failed: true };
    return { planned, failures: failing(checked.failures) };
  }
  let planned: Planned;
  if (!held) planned = { spec, kind: "create", checked: checked.inputs };
  else {
    await gate(`diff ${spec.name}`);
    const diff = await serving(stack, run, () => front.diff(stack, held, checked.inputs));
    if (!diff.changes) planned = { spec, kind: "same", held, checked: checked.inputs };
    else if (diff.replaces.length === 0)
      planned = { spec, kind: "update", held, checked: checked.inputs, changes: diff.planned };
    else {
      await gate(`check ${spec.name} (its replacement)`);
      const again = await serving(stack, run, () => front.check(stack, spec, undefined, preview));
      if (again.failures) return { failures: failing(again.failures) };
      planned = { spec, kind: "replace", held, checked: checked.inputs, replacement: again.inputs };
    }
  }
  const previewStep = front.previewStep;
  if (!preview || !previewStep || planned.kind === "same") return { planned, failures: [] };
  await gate(`${planned.kind} ${spec.name} (preview)`);
  try {
    await serving(stack, run, () =>
      planned.kind === "replace"
        ? previewStep(stack, spec, planned.replacement!)
        : previewStep(stack, spec, planned.checked, planned.held),
    );
    return { planned, failures: [] };
  } catch (error) {
    return { planned: { ...planned, failed: true }, failures: [`${spec.name}: ${message(error)}`] };
  }
}

/** What the update of one `up` did. */
export interface Applied {
  completed: boolean;
  errors: string[];
  /** The VPSs updated in place: what diff() planned, for I6. */
  updated: { name: string; oid: number; changes?: VpsChanges }[];
  /** A budget refusal came from the guard (RIMU_ERR_BUDGET in a create or update). */
  guardRefused: boolean;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The steps of `plan`, as the engine runs them; `alive()` is false once the run was killed. */
export async function apply(
  stack: Stack,
  runs: Runs,
  gate: Gate,
  steps: Plan,
  alive: () => boolean,
): Promise<Applied> {
  const stepper = stepperOf(stack, runs, gate, alive);
  if (!(await stepper.pendingDeletes())) return stepper.done(false);
  const results = await settled(steps.planned.map((step) => stepper.step(step)));
  if (results.includes(false)) return stepper.done(false);
  return stepper.done(await stepper.deletes(steps.deletes));
}

/**
 * The update as the engine gets the registrations: each VPS of the program checked and diffed in `order` (indexes
 * into the program), its step started at once while the next are checked; a failed check stops the registrations
 * (the steps under way finish, no delete runs).
 */
export async function applyAsRegistered(
  stack: Stack,
  runs: Runs,
  gate: Gate,
  order: readonly number[],
  alive: () => boolean,
): Promise<Applied & { failures: string[] }> {
  const stepper = stepperOf(stack, runs, gate, alive);
  const failures: string[] = [];
  if (!(await stepper.pendingDeletes())) return { ...stepper.done(false), failures };
  const deletes = removed(stack);
  const started: Promise<boolean>[] = [];
  try {
    for (const index of order) {
      const one = await planOne(stack, runs, gate, stack.program[index]!, false);
      failures.push(...one.failures);
      if (one.failures.length > 0) break;
      if (one.planned) started.push(stepper.step(one.planned));
    }
  } catch (error) {
    // A kill between registrations: the steps under way end at their next call.
    await Promise.allSettled(started);
    throw error;
  }
  const results = await settled(started);
  if (failures.length > 0 || results.includes(false)) return { ...stepper.done(false), failures };
  return { ...stepper.done(await stepper.deletes(deletes)), failures };
}

/** The steps of one update: each records what completed in the stack's state (while the run is alive). */
function stepperOf(stack: Stack, runs: Runs, gate: Gate, alive: () => boolean) {
  const front = stack.front;
  const errors: string[] = [];
  const updated: Applied["updated"] = [];
  let guardRefused = false;
  const failed = (name: string, error: unknown) => {
    if (error instanceof Killed) throw error;
    const text = `${name}: ${message(error)}`;
    errors.push(text);
    stack.said.push(text);
    if (/RIMU_ERR_BUDGET/.test(text)) guardRefused = true;
    // A create or update that changed something and did not finish: the engine records what it returned.
    if (error instanceof impl.VpsIncompleteError && alive()) return error;
    return undefined;
  };
  const record = (spec: Spec, inputs: VpsInputs, id: string, outs: Record<string, unknown>) => {
    if (alive()) stack.state.set(spec.name, { id, outs, inputs, spec });
  };
  /** A create: true when done; "recorded" when it failed with a partial resource the state records. */
  const create = async (spec: Spec, inputs: VpsInputs, replacing?: Held): Promise<boolean | "recorded"> => {
    await gate(`create ${spec.name}`);
    // A replaced order stays in the state, to be deleted, once its replacement is recorded.
    const replaced = () => replacing && alive() && stack.pendingDeletes.push(replacing);
    try {
      const made = await serving(stack, runs[spec.provider], () => front.create(stack, spec, inputs));
      record(spec, inputs, made.id, made.outs);
      replaced();
      return true;
    } catch (error) {
      const incomplete = failed(spec.name, error);
      if (!incomplete) return false;
      record(spec, inputs, incomplete.id, front.stateOfIncomplete(incomplete.properties));
      replaced();
      return "recorded";
    }
  };
  const remove = async (held: Held): Promise<boolean> => {
    await gate(`delete ${held.spec.name}`);
    try {
      await serving(stack, runs[held.spec.provider], () => front.delete(held));
      if (alive()) {
        if (stack.state.get(held.spec.name)?.id === held.id) stack.state.delete(held.spec.name);
        stack.pendingDeletes = stack.pendingDeletes.filter((old) => old.id !== held.id);
      }
      return true;
    } catch (error) {
      failed(held.spec.name, error);
      return false;
    }
  };
  const replaced: Held[] = [];
  const step = async (step: Planned): Promise<boolean> => {
    const { spec, held } = step;
    if (step.kind === "same") {
      if (alive()) stack.state.set(spec.name, { ...held!, inputs: step.checked, spec });
      return true;
    }
    if (step.kind === "create") return (await create(spec, step.checked)) === true;
    if (step.kind === "update") {
      await gate(`update ${spec.name}`);
      try {
        const changed = await serving(stack, runs[spec.provider], () =>
          front.update(stack, held!, step.checked),
        );
        record(spec, step.checked, held!.id, changed.outs);
        updated.push({ name: spec.name, oid: oidOf(held!), changes: step.changes });
        return true;
      } catch (error) {
        const incomplete = failed(spec.name, error);
        if (incomplete) record(spec, step.checked, held!.id, front.stateOfIncomplete(incomplete.properties));
        return false;
      }
    }
    // A replacement: deleteBeforeReplace deletes the old order first; otherwise it is deleted at the end.
    if (spec.deleteBeforeReplace) {
      if (!(await remove(held!))) return false;
      return (await create(spec, step.replacement!)) === true;
    }
    if ((await create(spec, step.replacement!, held)) !== true) return false;
    replaced.push(held!);
    return true;
  };
  return {
    step,
    /** Pending deletes of an earlier run first. */
    async pendingDeletes(): Promise<boolean> {
      for (const old of [...stack.pendingDeletes]) if (!(await remove(old))) return false;
      return true;
    },
    /** Once every step succeeded: the removed VPSs' deletes and the replaced orders'. */
    async deletes(removing: readonly Held[]): Promise<boolean> {
      return !(await settled([...removing, ...replaced].map((held) => remove(held)))).includes(false);
    },
    done: (completed: boolean): Applied => ({ completed, errors, updated, guardRefused }),
  };
}

/** Every step's outcome once all have ended (a kill ends the others at their next call, never mid-call). */
async function settled(steps: Promise<boolean>[]): Promise<boolean[]> {
  const outcomes = await Promise.allSettled(steps);
  const thrown = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (thrown) throw thrown.reason;
  return outcomes.map((o) => (o as PromiseFulfilledResult<boolean>).value);
}

/**
 * Reads every VPS of the state (`pulumi refresh`): a gone order leaves the state, the rest take what is live, their
 * inputs too when read returns them (both front ends' hosts record those for the next diff; the dynamic host keeps
 * the serialized provider beside them).
 */
export async function refresh(stack: Stack, runs: Runs, gate: Gate): Promise<void> {
  for (const held of [...stack.state.values()]) {
    await gate(`read ${held.spec.name}`);
    const read = await serving(stack, runs[held.spec.provider], () => stack.front.read(held));
    if (!read.id) stack.state.delete(held.spec.name);
    else
      stack.state.set(held.spec.name, {
        ...held,
        id: read.id,
        outs: read.outs ?? held.outs,
        inputs: read.inputs ?? held.inputs,
      });
  }
}
