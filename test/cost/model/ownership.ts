/**
 * I7 in the money model (docs/cost.md): no run cancels or takes back an order that any other stack's state holds or
 * that another live run placed. Two backends, each with a stack of the same project and stack name (`model`/`s0`,
 * every team's `dev`), the same resource names on both; each `up` runs two providers (web on the default one, api
 * on an explicit one), with or without checkpoints, maybe killed between two calls.
 *
 * The provider reads its stack's identity and the backend's states through the test hooks
 * (testing.setStackIdentityReader, setBackendReader), answered from the backend of the stack whose command runs: so
 * the take-back (check) and the sweep (a run that checked no VPS deletes) act here as through the CLI. A command's
 * runs are one stack's, one command at a time, so the hooks know the backend without being told the run.
 *
 * What the backend holds of a stack: with checkpoints, the state as each step leaves it and the creates under way
 * (pending operations; a killed run's stay); without, the state at the end of the last command that was not killed
 * (a killed run writes nothing: its state goes back to that).
 */
import { stackIdentityMark } from "../../../provider/impl/ownership/stack-identity";
import { DYNAMIC_VPS_TYPE } from "../../../provider/impl/fields/vps-type-tokens";
import type { BackendStates, StateResource } from "../../../provider/impl/ownership/backend-states";
import type { RunRecord, RunRecords } from "../../../provider/impl/ownership/run-records";
import type { TestEmulator } from "../../helpers/start-emulator";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { FRONT_ENDS, type FrontEnd } from "./front-ends";
import { apply, Killed, oidOf, plan, Stack, type Gate, type Held, type Spec } from "./engine";
import { newCommand } from "./runs";

/** A stack of one backend, named as every other backend's: what its backend holds, and what its engine did. */
export class OwnedStack extends Stack {
  override readonly front: FrontEnd;
  /** The state its backend holds (checkpoints off: as of the last command that was not killed). */
  stored: Held[] = [];
  /** Its resources and pending deletes as `stored` records them (what a killed run without checkpoints goes back to). */
  private written: { state: Held[]; pendingDeletes: Held[] } = { state: [], pendingDeletes: [] };
  /** Creates its engine began and never finished (a killed run's, with checkpoints on): their checked inputs. */
  pending: VpsInputs[] = [];
  /** Creates under way in this command (a checkpoint records each as a pending operation). */
  readonly creating = new Set<VpsInputs>();
  /** Every create this command began. */
  began: VpsInputs[] = [];
  /** The run records its providers wrote into its backend (run-records.ts), by run id. */
  readonly runRecords = new Map<string, RunRecord>();
  /** The runs whose command finished (its backend's history has an operation that spans each record). */
  readonly finishedRuns = new Set<string>();
  /** The runs that wrote a record in this command. */
  commandRuns: string[] = [];
  /** The orders its killed commands without checkpoints placed (a destroy must end each that no state holds). */
  readonly killedOrders = new Set<number>();
  /**
   * The orders its last command, killed with checkpoints, left in no state: each has its pending create (`pending`),
   * so its next command, if a destroy, must end each.
   */
  pendingOrders: number[] = [];
  /** The orders this command's engine asked to delete (what the state held). */
  readonly deleting = new Set<number>();

  /** Its stack tag: a copy of a backend carries the original's (the same identity). */
  tag: string;

  constructor(readonly backend: "A" | "B" | "C") {
    super("s0");
    this.tag = `tag-${backend}`;
    const base = FRONT_ENDS.dynamic;
    this.front = {
      ...base,
      create: async (stack, spec, checked) => {
        this.creating.add(checked);
        this.began.push(checked);
        try {
          return await base.create(stack, spec, checked);
        } finally {
          this.creating.delete(checked);
        }
      },
      delete: async (held) => {
        this.deleting.add(oidOf(held));
        await base.delete(held);
      },
    };
  }

  /** The state's resources as now (the engine's live record). */
  live(): Held[] {
    return [...this.state.values(), ...this.pendingDeletes];
  }

  /** The backend writes the state as it is now. */
  write(): void {
    this.written = { state: [...this.state.values()], pendingDeletes: [...this.pendingDeletes] };
    this.stored = this.live();
  }

