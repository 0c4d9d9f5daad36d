/**
 * The model test's changes made outside Pulumi (commands.ts): a resize, a cancellation, a stop of a stack's VPS, or
 * an order by hand (another account user's), between runs or during an update; and the orders they placed or grew,
 * which I3 sets aside.
 */
import fc from "fast-check";
import type { Real } from "./commands";
import { oidOf } from "./engine";
import { uniqueName } from "./edits";
import { ordersOf } from "./runs";

/** A change made outside Pulumi: a resize, a cancellation, a stop, or an order by hand (another stack's). */
export interface OutsideChoice {
  kind: "resize" | "cancel" | "stop" | "order";
  pick: number;
  /**
   * An order by hand during an update lands just before the update's order number `beforeOrder` (0: its first)
   * reaches RimuHosting: after that create's listing of the account, so the create's order is judged again once
   * placed (case 4). After the update when it orders fewer.
   */
  beforeOrder?: number;
}
export const outsideArb: fc.Arbitrary<OutsideChoice> = fc.record({
  // A resize by hand most often: an update beside it must leave it alone (I6); then an order by hand, landing
  // inside an update's create (case 4).
  kind: fc.oneof(
    { arbitrary: fc.constant("resize" as const), weight: 3 },
    { arbitrary: fc.constant("order" as const), weight: 2 },
    fc.constantFrom("cancel" as const, "stop" as const),
  ),
  pick: fc.nat(5),
  // Most often just before the update's first order: the replacement's, in a program that moves a VPS and adds one.
  beforeOrder: fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, fc.nat(2)),
});
/** A change during an update, in words. */
export const duringWords = (o: OutsideChoice): string =>
  `outside ${o.kind} #${o.pick}` + (o.kind === "order" ? ` just before its order ${o.beforeOrder ?? 0}` : "");

export async function outsideChange(real: Real, change: OutsideChoice): Promise<void> {
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
    const oid = placed.about_order.order_oid;
    real.outside.add(oid);
    real.byHandLog.push({ oid, cents: ordersOf(real.emu).find((o) => o.oid === oid)?.cents ?? 0 });
    return;
  }
  if (change.kind === "cancel") {
    await real.byHand.deleteVps(ref() as never);
    real.stale.add(real.stacks.find((s) => s.state.get(target.spec.name) === target)!);
  }
  if (change.kind === "stop") await real.byHand.setRunningState(ref() as never, "NOTRUNNING");
  if (change.kind === "resize" && real.with.has("drift")) {
    const oid = oidOf(target);
    const live = Number(sizesOf(real, oid).memoryMb);
    const memory = live === 1024 ? 2048 : 1024;
    const feeOf = () => ordersOf(real.emu).find((o) => o.oid === oid)?.cents ?? 0;
    const feeBefore = feeOf();
    await real.byHand.changeParameters(ref() as never, { memory_mb: memory });
    // Grown by hand (512 or 1024 MB to more): what it added to the account is not the runs' (I3).
    if (memory > live) {
      real.grownByHand.add(oid);
      real.byHandLog.push({ oid, cents: feeOf() - feeBefore });
    }
  }
}

/** An order by hand during an update: another user's request, which the fault armed for the update's call spares. */
export async function byHandOrder(real: Real, change: OutsideChoice): Promise<void> {
  const { faults } = real.emu.app.emulator;
  const armed = faults.pending();
  faults.clear();
  try {
    await outsideChange(real, change);
  } finally {
    for (const spec of armed) faults.arm(spec);
  }
}

/**
 * What the orders placed or grown outside Pulumi while a command ran added to the account, set aside by I3. One
 * changed by hand before it is the account the runs started from: a run that replaces or shrinks it lowers the
 * account, and is judged so.
 */
export const addedSince = (real: Real, mark: number): number =>
  real.byHandLog.slice(mark).reduce((sum, change) => sum + change.cents, 0);

export const sizesOf = (real: Real, oid: number): Record<string, unknown> => {
  const o = real.emu.app.emulator.ctx.store.state.orders.find((order) => order.orderOid === oid);
  return o ? { memoryMb: o.memoryMb, diskSpaceMb: o.diskMb, dcLocation: o.dc } : {};
};
