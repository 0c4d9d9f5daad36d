/**
 * The /__emulator/* control endpoints (only registered with `control: true`): arm a fault, read the
 * request log and the order snapshot, reset to a fresh state. Plain JSON, not the RimuHosting envelope.
 */
import type { FastifyPluginAsync } from "fastify";
import { snapshotOrders } from "../domain/snapshot.js";
import { emuError } from "../errors.js";
import type { EmulatorDeps } from "../http/types.js";
import { FaultSpecSchema } from "../options.js";

export const controlRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const config = { control: true };

  app.post("/faults", { config }, async (request) => {
    const parsed = FaultSpecSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const fieldName = issue.path.map(String).join(".") || "body";
      throw emuError("EMU_ERR_VALIDATION", { fieldName, message: `${fieldName}: ${issue.message}.` });
    }
    deps.faults.arm(parsed.data);
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