  /**
   * This backend becomes a copy of `original`'s, as a CI cache or a backup restored holds it: its state as written,
   * its pending creates, its tag and its run records, the history included.
   */
  copyOf(original: OwnedStack): void {
    this.tag = original.tag;
    this.state.clear();
    for (const held of original.written.state) this.state.set(held.spec.name, held);
    this.pendingDeletes = [...original.written.pendingDeletes];
    this.pending = [...original.pending];
    this.runRecords.clear();
    for (const [id, record] of original.runRecords) this.runRecords.set(id, record);
    this.finishedRuns.clear();
    for (const id of original.finishedRuns) this.finishedRuns.add(id);
    // What proved this backend's killed runs' orders (their run records, its pending creates) is gone with the copy:
    // such an order is proven by nothing now, so a destroy names it and leaves it billed (docs/troubleshooting.md, "A
    // run was killed"), and I4 asks nothing of it (seed 171249274; B6).
    this.killedOrders.clear();
    this.pendingOrders = [];
    this.write();
  }

  /** `pulumi state delete` of `name` (or a retainOnDelete VPS its destroy drops): its order left the state. */
  dropFromState(name: string): Held | undefined {
    const held = this.state.get(name);
    if (held === undefined) return undefined;
    this.state.delete(name);
    this.write();
    return held;
  }

  /** The state goes back to the one last written (a killed run without checkpoints wrote nothing). */
  revert(): void {
    this.state.clear();
    for (const held of this.written.state) this.state.set(held.spec.name, held);
    this.pendingDeletes = [...this.written.pendingDeletes];
  }
}

/** The stacks of both backends, and how the command now under way writes its state. */
export interface OwnedWorld {
  stacks: OwnedStack[];
  now?: { stack: OwnedStack; checkpoints: boolean };
  /** How often the rules acted (so that a passing property is not a vacuous one). */
  acted: { refusedForeign: number; takenBack: number; sweptKilled: number };
  /** The orders that left a state on purpose (state delete, retainOnDelete): no sweep may cancel them. */
  dropped?: Set<number>;
  /** The orders A's and C's states both held when C became a copy of A's backend (the last `copy`). */
  sharedAtCopy?: Set<number>;
}

const asResource = (held: Held): StateResource => ({
  type: DYNAMIC_VPS_TYPE,
  id: held.id,
  inputs: held.inputs as Record<string, unknown>,
  outputs: held.outs,
});

/** What the backend of the command under way holds: each of its stacks' state and pending creates. */
export function statesOf(world: OwnedWorld): BackendStates {
  const now = world.now!;
  return {
    stacks: world.stacks
      .filter((s) => s.backend === now.stack.backend)
      .map((s) => {
        const checkpointed = s === now.stack && now.checkpoints;
        return {
          stack: s.name,
          resources: (checkpointed ? s.live() : s.stored).map(asResource),
          pending: (checkpointed ? [...s.pending, ...s.creating] : s.pending).map((inputs) => ({
            type: DYNAMIC_VPS_TYPE,
            inputs: inputs as Record<string, unknown>,
          })),
        };
      }),
  };
}

/** A clock of the model's run records: ten seconds between two, so that no finished operation spans two. */
let recordClock = 1_000_000_000_000;

/** The command's provider writes its run's record into its stack's backend (BackendReader.recordRun). */
export function recordRunOf(world: OwnedWorld, id: string): Promise<{ written: true }> {
  const now = world.now!;
  recordClock += 10_000;
  now.stack.runRecords.set(id, { at: recordClock, checkpoints: now.checkpoints });
  now.stack.commandRuns.push(id);
  return Promise.resolve({ written: true });
}

/** The run records of the command's stack, and the spans of its finished operations (BackendReader.runs). */
export function runRecordsOf(world: OwnedWorld): RunRecords {
  const stack = world.now!.stack;
  const finished = [...stack.finishedRuns].map((id) => {
    const at = stack.runRecords.get(id)!.at / 1000;
    return { start: at, end: at };
  });
  return { runs: new Map(stack.runRecords), finished };
}

/** The identity of the command's stack: its project, stack and its backend's own tag. */
export const identityOf = (world: OwnedWorld) => ({
  mark: stackIdentityMark({
    project: "model",
    stack: world.now!.stack.name,
    stackTag: world.now!.stack.tag,
  }),
});

/** Every order of the account, active or not, by number (the emulator's own record). */
const ordersNow = (emu: TestEmulator): Map<number, boolean> =>
  new Map(emu.snapshot().map((o) => [o.orderOid, o.active]));

/** One `up` of one stack: its program (web on the default provider, api on the explicit one), checkpoints, a kill. */
export interface OwnedUp {
  /** A's, B's, or C's (a copy of A's backend once a `copy` step made it). */
  stack: 0 | 1 | 2;
  web?: Spec["dcLocation"] | undefined;
  api?: Spec["dcLocation"] | undefined;
  checkpoints: boolean;
  killAt?: number | undefined;
}

