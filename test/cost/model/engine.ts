/**
 * A small engine for the model test: runs a stack's program against the provider in-process (impl's check, diff,
 * create, update, delete, as the dynamic provider's host calls them) the way the Pulumi engine does.
 *
 * - The preview is a provider process of its own (a run), checking each VPS with the preview flag and diffing it;
 *   a replacement is checked a second time with no old inputs, as the engine checks the new resource.
 * - The update of `up` is another process of the same command: each VPS checked again (no flag), diffed, then the
 *   steps: creates, updates and replacements' creates all at once (the engine's parallelism), a
 *   `deleteBeforeReplace` replacement as delete then create, and once every one of them succeeded the deletes (of
 *   removed VPSs and of replaced orders). A failed step stops the deletes; a replaced order whose delete did not
 *   run stays in the state as a pending delete, deleted first by the next `up`.
 * - Each explicit provider is a process of its own, so a run of its own (of the same command).
 * - Every provider call first passes `gate`: the test's scheduler orders the calls of concurrent runs there, and a
 *   kill stops the run there (the calls after it are never made, and what completes after it is not recorded).
 *   Inside a call, each request to the emulator waits for its turn too (turns.ts).
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import type { VpsChanges } from "../../../provider/impl/inputs/vps-changes";

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
  constructor(readonly name: string) {}

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

export const inputsOf = (stack: Stack, spec: Spec, preview: boolean): VpsInputs => ({
  domainName: `${spec.name}.${stack.name}.model.example.com`,
  distro: "deb12.64",
  dcLocation: spec.dcLocation,
  memoryMb: spec.memoryMb,
  diskSpaceMb: spec.diskSpaceMb,
  ...(spec.reverseDns === undefined ? {} : { reverseDns: `${spec.reverseDns}.model.example.com` }),
  ...(spec.adopt === undefined ? {} : { adoptOrderOid: spec.adopt }),
  creationScope: `model/${stack.name}/${spec.name}`,
  __provider: "text",
  ...(preview ? { __preview: true } : {}),
});

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

/** The runs of one provider process each (index: Spec.provider). */
export type Runs = readonly [testing.RunContext, testing.RunContext];

/** Checks and diffs every VPS of the program, as the engine does in a preview and again in the update. */
export async function plan(stack: Stack, runs: Runs, gate: Gate, preview: boolean): Promise<Plan> {
  const planned: Planned[] = [];
  const failures: string[] = [];
  for (const spec of stack.program) {
    const run = runs[spec.provider];
    const held = stack.state.get(spec.name);
    const news = inputsOf(stack, spec, preview);
    await gate(`check ${spec.name}`);
    const checked = await testing.serving(run, () => impl.check(held?.inputs ?? {}, news));
    if (checked.failures) {
      failures.push(...checked.failures.map((f) => `${spec.name}: ${f.reason}`));
      const kind = held ? "update" : "create";
      planned.push({ spec, kind, ...(held ? { held } : {}), checked: checked.inputs, failed: true });
      continue;
    }
    if (!held) {
      planned.push({ spec, kind: "create", checked: checked.inputs });
      continue;
    }
    await gate(`diff ${spec.name}`);
    const diff = await testing.serving(run, () => impl.diffVps(held.id, held.outs as never, checked.inputs));
    if (!diff.changes) planned.push({ spec, kind: "same", held, checked: checked.inputs });
    else if (diff.replaces.length === 0)
      planned.push({ spec, kind: "update", held, checked: checked.inputs, changes: diff.planned });
    else {
      await gate(`check ${spec.name} (its replacement)`);
      const again = await testing.serving(run, () => impl.check({}, news));
      if (again.failures) {
        failures.push(...again.failures.map((f) => `${spec.name}: ${f.reason}`));
        continue;
      }
      planned.push({ spec, kind: "replace", held, checked: checked.inputs, replacement: again.inputs });
    }
  }
  const named = new Set(stack.program.map((spec) => spec.name));
  const deletes = [...stack.state.values()].filter((held) => !named.has(held.spec.name));
  return { planned, deletes, failures };
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
      const made = await testing.serving(runs[spec.provider], () => impl.create(inputs));
      record(spec, inputs, made.id, made.outs as Record<string, unknown>);
      replaced();
      return true;
    } catch (error) {
      const incomplete = failed(spec.name, error);
      if (!incomplete) return false;
      record(spec, inputs, incomplete.id, incomplete.properties);
      replaced();
      return "recorded";
    }
  };
  const remove = async (held: Held): Promise<boolean> => {
    await gate(`delete ${held.spec.name}`);
    try {
      await testing.serving(runs[held.spec.provider], () => impl.delete(held.id, held.outs as never));
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
  // Pending deletes of an earlier run first.
  for (const old of [...stack.pendingDeletes]) if (!(await remove(old))) return done(false);
  const replaced: Held[] = [];
  const results = await settled(
    steps.planned.map(async (step): Promise<boolean> => {
      const { spec, held } = step;
      if (step.kind === "same") {
        if (alive()) stack.state.set(spec.name, { ...held!, inputs: step.checked, spec });
        return true;
      }
      if (step.kind === "create") return (await create(spec, step.checked)) === true;
      if (step.kind === "update") {
        await gate(`update ${spec.name}`);
        try {
          const changed = await testing.serving(runs[spec.provider], () =>
            impl.update(held!.id, held!.outs as never, step.checked),
          );
          record(spec, step.checked, held!.id, changed.outs as Record<string, unknown>);
          updated.push({ name: spec.name, oid: oidOf(held!), changes: step.changes });
          return true;
        } catch (error) {
          const incomplete = failed(spec.name, error);
          if (incomplete) record(spec, step.checked, held!.id, incomplete.properties);
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
    }),
  );
  if (results.includes(false)) return done(false);
  const deleted = await settled([...steps.deletes, ...replaced].map((held) => remove(held)));
  return done(!deleted.includes(false));

  function done(completed: boolean): Applied {
    return { completed, errors, updated, guardRefused };
  }
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
    const read = await testing.serving(runs[held.spec.provider], () =>
      impl.read(held.id, held.outs as never),
    );
    if (!read.id) stack.state.delete(held.spec.name);
    else
      stack.state.set(held.spec.name, {
        ...held,
        id: read.id,
        outs: read.props as Record<string, unknown>,
        inputs: read.inputs ? { ...read.inputs, __provider: held.inputs.__provider } : held.inputs,
      });
  }
}
