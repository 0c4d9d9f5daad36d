/**
 * Registers a route from the contract's ENDPOINTS table, so each path and method is written once
 * (in contract/endpoints.ts) and shared with the client. `{order}` becomes fastify's `:order`.
 */
import type { FastifyInstance, RouteHandlerMethod } from "fastify";
import { ENDPOINTS, type EndpointName, type HttpMethod } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import type { EmulatorContext } from "../domain/context.js";
import type { Outcome } from "../domain/outcome.js";
import { sendRecord } from "../http/send.js";
import { accountOf, orderOidOf } from "./params.js";

/** The fastify route path of an endpoint, relative to the `/r` prefix. */
export function routePath(name: EndpointName): string {
  return ENDPOINTS[name].path.replace(/\{(\w+)\}/g, ":$1");
}

export function endpoint(
  app: FastifyInstance,
  name: EndpointName,
  handler: RouteHandlerMethod,
  /** Only for a second method on the same path (R16's GET form of the PUT quote). */
  method: HttpMethod = ENDPOINTS[name].method,
): void {
  app.route({
    method,
    url: routePath(name),
    config: { endpoint: name },
    handler,
  });
}

/**
 * An endpoint whose whole input is the account and the order in the path (R3, R5, R6, R7): the
 * domain function's outcome is the answer.
 */
export function orderEndpoint<N extends EndpointName>(
  app: FastifyInstance,
  ctx: EmulatorContext,
  name: N,
  run: (ctx: EmulatorContext, account: DemoAccount, orderOid: number) => Promise<Outcome<N>>,
): void {
  endpoint(app, name, async (request, reply) =>
    sendRecord(request, reply, name, await run(ctx, accountOf(request), orderOidOf(request))),
  );
}
