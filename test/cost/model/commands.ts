/**
 * The model test's commands (fast-check's fc.commands): a run of `pulumi up` of one stack with changes to its
 * program, several stacks' `up`s at once, a change made outside Pulumi, a refresh. Each checks the invariants
 * (../invariants.ts) on what it saw, and throws the first violation, named.
 */
import fc from "fast-check";
import * as impl from "../../../provider/impl/index";
import type { RimuClient } from "../../../provider/client/index";
import type { TestEmulator } from "../../helpers/start-emulator";
import { stackConfig } from "../../provider/support/impl-fixture";
import { I1, I2, I3, I4, I5, I6, type OrderSeen } from "../invariants";
import type { Settings } from "../judges";
import { oidOf, refresh, Stack, type Spec } from "./engine";
import { newCommand, ordersOf, up, type UpDone } from "./runs";
import { edit, editArb, editWords, moveAndAddArb, type Edit } from "./edits";
import {
  byHandOrder,
  duringWords,
  outsideArb,
  outsideChange,
  addedSince,
  sizesOf,
  type OutsideChoice,
} from "./outside";
import { drive, gateOf } from "./turns";
import { grownJudgedBeforeOthers, type Landing } from "./landings";
export type { Edit } from "./edits";
export type { OutsideChoice } from "./outside";
export { answerTurnOf, nowPicking, quietAct, replayableScheduler, turnOf } from "./turns";

/** The world the commands run in: the emulator, the stacks, what was done outside Pulumi. */
export interface Real {
  emu: TestEmulator;
  byHand: RimuClient;
  scheduler: fc.Scheduler;
  stacks: Stack[];
  /** Orders placed outside every stack (by hand, another account user's): in no state, and free to adopt. */
  outside: Set<number>;
  /** Orders of a stack grown by hand (I6: left as they are; never an order to adopt). */
  grownByHand: Set<number>;
  /** Each order placed or grown outside Pulumi, in turn, with what it added to the account then (I3). */
  byHandLog: { oid: number; cents: number }[];
  /** The stacks' orders, growing changes and listings, in the order they landed (landings.ts, for I3). */
  landings: Landing[];
  /** Stacks with an order cancelled outside Pulumi: the user runs `pulumi refresh`, as the preview says. */
  stale: Set<Stack>;
  /** Generated events some invariants are not kept for yet (RIMU_MODEL_WITH): "kill", "drift". */
  with: ReadonlySet<string>;
  /** A command's runs are under way (drive): each request the emulator serves waits for the scheduler's turn. */
  driving?: boolean;
  /** An order by hand to place just before the update's order number `left` (counting down) is served. */
  beforeOrder?: { left: number; place: () => Promise<void> };
}
/** The model: nothing beyond the real world is needed to choose commands. */
export type Model = Record<string, never>;
type Command = fc.AsyncCommand<Model, Real>;

const FACTOR: Record<Spec["dcLocation"], number> = {
  DCDALLAS: 1,
  DCLONDON: 1.1,
  DCFRANKFURT: 1.1,
  DCNY: 1.05,
};
/** The emulator's price of a VPS (emulator/catalog/pricing.ts), in cents: where a budget's boundary is. */
const feeCents = (s: Pick<Spec, "memoryMb" | "diskSpaceMb" | "dcLocation">): number =>
  Math.round((2 + (s.memoryMb / 1024) * 6 + (s.diskSpaceMb / 1024) * 0.1) * FACTOR[s.dcLocation] * 100);

/** A budget relative to what the run's program would end at: at it, a cent either side, or far above. */
export interface BudgetChoice {
  limit: "none" | "monthly" | "increase" | "both";
  offsetCents: -1 | 0 | 1 | 5000;
}
/** Weighted to the boundary: a limit set, exactly at the run's figure or a cent either side. */
export const budgetArb: fc.Arbitrary<BudgetChoice> = fc.record({
  limit: fc.oneof(
    { arbitrary: fc.constant("none" as const), weight: 1 },
    { arbitrary: fc.constantFrom("monthly" as const, "increase" as const, "both" as const), weight: 5 },
  ),
  offsetCents: fc.oneof(
    { arbitrary: fc.constant(0 as const), weight: 3 },
    { arbitrary: fc.constantFrom(-1 as const, 1 as const), weight: 2 },
    { arbitrary: fc.constant(5000 as const), weight: 1 },
  ),
});
const budgetWords = (b: BudgetChoice): string =>
  b.limit === "none" ? "no limit" : `${b.limit} ${b.offsetCents >= 0 ? "+" : ""}${b.offsetCents / 100}`;

