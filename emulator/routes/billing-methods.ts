/** R13 GET /r/billing-methods: the account's billing methods with the active orders billed to each. */
import type { FastifyPluginAsync } from "fastify";
import { listBillingMethods } from "../domain/catalog-responses.js";
import { sendRecord } from "../http/send.js";
import type { EmulatorDeps } from "../http/types.js";
import { endpoint } from "./endpoint.js";
import { accountOf } from "./params.js";

export const billingMethodsRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  endpoint(app, "listBillingMethods", async (request, reply) =>
    sendRecord(request, reply, "listBillingMethods", listBillingMethods(deps.ctx, accountOf(request))),
  );
};
