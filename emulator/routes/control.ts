/**
 * The /__emulator/* control endpoints (only registered with `control: true`): arm a fault, set the rate limit,
 * read the request log, the order snapshot, the accounts' totals and the hosts' room, reset to a fresh state,
 * and the dashboard that shows them. Plain JSON, not the RimuHosting envelope.
 */
import type { FastifyPluginAsync } from "fastify";
import { dashboardRoutes } from "../dashboard/routes.js";
import { accountTotals } from "../domain/account-totals.js";
import { hostRoom } from "../domain/host-room.js";
import { snapshotOrders } from "../domain/snapshot.js";
import { emuError } from "../errors.js";
import { parseBody } from "../http/body.js";
import type { EmulatorDeps } from "../http/types.js";
import { FaultSpecSchema } from "../options.js";
import { RateLimitUpdateSchema } from "../rate-limit.js";

/** `?last=N` of GET /__emulator/requests: the N requests that ended last; without it, all of them. */
function lastCount(query: unknown): number | undefined {
  const raw = (query as Record<string, unknown> | undefined)?.last;
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (typeof raw !== "string" || !/^\d+$/.test(raw) || n < 1) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: "last",
      message: `last must be a whole number of requests, 1 or more, not '${String(raw)}'. Leave it out for all of them.`,
    });
  }
  return n;
}

export const controlRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const config = { control: true };

  app.post("/faults", { config }, async (request) => {
    deps.faults.arm(parseBody(FaultSpecSchema, request.body));
    return { armed: deps.faults.pending() };
  });

  app.get("/faults", { config }, async () => ({ armed: deps.faults.pending() }));

  // {"requests": n, "windowSeconds": s} sets the limit (every key starts a new window); {"requests": null} ends it.
  app.put("/rate-limit", { config }, async (request) => {
    const update = parseBody(RateLimitUpdateSchema, request.body);
    const { requests, windowSeconds } = update;
    deps.rateLimiter.set(requests === null ? undefined : { requests, windowSeconds: windowSeconds! });
    return { rateLimit: deps.rateLimiter.current() ?? null };
  });

  app.get("/rate-limit", { config }, async () => ({ rateLimit: deps.rateLimiter.current() ?? null }));

  app.get("/requests", { config }, async (request) => {
    const last = lastCount(request.query);
    const requests = last === undefined ? deps.requestLog.all() : deps.requestLog.last(last);
    return { requests, total: deps.requestLog.size };
  });

  app.get("/snapshot", { config }, async () => ({ orders: snapshotOrders(deps.ctx) }));

  app.get("/accounts", { config }, async () => ({ accounts: accountTotals(deps.ctx) }));

  app.get("/hosts", { config }, async () => ({ hosts: hostRoom(deps.ctx) }));

  app.post("/reset", { config }, async () => {
    deps.ctx.store.reset();
    deps.requestLog.clear();
    deps.faults.clear();
    // The limit stays as set; every key starts a new window.
    deps.rateLimiter.set(deps.rateLimiter.current());
    return { reset: true };
  });

  dashboardRoutes(app);
};
