/** R5–R11: the VPS of an order: live status, delete, data transfer, move, resize, reinstall, power. */
import type { FastifyPluginAsync } from "fastify";
import {
  NewVpsRequest,
  RunningStateChangeRequest,
  RunningVpsDataRequest,
  VpsMoveRequest,
} from "../../contract/index.js";
import { deleteVps } from "../domain/cancel.js";
import { moveVps } from "../domain/move.js";
import { changeParameters } from "../domain/parameters.js";
import { reinstallVps } from "../domain/reinstall.js";
import { setRunningState } from "../domain/running-state.js";
import { getDataTransferUsage, getVpsStatus } from "../domain/vps-status.js";
import { parseBody } from "../http/body.js";
import { sendRecord } from "../http/send.js";
import type { EmulatorDeps } from "../http/types.js";
import { accountOf, orderOidOf } from "./params.js";

export const vpsRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const { ctx } = deps;

  app.get("/orders/:order/vps", { config: { endpoint: "getVpsStatus" } }, async (request, reply) =>
    sendRecord(
      request,
      reply,
      "getVpsStatus",
      await getVpsStatus(ctx, accountOf(request), orderOidOf(request)),
    ),
  );

  app.delete("/orders/:order/vps", { config: { endpoint: "deleteVps" } }, async (request, reply) =>
    sendRecord(request, reply, "deleteVps", await deleteVps(ctx, accountOf(request), orderOidOf(request))),
  );

  app.get(
    "/orders/:order/vps/data-transfer-usage",
    { config: { endpoint: "getDataTransferUsage" } },
    async (request, reply) =>
      sendRecord(
        request,
        reply,
        "getDataTransferUsage",
        await getDataTransferUsage(ctx, accountOf(request), orderOidOf(request)),
      ),
  );

  app.put("/orders/:order/vps/host-server", { config: { endpoint: "moveVps" } }, async (request, reply) => {
    const body = parseBody(VpsMoveRequest, request.body);
    return sendRecord(
      request,
      reply,
      "moveVps",
      await moveVps(ctx, accountOf(request), orderOidOf(request), body),
    );
  });

  app.put(
    "/orders/:order/vps/parameters",
    { config: { endpoint: "changeParameters" } },
    async (request, reply) => {
      const body = parseBody(RunningVpsDataRequest, request.body);
      const result = await changeParameters(ctx, accountOf(request), orderOidOf(request), body);
      return sendRecord(request, reply, "changeParameters", result);
    },
  );

  app.put(
    "/orders/:order/vps/reinstall",
    { config: { endpoint: "reinstallVps" } },
    async (request, reply) => {
      const body = parseBody(NewVpsRequest, request.body);
      const result = await reinstallVps(ctx, accountOf(request), orderOidOf(request), body);
      return sendRecord(request, reply, "reinstallVps", result);
    },
  );

  app.put(
    "/orders/:order/vps/running-state",
    { config: { endpoint: "setRunningState" } },
    async (request, reply) => {
      const body = parseBody(RunningStateChangeRequest, request.body);
      const result = await setRunningState(ctx, accountOf(request), orderOidOf(request), body.running_state);
      return sendRecord(request, reply, "setRunningState", result);
    },
  );
};