/** The settings for `choice`: the boundary is the account after the stacks' programs, and what they add. */
function settingsFor(real: Real, stacks: readonly Stack[], choice: BudgetChoice): Settings {
  if (choice.limit === "none") return {};
  const live = ordersOf(real.emu);
  const liveCents = (oid: number) => live.find((o) => o.oid === oid)?.cents;
  let after = live.reduce((sum, o) => sum + o.cents, 0);
  let adds = 0;
  for (const stack of stacks) {
    const named = new Set(stack.program.map((p) => p.name));
    for (const spec of stack.program) {
      const held = stack.state.get(spec.name);
      const now =
        (held && liveCents(oidOf(held))) ?? (spec.adopt === undefined ? 0 : (liveCents(spec.adopt) ?? 0));
      const fee = feeCents(spec);
      after += fee - now;
      adds += Math.max(0, fee - now);
    }
    for (const [name, held] of stack.state) if (!named.has(name)) after -= liveCents(oidOf(held)) ?? 0;
  }
  const usd = (c: number) => (Math.max(0, c + choice.offsetCents) / 100).toFixed(2);
  return {
    ...(choice.limit === "monthly" || choice.limit === "both" ? { monthlyBudgetUsd: usd(after) } : {}),
    ...(choice.limit === "increase" || choice.limit === "both" ? { maxMonthlyIncreaseUsd: usd(adds) } : {}),
  };
}

/** Every provider process of a command reads these settings (the stack config; an explicit provider's, alike). */
export async function configure(real: Real, settings: Settings): Promise<void> {
  const base = stackConfig(real.emu.baseUrl);
  await impl.configure({
    config: { get: (key) => settings[key.replace("rimuhosting:", "") as keyof Settings] ?? base.get(key) },
  });
}

/** A fault on one call of the update (the emulator's fault injection): a 429, a 5xx, a timeout, a lost answer. */
export interface FaultChoice {
  route: "createVps" | "listOrders" | "getOrder" | "changeParameters" | "deleteVps" | "quoteNewVm";
  kind: "429" | "503" | "drop" | "drop-after-commit";
}
export const faultArb: fc.Arbitrary<FaultChoice> = fc.record({
  route: fc.constantFrom(
    "createVps" as const,
    "listOrders" as const,
    "getOrder" as const,
    "changeParameters" as const,
    "deleteVps" as const,
    "quoteNewVm" as const,
  ),
  kind: fc.constantFrom("429" as const, "503" as const, "drop" as const, "drop-after-commit" as const),
});

function arm(real: Real, fault: FaultChoice): void {
  const spec =
    fault.kind === "429" || fault.kind === "503"
      ? { route: fault.route, kind: "status" as const, status: Number(fault.kind), retryAfterSeconds: 0 }
      : { route: fault.route, kind: fault.kind };
  real.emu.injectFault(spec as never);
}

/** Throws the first invariant a check found broken. */
function expectKept(...violations: (string | undefined)[]): void {
  const broken = violations.filter((v): v is string => v !== undefined);
  if (broken.length > 0) throw new Error(broken.join("\n"));
}

/** I4 over the whole account, and the live sizes of the orders (for I6). */
function owned(real: Real): string | undefined {
  return I4({
    orders: ordersOf(real.emu),
    states: new Map(real.stacks.map((s) => [s.name, s.orderOids()])),
    outside: real.outside,
    said: real.stacks.flatMap((s) => s.said),
    held: new Map(
      real.stacks
        .filter((s) => !real.stale.has(s))
        // A pending create (an order not found yet) records no order number.
        .map((s) => [s.name, new Set([...s.state.values()].map(oidOf).filter(Number.isFinite))]),
    ),
  });
}

/** After a run was killed: one `up` of its stack, alone, as I3 and I4 ask. */
async function afterKill(real: Real, stack: Stack, settings: Settings): Promise<UpDone> {
  return drive(real, up(real.emu, stack, { settings, gate: gateOf(real), alone: false }));
}

/** The stacks an outside cancellation left stale, refreshed first (as the preview tells the user). */
async function refreshed(real: Real, stacks: readonly Stack[]): Promise<void> {
  for (const stack of stacks.filter((s) => real.stale.has(s))) {
    await configure(real, {});
    await drive(real, refresh(stack, newCommand(), gateOf(real)));
    real.stale.delete(stack);
  }
}

