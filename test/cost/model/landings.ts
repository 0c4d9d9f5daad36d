/**
 * What the runs' orders and changes did on the account, in the order they landed (the emulator's turn hooks,
 * turns.ts), for I3 (../invariants.ts): several stacks' runs at once judge each change on the account of its own
 * moment, and the rule after an order (docs/cost.md, "Several runs at once") counts another run's resize or move only
 * if it landed before that order's read-back. So what a resize or move of one run added when it landed after another
 * run's order, one that stays, was placed is not the runs' to answer for: I3 sets it aside, as the page says.
 */
import type { FastifyRequest } from "fastify";
import type { Real } from "./commands";
import type { OrderSeen } from "../invariants";

/** An order placed by a stack's run, or a VPS of a stack grown by a resize or a move (`cents`: what it added). */
export type Landing =
  { kind: "order"; stack: string; oid: number } | { kind: "grew"; stack: string; oid: number; cents: number };

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

/** A request is served now (its turn came): a resize's or move's order fee before it. */
export function serving(real: Real, endpoint: string, request: FastifyRequest | undefined): void {
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
  if (cents > 0) real.landings.push({ kind: "grew", stack, oid: order.orderOid, cents });
}

/**
 * What the runs' resizes and moves since `mark` added that landed after another stack's run had placed an order
 * still billed at the end (`after`): set aside by I3 (docs/cost.md).
 */
export function grownAfterOthersOrders(real: Real, mark: number, after: readonly OrderSeen[]): number {
  const billed = new Set(after.map((o) => o.oid));
  const since = real.landings.slice(mark);
  return since.reduce(
    (sum, change, i) =>
      change.kind === "grew" &&
      since.slice(0, i).some((o) => o.kind === "order" && o.stack !== change.stack && billed.has(o.oid))
        ? sum + change.cents
        : sum,
    0,
  );
}