export const ownedUpWords = (c: OwnedUp): string =>
  `up(${"ABC"[c.stack]}/s0: ${[c.web && `web ${c.web}`, c.api && `api ${c.api}`].filter(Boolean).join(", ") || "nothing"}` +
  `${c.checkpoints ? "" : "; PULUMI_SKIP_CHECKPOINTS"}${c.killAt === undefined ? "" : `; kill at call ${c.killAt}`})`;

const specOf = (name: "web" | "api", dcLocation: Spec["dcLocation"]): Spec => ({
  name,
  dcLocation,
  memoryMb: 512,
  diskSpaceMb: 10240,
  deleteBeforeReplace: false,
  provider: name === "web" ? 0 : 1,
});

/** A step of I7's cases besides an `up`: A's backend copied to C; a VPS removed from a stack's state on purpose. */
export type OwnedEvent = { copy: true } | { drop: 0 | 1 | 2; name: "web" | "api" };
export type OwnedStep = OwnedUp | OwnedEvent;

export const ownedStepWords = (c: OwnedStep): string =>
  "copy" in c
    ? "copy(A's backend to C, at the same URL)"
    : "drop" in c
      ? `state delete(${"ABC"[c.drop]}/s0: ${c.name})`
      : ownedUpWords(c);

/** Runs `step` and returns I7's violations (none for an event: it runs no provider). */
export async function runOwnedStep(emu: TestEmulator, world: OwnedWorld, step: OwnedStep): Promise<string[]> {
  if ("copy" in step) {
    world.stacks[2]!.copyOf(world.stacks[0]!);
    world.sharedAtCopy = new Set(world.stacks[2]!.live().map(oidOf));
    return [];
  }
  if ("drop" in step) {
    const held = world.stacks[step.drop]!.dropFromState(step.name);
    if (held !== undefined) (world.dropped ??= new Set()).add(oidOf(held));
    return [];
  }
  return runOwnedUp(emu, world, step);
}

/**
 * Runs `c` and returns I7's violations: an order cancelled that another stack's state holds, or that this command
 * placed, which its engine never asked to delete (another provider's sweep took it); an order two states hold.
 */
export async function runOwnedUp(emu: TestEmulator, world: OwnedWorld, c: OwnedUp): Promise<string[]> {
  // A command begins after the one before it ended, as a user's next `pulumi` command does: in a later millisecond
  // than the last order it placed (a sweep names, never cancels, an order dated at or after its run began).
  const ended = Date.now();
  while (Date.now() <= ended) await new Promise((later) => setImmediate(later));
  const stack = world.stacks[c.stack]!;
  stack.program = [...(c.web ? [specOf("web", c.web)] : []), ...(c.api ? [specOf("api", c.api)] : [])];
  const before = ordersNow(emu);
  stack.deleting.clear();
  stack.began = [];
  stack.commandRuns = [];
  world.now = { stack, checkpoints: c.checkpoints };
  stack.said.length = 0;
  const heldBefore = new Set(stack.live().map(oidOf));
  const pendingBefore = stack.pendingOrders;
  const killed = await update(stack, c.killAt);
  if (stack.said.some((said) => said.includes("RIMU_ERR_FOREIGN_ORDER"))) world.acted.refusedForeign++;
  world.now = undefined;
  // A killed run without checkpoints wrote nothing: its state is the last one written.
  if (killed && !c.checkpoints) stack.revert();
  // A create the killed engine never saw end stays pending in a checkpointed state, until the stack's next command.
  const nonceOf = (inputs: VpsInputs) => inputs.__creationNonce;
  const heldNonces = new Set(stack.live().map((h) => nonceOf(h.inputs)));
  stack.pending = killed && c.checkpoints ? stack.began.filter((i) => !heldNonces.has(nonceOf(i))) : [];
  if (!killed || c.checkpoints) stack.write();
  // A command that ended (not killed) is in its backend's history: its runs finished.
  if (!killed) for (const id of stack.commandRuns) stack.finishedRuns.add(id);
  const now = ordersNow(emu);
  // Without checkpoints (the run record is the proof): the model drops a checkpointed run's pending creates at the
  // stack's next command, which the engine keeps.
  if (killed && !c.checkpoints)
    for (const [oid, active] of now) if (active && !before.has(oid)) stack.killedOrders.add(oid);
  // With checkpoints, what the killed run ordered and no state holds has its pending create, until the next command.
  const heldNow = new Set(stack.live().map(oidOf));
  stack.pendingOrders =
    killed && c.checkpoints
      ? [...now]
          .filter(([oid, active]) => active && !before.has(oid) && !heldNow.has(oid))
          .map(([oid]) => oid)
      : [];
  const destroyed = !killed && stack.program.length === 0 && stack.deleting.size > 0;
  // A killed run's order in no state, taken back by this run's check: what the take-back is for.
  for (const oid of new Set(stack.live().map(oidOf)))
    if (before.get(oid) === true && !heldBefore.has(oid)) world.acted.takenBack++;
  return [
    ...violations(emu, world, stack, before),
    ...(destroyed ? leftByDestroy(world, stack, now, pendingBefore) : []),
  ];
}

