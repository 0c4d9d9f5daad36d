/**
 * GET /r/openapi.json: the OpenAPI description of the RimuHosting routes (rimuhosting-openapi.ts), always on. Served
 * as the control routes are (no request log line, no fault, chaos rule, rate limit or key): it describes the API, it
 * is no call of it.
 */
import type { FastifyPluginAsync } from "fastify";
import type { EmulatorDeps } from "../http/types.js";
import { RIMUHOSTING_OPENAPI_PATH, rimuhostingApiDescription } from "../rimuhosting-openapi.js";

export const openApiRoutes: FastifyPluginAsync<EmulatorDeps> = async (app) => {
  const description = rimuhostingApiDescription();
  app.get(RIMUHOSTING_OPENAPI_PATH, { config: { control: true } }, async () => description);
};
