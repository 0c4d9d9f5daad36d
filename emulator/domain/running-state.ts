/**
 * R11 PUT .../vps/running-state. RUNNING starts a stopped VPS and otherwise does nothing; NOTRUNNING
 * stops it; RESTARTING and POWERCYCLING reboot it (starting it if stopped) and answer once it is
 * RUNNING again with is_restarted/is_pinging (docs/rimuhosting-api.md, 7.1 States and transitions, R11 Power).
 */
import type { RunningState } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import type { Outcome } from "./outcome.js";
import type { EmulatorContext } from "./context.js";
import { DURATIONS_MS } from "./durations.js";
import { changeOwnOrder, requireVpsToChange } from "./lookup.js";
import { orderHostInfo, toAboutOrder, toRunningVpsInfo } from "../wire/records.js";

export async function setRunningState(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
  target: RunningState,
): Promise<Outcome<"setRunningState">> {
  const { store, clock } = ctx;
  return changeOwnOrder(ctx, account.name, orderOid, requireVpsToChange, async (order) => {
    const name = order.domainName;
    const wasRunning = order.runningState !== "NOTRUNNING";
    let message: string;
    let restarted = false;
    switch (target) {
      case "RUNNING":
        if (wasRunning) {
          message = `${name} is already running; nothing was changed.`;
        } else {
          await clock.work(DURATIONS_MS.start, order.orderOid);
          order.runningState = "RUNNING";
          order.startedAtMs = clock.now();
          message = `${name} started.  ${name} is pinging OK.`;
        }
        break;
      case "NOTRUNNING":
        if (!wasRunning) {
          message = `${name} is already stopped; nothing was changed.`;
        } else {
          await clock.work(DURATIONS_MS.stop, order.orderOid);
          order.runningState = "NOTRUNNING";
          order.startedAtMs = null;
          message = `${name} stopped.`;
        }
        break;
      case "RESTARTING":
      case "POWERCYCLING": {
        // Visible to concurrent readers while the reboot is under way.
        order.runningState = target;
        store.changed(order);
        await clock.work(
          target === "RESTARTING" ? DURATIONS_MS.restart : DURATIONS_MS.powercycle,
          order.orderOid,
        );
        order.runningState = "RUNNING";
        order.startedAtMs = clock.now();
        restarted = true;
        message =
          target === "RESTARTING"
            ? `${name} restarted.  After the reboot ${name} is pinging OK.`
            : `${name} was power cycled.  After the power cycle ${name} is pinging OK.`;
        break;
      }
    }
    store.changed(order);
    const now = clock.now();
    return {
      message: message,
      running_vps_info: toRunningVpsInfo(order, now),
      host_server_info: orderHostInfo(store, order, now),
      is_restarted: restarted,
      is_pinging: order.runningState === "RUNNING",
      running_state_messages: [message],
      about_order: toAboutOrder(order),
      request: { running_state: target },
    };
  });
}
