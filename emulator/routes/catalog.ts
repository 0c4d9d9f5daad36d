/** Public catalog resources: R14 distributions, R15 pricing plans, R16 price quote, R17 data centres. */
import type { FastifyPluginAsync } from "fastify";
import { NewVpsRequest } from "../../contract/index.js";
import { listDataCenters, listDistributions, listPricingPlans } from "../domain/catalog-responses.js";
import { quoteNewVm, quoteRequestFromMatrix } from "../domain/quote.js";
import { parseBody } from "../http/body.js";
import { sendRecord } from "../http/send.js";
import type { EmulatorDeps } from "../http/types.js";

export const catalogRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const now = () => deps.ctx.clock.now();

  app.get("/distributions", { config: { endpoint: "listDistributions" } }, async (request, reply) =>
    sendRecord(request, reply, "listDistributions", listDistributions(now())),
  );

  app.get("/pricing-plans", { config: { endpoint: "listPricingPlans" } }, async (request, reply) =>
    sendRecord(request, reply, "listPricingPlans", listPricingPlans(now(), request.emu.matrix)),
  );

  app.put("/pricing-plans/new-vm-pricing", { config: { endpoint: "quoteNewVm" } }, async (request, reply) => {
    const body = parseBody(NewVpsRequest, request.body);
    return sendRecord(request, reply, "quoteNewVm", quoteNewVm(now(), body, request.emu.account));
  });

  app.get("/pricing-plans/new-vm-pricing", { config: { endpoint: "quoteNewVm" } }, async (request, reply) => {
    const req = quoteRequestFromMatrix(request.emu.matrix);
    return sendRecord(request, reply, "quoteNewVm", quoteNewVm(now(), req, request.emu.account));
  });

  app.get("/data-centers", { config: { endpoint: "listDataCenters" } }, async (request, reply) =>
    sendRecord(request, reply, "listDataCenters", listDataCenters(now())),
  );
};
