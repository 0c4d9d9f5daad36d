/**
 * The /__emulator/* control endpoints (only registered with `control: true`): arm a fault, set the rate limit,
 * read the request log and the order snapshot, reset to a fresh state. Plain JSON, not the RimuHosting envelope.
 */
import type { FastifyPluginAsync } from "fastify";
import { snapshotOrders } from "../domain/snapshot.js";
import { parseBody } from "../http/body.js";
import type { EmulatorDeps } from "../http/types.js";
import { FaultSpecSchema } from "../options.js";
import { RateLimitUpdateSchema } from "../rate-limit.js";

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

  app.get("/requests", { config }, async () => ({ requests: deps.requestLog.all() }));

  app.get("/snapshot", { config }, async () => ({ orders: snapshotOrders(deps.ctx) }));

  app.post("/reset", { config }, async () => {
    deps.ctx.store.reset();
    deps.requestLog.clear();
    deps.faults.clear();
    // The limit stays as set; every key starts a new window.
    deps.rateLimiter.set(deps.rateLimiter.current());
    return { reset: true };
  });
};
