/** R1 list orders, R2 one order, R3 cancel at period end, R4 create a VPS. */
import type { FastifyPluginAsync } from "fastify";
import { cancelOrder } from "../domain/cancel.js";
import { createVps } from "../domain/create.js";
import { parseListingFilter } from "../domain/listing.js";
import { getOwnOrder } from "../domain/lookup.js";
import { parseBody } from "../http/body.js";
import { REQUEST_BODIES } from "./request-bodies.js";
import { sendRecord, sendRendered } from "../http/send.js";
import type { EmulatorDeps } from "../http/types.js";
import { endpoint, orderEndpoint } from "./endpoint.js";
import { accountOf, orderOidOf } from "./params.js";

export const ordersRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const { ctx } = deps;

  endpoint(app, "listOrders", async (request, reply) =>
    sendRendered(
      request,
      reply,
      "listOrders",
      deps.listings.render(accountOf(request), parseListingFilter(request.emu.matrix)),
    ),
  );

  endpoint(app, "getOrder", async (request, reply) => {
    const order = getOwnOrder(ctx, accountOf(request).name, orderOidOf(request));
    return sendRendered(request, reply, "getOrder", deps.listings.renderOrder(order));
  });

  orderEndpoint(app, ctx, "cancelOrder", cancelOrder);

  endpoint(app, "createVps", async (request, reply) => {
    const body = parseBody(REQUEST_BODIES.createVps, request.body);
    return sendRecord(
      request,
      reply,
      "createVps",
      await createVps(ctx, accountOf(request), body, deps.options.planCurrencies),
    );
  });
};
