/** /__emulator/time: the emulator's date and time scale at runtime, the date moved, an order's work finished by hand. */
import type { FastifyPluginAsync } from "fastify";
import { moveCalendar, parseNowSetting } from "../calendar.js";
import type { TimeControl } from "../clock.js";
import { CONTROL_ROUTES, controlRoute } from "../control/api.js";
import { DAY_MS } from "../domain/durations.js";
import { emuError } from "../errors.js";
import { parseBody } from "../http/body.js";
import type { EmulatorDeps } from "../http/types.js";

export const timeRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const { ctx } = deps;
  /** The clock's controls; an emulator on a clock given in code (the `clock` option) may have none. */
  const time = (field: string): TimeControl => {
    if (deps.time) return deps.time;
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: field,
      message:
        "This emulator runs on a clock given in code (the clock option), which decides its own time; start it without one to control time here.",
    });
  };
  const today = () => new Date(ctx.clock.now()).toISOString();
  const answer = (control: TimeControl) => ({
    timeScale: control.timeScale(),
    now: today(),
    work: control.workInProgress(),
  });

  /** Where `{"now": …}` or `{"days": …}` moves the date: never back, since orders and bills were made on it. */
  const moveTarget = (body: { now?: string; days?: number }): number => {
    const current = ctx.clock.now();
    if (body.days !== undefined) return current + body.days * DAY_MS;
    const target = parseNowSetting(body.now!, current);
    if (target === undefined) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: "now",
        message: `now must be an ISO 8601 date such as 2027-01-15 or 2027-01-15T09:30:00Z, not '${body.now}'.`,
      });
    }
    if (target < current) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: "now",
        message: `now (${new Date(target).toISOString()}) is earlier than the emulator's date, ${today()}: the date only moves forward. To start over at an earlier date, restart the emulator with --now.`,
      });
    }
    return target;
  };

  controlRoute(app, "getTime", async () => answer(time("timeScale")));

  controlRoute(app, "setTime", async (request) => {
    const { timeScale } = parseBody(CONTROL_ROUTES.setTime.body, request.body);
    const control = time("timeScale");
    control.setTimeScale(timeScale);
    return answer(control);
  });

  controlRoute(app, "advanceTime", async (request) => {
    const body = parseBody(CONTROL_ROUTES.advanceTime.body, request.body);
    const { orderOid } = body;
    const moves = [body.now !== undefined && "now", body.days !== undefined && "days"].filter(Boolean);
    if (moves.length > 0) {
      if (moves.length > 1 || orderOid !== undefined) {
        throw emuError("EMU_ERR_VALIDATION", {
          fieldName: orderOid !== undefined ? "orderOid" : "days",
          message:
            "Send one of now (a date), days (a duration) or orderOid (one order's work): a move of the date ends every order's work.",
        });
      }
      const control = time(String(moves[0]));
      const moved = moveCalendar(ctx, control, moveTarget(body));
      await ctx.store.durable();
      return { ...moved, now: today() };
    }
    const control = time("orderOid");
    if (orderOid !== undefined && !ctx.store.findOrder(orderOid)) {
      throw emuError("EMU_ERR_ORDER_NOT_FOUND", {
        fieldName: "orderOid",
        message: `There is no order ${orderOid} (of any account). GET /__emulator/time lists the orders with work in progress.`,
      });
    }
    return { finished: control.finishWork(orderOid), now: today(), ordersEnded: [] };
  });
};