/** The checks of one `up` that ran: I1, I2, I5, I6 (I3 and I4 once everything settled). */
function upKept(
  real: Real,
  done: UpDone,
  sizesBefore: Map<number, Record<string, unknown>>,
): (string | undefined)[] {
  return [
    I1(done),
    I2(done.preview, done.ordersAfter),
    I5(done, done.applied?.guardRefused ?? false),
    ...(done.applied?.updated ?? []).map((u) =>
      I6({
        name: u.name,
        planned: [...(u.changes?.parameters ?? []), ...(u.changes?.replaces ?? [])],
        before: sizesBefore.get(u.oid) ?? {},
        after: sizesOf(real, u.oid),
      }),
    ),
  ];
}

/** `pulumi up` of one stack after changes to its program, with a budget at its boundary, a fault, a kill. */
export class UpCommand implements Command {
  constructor(
    readonly stack: number,
    readonly edits: readonly Edit[],
    readonly budget: BudgetChoice,
    readonly fault?: FaultChoice,
    readonly outside?: OutsideChoice,
    readonly killAt?: number,
    /** The update's registration order (runs.ts's UpOptions.order): undefined, every check before the steps. */
    readonly order?: readonly number[],
  ) {}
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    const byHandMark = real.byHandLog.length;
    const stack = real.stacks[this.stack % real.stacks.length]!;
    await refreshed(real, [stack]);
    for (const e of this.edits) edit(real, stack, e);
    const settings = settingsFor(real, [stack], this.budget);
    await configure(real, settings);
    const before: OrderSeen[] = ordersOf(real.emu);
    const sizesBefore = new Map([...stack.state.values()].map((h) => [oidOf(h), sizesOf(real, oidOf(h))]));
    const killAt = real.with.has("kill") ? this.killAt : undefined;
    const outside = this.outside;
    const done = await drive(
      real,
      up(real.emu, stack, {
        settings,
        gate: gateOf(real),
        killAt,
        alone: !this.fault && !outside && killAt === undefined,
        ...(this.order ? { order: this.order } : {}),
        beforeUpdate: async () => {
          // An order by hand (another account user's) lands inside the update, just before one of its orders
          // (case 4); the other changes come just before the update.
          if (outside?.kind === "order")
            real.beforeOrder = { left: outside.beforeOrder ?? 0, place: () => byHandOrder(real, outside) };
          else if (outside) await outsideChange(real, outside);
          if (this.fault) arm(real, this.fault);
          for (const h of stack.state.values()) sizesBefore.set(oidOf(h), sizesOf(real, oidOf(h)));
        },
      }),
    );
    real.emu.app.emulator.faults.clear();
    // An update that ordered less: the order by hand lands after it.
    const late = real.beforeOrder;
    real.beforeOrder = undefined;
    if (late) await late.place();
    // A run that was killed, or failed, settles with one more `up` of its stack (the replaced orders it kept billed,
    // named in its output, are cancelled there).
    const settled =
      done.killed || (done.preview.passed && !done.completed) ? await afterKill(real, stack, settings) : done;
    const budgetCents =
      settings.monthlyBudgetUsd === undefined
        ? undefined
        : Math.round(Number(settings.monthlyBudgetUsd) * 100);
    expectKept(
      ...upKept(real, done, sizesBefore),
      I3({
        budgetCents,
        ordersBefore: before,
        ordersAfter: settled.ordersAfter,
        addedByHandCents: addedSince(real, byHandMark),
      }),
      owned(real),
    );
  }
  toString(): string {
    return (
      `up(s${this.stack}: ${this.edits.map(editWords).join(", ") || "no change"}; ${budgetWords(this.budget)}` +
      `${this.fault ? `; fault ${this.fault.kind} on ${this.fault.route}` : ""}` +
      `${this.outside ? `; during it, ${duringWords(this.outside)}` : ""}` +
      `${this.killAt !== undefined ? `; kill at call ${this.killAt}` : ""}` +
      `${this.order ? `; update registers by [${this.order.join(",")}]` : ""})`
    );
  }
}

/**
 * Every stack's `up` at once, on one account budget: their calls interleaved by the scheduler. `room`: the budget
 * is at the boundary of the first `room` stacks' programs only (undefined: all), so the others' orders must be
 * refused or withdrawn (docs/cost.md, "Several runs at once").
 */
