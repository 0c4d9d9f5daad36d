/**
 * What the runs' orders, changes and listings did on the account, in the order they landed (the emulator's turn
 * hooks, turns.ts), for I3 (../invariants.ts): several stacks' runs at once judge each change on the account of its
 * own moment. A resize or move is judged on the listing its guard read just before it (ordering/order-guard.ts), and
 * never withdrawn, so what it added is not the runs' to answer for only when another stack's change that stays (an
 * order, a resize or a move) landed after that listing and before it: its guard could not see that change, and an
 * order's read-back, if it came first, could not see it (docs/cost.md, I3 and "Several runs at once"). A resize
 * judged on a listing that shows the other's change answers for itself.
 */
import type { FastifyRequest } from "fastify";
import type { Real } from "./commands";
import type { OrderSeen } from "../invariants";
import { callOf } from "./callers";

/**
 * An order placed by a stack's run; a VPS of a stack grown by a resize or a move (`cents`: what it added), by a
 * provider call (`call`, callers.ts); a listing of the account read by a call of a stack's run.
 */
export type Landing =
  | { kind: "order"; stack: string; oid: number }
  | { kind: "grew"; stack: string; oid: number; cents: number; call?: number }
  | { kind: "listed"; stack: string; call: number };

/** The requests that change a VPS's fee, each with the fee of its order just before it is served. */
const CHANGES = new Set(["changeParameters", "moveVps"]);
const feeBefore = new WeakMap<object, number>();

const orderOf = (real: Real, oid: number) =>
  real.emu.app.emulator.ctx.store.state.orders.find((order) => order.orderOid === oid);
const oidOf = (request: FastifyRequest): number | undefined => {
  const match = /\/orders\/order-(\d+)/.exec(request.url);
  return match ? Number(match[1]) : undefined;
};
/** The stack whose VPS a domain name is (front-ends.ts names them `<vps>.<stack>.model.example.com`). */
const stackOf = (domain: string): string | undefined => /\.(s\d+)\.model\.example\.com$/.exec(domain)?.[1];
const centsOf = (usd: number | undefined) => (usd === undefined ? 0 : Math.round(usd * 100));

/** A request is served now (its turn came): a listing, read now; a resize's or move's order fee before it. */
export function serving(real: Real, endpoint: string, request: FastifyRequest | undefined): void {
  const call = request && callOf(request.headers);
  if (call && endpoint === "listOrders")
    real.landings.push({ kind: "listed", stack: call.stack, call: call.id });
  const oid = request && CHANGES.has(endpoint) ? oidOf(request) : undefined;
  if (oid !== undefined) feeBefore.set(request!, centsOf(orderOf(real, oid)?.monthlyFeeUsd));
}

/** What a request did is done (before its answer): an order placed, or a VPS grown, by a stack's run. */
export function landed(real: Real, endpoint: string, request: FastifyRequest | undefined): void {
  if (!request) return;
  if (endpoint === "createVps") {
    // The order's request, in its wrapper (contract/endpoints.ts's requestWrapper).
    type NewOrder = { instantiation_options?: { domain_name?: string } };
    const body = request.body as { new_order_request?: NewOrder } | undefined;
    const domain = body?.new_order_request?.instantiation_options?.domain_name ?? "";
    const stack = stackOf(domain);
    const order = real.emu.app.emulator.ctx.store.state.orders.findLast((o) => o.domainName === domain);
    if (stack && order) real.landings.push({ kind: "order", stack, oid: order.orderOid });
    return;
  }
  const oid = CHANGES.has(endpoint) ? oidOf(request) : undefined;
  const order = oid === undefined ? undefined : orderOf(real, oid);
  const stack = order && stackOf(order.domainName);
  if (!order || !stack || !feeBefore.has(request)) return;
  const cents = centsOf(order.monthlyFeeUsd) - feeBefore.get(request)!;
  const call = callOf(request.headers)?.id;
  if (cents > 0)
    real.landings.push({ kind: "grew", stack, oid: order.orderOid, cents, ...(call ? { call } : {}) });
}

/**
 * What the runs' resizes and moves since `mark` added to VPSs still billed at the end (`after`) when another stack's
 * run placed an order, or grew a VPS, still billed at the end between the listing the change was judged on (its
 * call's last listing before it) and its landing: set aside by I3 (docs/cost.md). One judged on a listing that shows
 * the other's change is not: its guard counted it.
 */
export function grownJudgedBeforeOthers(
  landings: readonly Landing[],
  mark: number,
  after: readonly OrderSeen[],
): number {
  const billed = new Set(after.map((o) => o.oid));
  const since = landings.slice(mark);
  return since.reduce((sum, change, i) => {
    // A VPS cancelled since adds nothing to the account at the end: nothing of it to set aside.
    if (change.kind !== "grew" || !billed.has(change.oid)) return sum;
    const judged = since.findLastIndex((l, j) => j < i && l.kind === "listed" && l.call === change.call);
    const unseen = since
      .slice(judged + 1, i)
      .some((o) => o.kind !== "listed" && o.stack !== change.stack && billed.has(o.oid));
    // A change its call judged on no listing (no limit set) was judged on nothing the order could be missing from.
    return judged >= 0 && unseen ? sum + change.cents : sum;
  }, 0);
}
