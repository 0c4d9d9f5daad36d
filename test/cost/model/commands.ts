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
import { oidOf, refresh, Stack, type Gate, type Spec } from "./engine";
import { newCommand, ordersOf, up, type UpDone } from "./runs";
import { edit, editArb, editWords, uniqueName, type Edit } from "./edits";
export type { Edit } from "./edits";

/** The world the commands run in: the emulator, the stacks, what was done outside Pulumi. */
export interface Real {
  emu: TestEmulator;
  byHand: RimuClient;
  scheduler: fc.Scheduler;
  stacks: Stack[];
  /** Orders placed (or grown) outside every stack. */
  outside: Set<number>;
  /** Stacks with an order cancelled outside Pulumi: the user runs `pulumi refresh`, as the preview says. */
  stale: Set<Stack>;
  /** Generated events some invariants are not kept for yet (RIMU_MODEL_WITH): "kill", "drift". */
  with: ReadonlySet<string>;
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

/** A change made outside Pulumi: a resize, a cancellation, a stop, or an order by hand (another stack's). */
export interface OutsideChoice {
  kind: "resize" | "cancel" | "stop" | "order";
  pick: number;
}
export const outsideArb: fc.Arbitrary<OutsideChoice> = fc.record({
  // A resize by hand most often: an update beside it must leave it alone (I6).
  kind: fc.oneof(
    { arbitrary: fc.constant("resize" as const), weight: 3 },
    fc.constantFrom("cancel" as const, "stop" as const, "order" as const),
  ),
  pick: fc.nat(5),
});

async function outsideChange(real: Real, change: OutsideChoice): Promise<void> {
  const active = new Set(ordersOf(real.emu).map((o) => o.oid));
  const held = real.stacks.flatMap((s) => [...s.state.values()]).filter((h) => active.has(oidOf(h)));
  const target = held[change.pick % Math.max(held.length, 1)];
  const ref = () => ({ orderOid: oidOf(target!), domainName: String(target!.outs.domainName) });
  if (change.kind === "order" || !target) {
    const placed = await real.byHand.createVps({
      instantiation_options: {
        domain_name: `${uniqueName("by-hand")}.model.example.com`,
        distro: "deb12.64",
      },
      vps_parameters: { memory_mb: 1024, disk_space_mb: 10240 },
      dc_location: "DCDALLAS",
    });
    real.outside.add(placed.about_order.order_oid);
    return;
  }
  if (change.kind === "cancel") {
    await real.byHand.deleteVps(ref() as never);
    real.stale.add(real.stacks.find((s) => s.state.get(target.spec.name) === target)!);
  }
  if (change.kind === "stop") await real.byHand.setRunningState(ref() as never, "NOTRUNNING");
  if (change.kind === "resize" && real.with.has("drift")) {
    const live = Number(sizesOf(real, oidOf(target)).memoryMb);
    const memory = live === 1024 ? 2048 : 1024;
    await real.byHand.changeParameters(ref() as never, { memory_mb: memory });
    // Grown by hand (512 or 1024 MB to more): the account's growth is not the runs' (I3).
    if (memory > live) real.outside.add(oidOf(target));
  }
}

/**
 * The orders placed or grown outside Pulumi while a command ran, set aside by I3. One changed by hand before it is
 * the account the runs started from: a run that replaces or shrinks it lowers the account, and is judged so.
 */
const since = (real: Real, before: ReadonlySet<number>): Set<number> =>
  new Set([...real.outside].filter((oid) => !before.has(oid)));

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
  });
}

const sizesOf = (real: Real, oid: number): Record<string, unknown> => {
  const o = real.emu.app.emulator.ctx.store.state.orders.find((order) => order.orderOid === oid);
  return o ? { memoryMb: o.memoryMb, diskSpaceMb: o.diskMb, dcLocation: o.dc } : {};
};

/** The scheduler's gate: each provider call of every run waits for its turn there. */
const gateOf =
  (real: Real): Gate =>
  (label) =>
    real.scheduler.schedule(Promise.resolve(label), label).then(() => undefined);

/** After a run was killed: one `up` of its stack, alone, as I3 and I4 ask. */
async function afterKill(real: Real, stack: Stack, settings: Settings): Promise<UpDone> {
  return real.scheduler.waitFor(up(real.emu, stack, { settings, gate: gateOf(real), alone: false }));
}

/** The stacks an outside cancellation left stale, refreshed first (as the preview tells the user). */
async function refreshed(real: Real, stacks: readonly Stack[]): Promise<void> {
  for (const stack of stacks.filter((s) => real.stale.has(s))) {
    await configure(real, {});
    await real.scheduler.waitFor(refresh(stack, newCommand(), gateOf(real)));
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
  ) {}
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    const outsideBefore = new Set(real.outside);
    const stack = real.stacks[this.stack % real.stacks.length]!;
    await refreshed(real, [stack]);
    for (const e of this.edits) edit(real, stack, e);
    const settings = settingsFor(real, [stack], this.budget);
    await configure(real, settings);
    const before: OrderSeen[] = ordersOf(real.emu);
    const sizesBefore = new Map([...stack.state.values()].map((h) => [oidOf(h), sizesOf(real, oidOf(h))]));
    const killAt = real.with.has("kill") ? this.killAt : undefined;
    const done = await real.scheduler.waitFor(
      up(real.emu, stack, {
        settings,
        gate: gateOf(real),
        killAt,
        alone: !this.fault && !this.outside && killAt === undefined,
        beforeUpdate: async () => {
          if (this.outside) await outsideChange(real, this.outside);
          if (this.fault) arm(real, this.fault);
          for (const h of stack.state.values()) sizesBefore.set(oidOf(h), sizesOf(real, oidOf(h)));
        },
      }),
    );
    real.emu.app.emulator.faults.clear();
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
        outside: since(real, outsideBefore),
      }),
      owned(real),
    );
  }
  toString(): string {
    return (
      `up(s${this.stack}: ${this.edits.map(editWords).join(", ") || "no change"}; ${budgetWords(this.budget)}` +
      `${this.fault ? `; fault ${this.fault.kind} on ${this.fault.route}` : ""}` +
      `${this.outside ? `; during it, outside ${this.outside.kind} #${this.outside.pick}` : ""}` +
      `${this.killAt !== undefined ? `; kill at call ${this.killAt}` : ""})`
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
    const outsideBefore = new Set(real.outside);
    const stacks = real.stacks.slice(0, Math.max(2, this.edits.length));
    await refreshed(real, stacks);
    stacks.forEach((stack, i) => (this.edits[i] ?? []).forEach((e) => edit(real, stack, e)));
    const settings = settingsFor(real, stacks.slice(0, this.room ?? stacks.length), this.budget);
    await configure(real, settings);
    const before = ordersOf(real.emu);
    const runs = stacks.map((stack) => up(real.emu, stack, { settings, gate: gateOf(real), alone: false }));
    const done = await real.scheduler.waitFor(Promise.all(runs));
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
        ordersAfter: ordersOf(real.emu),
        outside: since(real, outsideBefore),
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
    await real.scheduler.waitFor(refresh(stack, newCommand(), gateOf(real)));
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
      fc.array(editArb, { minLength: 1, maxLength: 3 }),
      budgetArb,
      sometimes(faultArb, 3),
      sometimes(outsideArb, 3),
      kills ? sometimes(fc.nat(12), 3) : fc.constant(undefined),
    )
    .map(([s, e, b, f, o, k]) => new UpCommand(s, e, b, f ?? undefined, o ?? undefined, k ?? undefined));