export class ConcurrentCommand implements Command {
  constructor(
    readonly edits: readonly (readonly Edit[])[],
    readonly budget: BudgetChoice,
    readonly room?: number,
  ) {}
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    const byHandMark = real.byHandLog.length;
    const landingsMark = real.landings.length;
    const stacks = real.stacks.slice(0, Math.max(2, this.edits.length));
    await refreshed(real, stacks);
    stacks.forEach((stack, i) => (this.edits[i] ?? []).forEach((e) => edit(real, stack, e)));
    const settings = settingsFor(real, stacks.slice(0, this.room ?? stacks.length), this.budget);
    await configure(real, settings);
    const before = ordersOf(real.emu);
    const runs = stacks.map((stack) => up(real.emu, stack, { settings, gate: gateOf(real), alone: false }));
    const done = await drive(real, Promise.all(runs));
    const after = ordersOf(real.emu);
    const budgetCents =
      settings.monthlyBudgetUsd === undefined
        ? undefined
        : Math.round(Number(settings.monthlyBudgetUsd) * 100);
    expectKept(
      ...done.flatMap((d) => [
        I2(d.preview, d.ordersAfter, (o) => o.domain.endsWith(`.${d.stack}.model.example.com`)),
        I5(d, false),
      ]),
      I3({
        budgetCents,
        ordersBefore: before,
        ordersAfter: after,
        addedByHandCents: addedSince(real, byHandMark),
        judgedBeforeOthersCents: grownJudgedBeforeOthers(real.landings, landingsMark, after),
      }),
      owned(real),
    );
  }
  toString(): string {
    const room =
      this.room === undefined ? "" : ` of s0${this.room > 1 ? `–s${this.room - 1}` : ""}'s programs`;
    return `together(${this.edits.map((e, i) => `s${i}: ${e.map(editWords).join(", ") || "no change"}`).join(" | ")}; ${budgetWords(this.budget)}${room})`;
  }
}

/** A change made outside Pulumi between runs. */
export class OutsideCommand implements Command {
  constructor(readonly change: OutsideChoice) {}
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    await outsideChange(real, this.change);
  }
  toString(): string {
    return `outside(${this.change.kind} #${this.change.pick})`;
  }
}

/** `pulumi refresh` of one stack. */
export class RefreshCommand implements Command {
  constructor(readonly stack: number) {}
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    const stack = real.stacks[this.stack % real.stacks.length]!;
    await configure(real, {});
    await drive(real, refresh(stack, newCommand(), gateOf(real)));
    expectKept(owned(real));
  }
  toString(): string {
    return `refresh(s${this.stack})`;
  }
}

/** The commands of a case on `stacks` stacks; `kills`: a kill between two calls of an update (RIMU_MODEL_WITH). */
export const commandArbs = (stacks: number, kills = false): fc.Arbitrary<Command>[] => [
  upArb(stacks, kills),
  upArb(stacks, kills),
  upArb(stacks, kills),
  // Several stacks at once, as often as one alone: each order judged on a listing without the others' (case 4).
  ...(stacks > 1 ? [concurrentArb(stacks), concurrentArb(stacks)] : []),
  outsideArb.map((o) => new OutsideCommand(o)),
  fc.nat(stacks - 1).map((s) => new RefreshCommand(s)),
];

const concurrentArb = (stacks: number): fc.Arbitrary<Command> =>
  fc
    .tuple(
      fc.array(fc.array(editArb, { maxLength: 2 }), { minLength: 2, maxLength: stacks }),
      budgetArb,
      // Room for all the programs, or for the first stack's only (the others' orders refused or withdrawn).
      fc.option(fc.integer({ min: 1, max: stacks - 1 }), { freq: 2, nil: undefined }),
    )
    .map(([e, b, room]) => new ConcurrentCommand(e, b, room));

/** `arb` in one case of `1 + alone`: most runs are alone, where I1 and I5 promise most (a fault voids them). */
const sometimes = <T>(arb: fc.Arbitrary<T>, alone: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: alone }, { arbitrary: arb, weight: 1 });

const upArb = (stacks: number, kills: boolean): fc.Arbitrary<Command> =>
  fc
    .tuple(
      fc.nat(stacks - 1),
      fc.oneof(
        { arbitrary: fc.array(editArb, { minLength: 1, maxLength: 3 }), weight: 3 },
        { arbitrary: moveAndAddArb, weight: 1 },
      ),
      budgetArb,
      sometimes(faultArb, 3),
      sometimes(outsideArb, 3),
      kills ? sometimes(fc.nat(12), 3) : fc.constant(undefined),
      // Half the updates get the registrations in an order of their own (a create checked before the shrink its
      // preview counted, L3), each step started after its check; the others check all before any step.
      sometimes(fc.array(fc.nat(9), { minLength: 6, maxLength: 6 }), 1),
    )
    .map(
      ([s, e, b, f, o, k, r]) =>
        new UpCommand(s, e, b, f ?? undefined, o ?? undefined, k ?? undefined, r ?? undefined),
    );
