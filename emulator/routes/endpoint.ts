/**
 * Registers a route from the contract's ENDPOINTS table, so each path and method is written once
 * (in contract/endpoints.ts) and shared with the client. `{order}` becomes fastify's `:order`.
 */
import type { FastifyInstance, RouteHandlerMethod } from "fastify";
import { ENDPOINTS, type EndpointName, type HttpMethod } from "../../contract/index.js";

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
