/** Public catalog resources: R14 distributions, R15 pricing plans, R16 price quote, R17 data centres. */
import type { FastifyPluginAsync } from "fastify";
import { listDataCenters, listDistributions, listPricingPlans } from "../domain/catalog-responses.js";
import { quoteNewVm, quoteRequestFromMatrix } from "../domain/quote.js";
import { parseBody } from "../http/body.js";
import { REQUEST_BODIES } from "./request-bodies.js";
import { sendRecord, sendRendered } from "../http/send.js";
import { CatalogCache } from "../wire/catalog-cache.js";
import type { EmulatorDeps } from "../http/types.js";
import { endpoint } from "./endpoint.js";

export const catalogRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const now = () => deps.ctx.clock.now();
  const catalog = new CatalogCache();

  endpoint(app, "listDistributions", async (request, reply) =>
    sendRendered(
      request,
      reply,
      "listDistributions",
      catalog.render("listDistributions", "", now(), () => listDistributions()),
    ),
  );

  endpoint(app, "listPricingPlans", async (request, reply) => {
    const { matrix } = request.emu;
    const key = JSON.stringify([...matrix]);
    return sendRendered(
      request,
      reply,
      "listPricingPlans",
      catalog.render("listPricingPlans", key, now(), () =>
        listPricingPlans(matrix, deps.options.planCurrencies),
      ),
    );
  });

  endpoint(app, "quoteNewVm", async (request, reply) => {
    const body = parseBody(REQUEST_BODIES.quoteNewVm, request.body);
    const quote = quoteNewVm(deps.ctx, body, request.emu.account, deps.options.planCurrencies);
    return sendRecord(request, reply, "quoteNewVm", quote);
  });

  endpoint(
    app,
    "quoteNewVm",
    async (request, reply) => {
      const req = quoteRequestFromMatrix(request.emu.matrix);
      const quote = quoteNewVm(deps.ctx, req, request.emu.account, deps.options.planCurrencies);
      return sendRecord(request, reply, "quoteNewVm", quote);
    },
    "GET",
  );

  endpoint(app, "listDataCenters", async (request, reply) =>
    sendRendered(
      request,
      reply,
      "listDataCenters",
      catalog.render("listDataCenters", "", now(), () => listDataCenters()),
    ),
  );
};
