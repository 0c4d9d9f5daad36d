/**
 * The /__emulator/* control endpoints (only registered with `control: true`): arm a fault, read the
 * request log and the order snapshot, reset to a fresh state. Plain JSON, not the RimuHosting envelope.
 */
import type { FastifyPluginAsync } from "fastify";
import { snapshotOrders } from "../domain/snapshot.js";
import { parseBody } from "../http/body.js";
import type { EmulatorDeps } from "../http/types.js";
import { FaultSpecSchema } from "../options.js";

export const controlRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const config = { control: true };

  app.post("/faults", { config }, async (request) => {
    deps.faults.arm(parseBody(FaultSpecSchema, request.body));
    return { armed: deps.faults.pending() };
  });

  app.get("/faults", { config }, async () => ({ armed: deps.faults.pending() }));

  app.get("/requests", { config }, async () => ({ requests: deps.requestLog.all() }));

  app.get("/snapshot", { config }, async () => ({ orders: snapshotOrders(deps.ctx) }));

  app.post("/reset", { config }, async () => {
    deps.ctx.store.reset();
    deps.requestLog.clear();
    deps.faults.clear();
    return { reset: true };
  });
};
