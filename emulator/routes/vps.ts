/** R5–R11: the VPS of an order: live status, delete, data transfer, move, resize, reinstall, power. */
import type { FastifyPluginAsync } from "fastify";
import { deleteVps } from "../domain/cancel.js";
import { moveVps } from "../domain/move.js";
import { changeParameters } from "../domain/parameters.js";
import { reinstallVps } from "../domain/reinstall.js";
import { setRunningState } from "../domain/running-state.js";
import { getDataTransferUsage, getVpsStatus } from "../domain/vps-status.js";
import { parseBody } from "../http/body.js";
import { REQUEST_BODIES } from "./request-bodies.js";
import { sendRecord } from "../http/send.js";
import type { EmulatorDeps } from "../http/types.js";
import { endpoint, orderEndpoint } from "./endpoint.js";
import { accountOf, orderOidOf } from "./params.js";

export const vpsRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const { ctx } = deps;

  orderEndpoint(app, ctx, "getVpsStatus", getVpsStatus);
  orderEndpoint(app, ctx, "deleteVps", deleteVps);
  orderEndpoint(app, ctx, "getDataTransferUsage", getDataTransferUsage);

  endpoint(app, "moveVps", async (request, reply) => {
    const body = parseBody(REQUEST_BODIES.moveVps, request.body);
    return sendRecord(
      request,
      reply,
      "moveVps",
      await moveVps(ctx, accountOf(request), orderOidOf(request), body),
    );
  });

  endpoint(app, "changeParameters", async (request, reply) => {
    const body = parseBody(REQUEST_BODIES.changeParameters, request.body);
    const result = await changeParameters(ctx, accountOf(request), orderOidOf(request), body);
    return sendRecord(request, reply, "changeParameters", result);
  });

  endpoint(app, "reinstallVps", async (request, reply) => {
    const body = parseBody(REQUEST_BODIES.reinstallVps, request.body);
    const result = await reinstallVps(ctx, accountOf(request), orderOidOf(request), body);
    return sendRecord(request, reply, "reinstallVps", result);
  });

  endpoint(app, "setRunningState", async (request, reply) => {
    const body = parseBody(REQUEST_BODIES.setRunningState, request.body);
    const result = await setRunningState(ctx, accountOf(request), orderOidOf(request), body.running_state);
    return sendRecord(request, reply, "setRunningState", result);
  });
};
