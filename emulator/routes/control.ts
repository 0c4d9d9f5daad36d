/**
 * The /__emulator/* control endpoints (only registered with `control: true`): arm a fault, read the request log and
 * the orders, reset to a fresh state, this API's description; snapshots, chaos rules and time in their own files.
 * Plain JSON, not the RimuHosting envelope (errors aside). Every route comes from the table in control/api.ts.
 */
import type { FastifyPluginAsync } from "fastify";
import { CONTROL_ROUTES, controlRoute } from "../control/api.js";
import { controlApiDescription } from "../control/openapi.js";
import { snapshotOrders } from "../domain/snapshot.js";
import { parseBody } from "../http/body.js";
import type { EmulatorDeps } from "../http/types.js";
import { chaosRoutes } from "./control-chaos.js";
import { snapshotRoutes } from "./control-snapshots.js";
import { timeRoutes } from "./control-time.js";

export const controlRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  controlRoute(app, "armFault", async (request) => {
    deps.faults.arm(parseBody(CONTROL_ROUTES.armFault.body, request.body));
    return { armed: [...deps.faults.pending()] };
  });

  controlRoute(app, "listFaults", async () => ({ armed: [...deps.faults.pending()] }));

  // Copies: the table's answers are open records (more fields may come), which an interface's values are not.
  controlRoute(app, "listRequests", async () => ({
    requests: deps.requestLog.all().map((entry) => ({ ...entry })),
  }));

  controlRoute(app, "listOrders", async () => ({
    orders: snapshotOrders(deps.ctx).map((order) => ({ ...order })),
  }));

  controlRoute(app, "reset", async () => {
    deps.ctx.store.reset();
    deps.requestLog.clear();
    deps.faults.clear();
    deps.chaos.reset();
    return { reset: true as const };
  });

  const description = controlApiDescription();
  controlRoute(app, "openApi", async () => description);

  // Under this plugin's prefix already: the options' own prefix (/__emulator) must not be added twice.
  const nested = { ...deps, prefix: "" };
  await app.register(snapshotRoutes, nested);
  await app.register(chaosRoutes, nested);
  await app.register(timeRoutes, nested);
};
