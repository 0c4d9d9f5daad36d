/** /__emulator/time: the time scale at runtime, and an order's work finished by hand. */
import type { FastifyPluginAsync } from "fastify";
import type { TimeControl } from "../clock.js";
import { CONTROL_ROUTES, controlRoute } from "../control/api.js";
import { emuError } from "../errors.js";
import { parseBody } from "../http/body.js";
import type { EmulatorDeps } from "../http/types.js";

export const timeRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  /** The clock's controls; an emulator on a clock given in code (the `clock` option) may have none. */
  const time = (field: string): TimeControl => {
    if (deps.time) return deps.time;
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: field,
      message:
        "This emulator runs on a clock given in code (the clock option), which decides its own time; start it without one to control time here.",
    });
  };
  const answer = (control: TimeControl) => ({
    timeScale: control.timeScale(),
    work: control.workInProgress(),
  });

  controlRoute(app, "getTime", async () => answer(time("timeScale")));

  controlRoute(app, "setTime", async (request) => {
    const { timeScale } = parseBody(CONTROL_ROUTES.setTime.body, request.body);
    const control = time("timeScale");
    control.setTimeScale(timeScale);
    return answer(control);
  });

  controlRoute(app, "advanceTime", async (request) => {
    const { orderOid } = parseBody(CONTROL_ROUTES.advanceTime.body, request.body);
    const control = time("orderOid");
    if (orderOid !== undefined && !deps.ctx.store.findOrder(orderOid)) {
      throw emuError("EMU_ERR_ORDER_NOT_FOUND", {
        fieldName: "orderOid",
        message: `There is no order ${orderOid} (of any account). GET /__emulator/time lists the orders with work in progress.`,
      });
    }
    return { finished: control.finishWork(orderOid) };
  });
};
