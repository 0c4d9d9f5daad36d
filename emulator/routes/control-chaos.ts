/** /__emulator/chaos: the chaos rules and their seed, read and replaced at runtime. */
import type { FastifyPluginAsync } from "fastify";
import { requireSensibleRules } from "../chaos/rule.js";
import { CONTROL_ROUTES, controlRoute } from "../control/api.js";
import { parseBody } from "../http/body.js";
import type { EmulatorDeps } from "../http/types.js";

export const chaosRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  controlRoute(app, "getChaos", async () => deps.chaos.report());

  controlRoute(app, "setChaos", async (request) => {
    const settings = parseBody(CONTROL_ROUTES.setChaos.body, request.body);
    requireSensibleRules(settings.rules);
    deps.chaos.set(settings);
    return deps.chaos.report();
  });
};