/**
 * I4 after a destroy that started the provider (it deleted a VPS): every order a killed command of the stack placed
 * without checkpoints (its run record the proof), and every one the command just before it, killed with checkpoints,
 * left pending (its pending create the proof), is cancelled, held by a state (taken back), or left a state on purpose.
 */
function leftByDestroy(
  world: OwnedWorld,
  stack: OwnedStack,
  now: Map<number, boolean>,
  pendingBefore: readonly number[],
): string[] {
  const held = new Set(world.stacks.flatMap((s) => s.live().map(oidOf)));
  const proof = (oid: number) => (stack.killedOrders.has(oid) ? "its run record" : "its pending create");
  return [...new Set([...stack.killedOrders, ...pendingBefore])]
    .filter((oid) => now.get(oid) === true && !held.has(oid) && !world.dropped?.has(oid))
    .map(
      (oid) =>
        `I4: order ${oid}, placed by a killed run of ${stack.backend}/s0 (${proof(oid)}), is billed in no state ` +
        "after its destroy",
    );
}

/**
 * The update of `up` (its preview orders and cancels nothing: left out, to keep I7's cases cheap), killed at its
 * call number `killAt`: true when it was.
 */
async function update(stack: OwnedStack, killAt: number | undefined): Promise<boolean> {
  let calls = 0;
  let dead = false;
  const gate: Gate = () => {
    if (dead || (killAt !== undefined && calls++ >= killAt)) {
      dead = true;
      return Promise.reject(new Killed());
    }
    return Promise.resolve();
  };
  const runs = newCommand();
  try {
    const steps = await plan(stack, runs, gate, false);
    if (steps.failures.length > 0) {
      stack.said.push(...steps.failures);
      return false;
    }
    steps.planned = steps.planned.filter((step) => !step.failed);
    await apply(stack, runs, gate, steps, () => !dead);
    return false;
  } catch (error) {
    if (error instanceof Killed) return true;
    throw error;
  }
}

function violations(
  emu: TestEmulator,
  world: OwnedWorld,
  stack: OwnedStack,
  before: Map<number, boolean>,
): string[] {
  const after = ordersNow(emu);
  const found: string[] = [];
  const holders = new Map<number, OwnedStack[]>();
  for (const s of world.stacks)
    for (const oid of new Set(s.live().map(oidOf)))
      if (Number.isFinite(oid)) holders.set(oid, [...(holders.get(oid) ?? []), s]);
  for (const [oid, held] of holders) {
    // A backend and its copy hold the same orders until one of them changes: not two stacks' claim. An order one of
    // them placed after the copy is that one's alone: the other taking it (its identity is the copy's too) is one.
    if (new Set(held.map((s) => s.tag)).size > 1 || (held.length > 1 && !world.sharedAtCopy?.has(oid)))
      found.push(
        `I7: order ${oid} is held by the states of ${held.map((s) => `${s.backend}/s0`).join(" and ")}`,
      );
    const other = held.find((s) => s !== stack);
    // A backend's delete of a VPS its copy holds too (the same VPS, one tag) is the engine's, not a sweep's.
    const twins = other !== undefined && other.tag === stack.tag && stack.deleting.has(oid);
    if (other && !twins && before.get(oid) === true && after.get(oid) === false)
      found.push(
        `I7: ${stack.backend}/s0's run cancelled order ${oid}, which the state of ${other.backend}/s0 holds`,
      );
  }
  for (const oid of world.dropped ?? [])
    if (before.get(oid) === true && after.get(oid) === false && !stack.deleting.has(oid))
      found.push(`I7: order ${oid} left its state on purpose (state delete), and a sweep cancelled it`);
  for (const [oid, active] of after) {
    // A killed run's order, in no state, cancelled by a sweep: what the sweep is for.
    if (before.get(oid) === true && !active && !stack.deleting.has(oid) && !holders.has(oid))
      world.acted.sweptKilled++;
    if (!before.has(oid) && !active && !stack.deleting.has(oid))
      found.push(
        `I7: order ${oid}, placed by a run of this command, was cancelled though no engine asked to delete it`,
      );
  }
  return found;
}
