/**
 * R8 PUT .../vps/host-server: moves a VPS to another host (named, or the best one in its data
 * centre). The VPS gets addresses from the new host's subnet, so its IP changes; the move takes 5–10
 * minutes per GB of used disk (scaled). A running VPS runs on the new host afterwards; a stopped one
 * stays stopped (inferred).
 */
import type { VpsMoveRequest } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { findDataCenter } from "../catalog/data-centers.js";
import { hostName } from "../catalog/hosts.js";
import { vpsMonthlyFeeUsd } from "../catalog/pricing.js";
import { emuError } from "../errors.js";
import type { HostState } from "../state/schema.js";
import type { Outcome } from "./outcome.js";
import { allocateIps, chooseHost, findHost, requireHostFits, totalDiskMb } from "./capacity.js";
import type { EmulatorContext } from "./context.js";
import { DURATIONS_MS } from "./durations.js";
import { changeOwnOrder, requireVpsToChange } from "./lookup.js";
import { toAboutOrder, toRunningVpsInfo } from "../wire/records.js";

export async function moveVps(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
  req: VpsMoveRequest,
): Promise<Outcome<"moveVps">> {
  const { store, clock } = ctx;
  return changeOwnOrder(ctx, account.name, orderOid, requireVpsToChange, async (order) => {
    const need = { memoryMb: order.memoryMb, diskMb: totalDiskMb(order), ips: 1 + order.secondaryIps.length };
    const targetOid = req.selected_host_server_oid ?? req.host_server_oid ?? undefined;
    let target: HostState;
    if (targetOid) {
      const fieldName = req.selected_host_server_oid ? "selected_host_server_oid" : "host_server_oid";
      const host = findHost(store, targetOid);
      if (!host) {
        throw emuError("EMU_ERR_UNKNOWN_HOST", {
          fieldName,
          message: `${fieldName} '${targetOid}' is not a host server available to you; omit it to let us choose.`,
        });
      }
      if (host.oid === order.hostOid) {
        throw emuError("EMU_ERR_MOVE_SAME_HOST", {
          fieldName,
          message: `${order.domainName} is already on ${hostName(host.oid)}; choose another host or omit ${fieldName}.`,
        });
      }
      requireHostFits(store, host, need, order);
      target = host;
    } else {
      target = chooseHost(store, order.dc, need, {
        exclude: order,
        avoidHostOid: order.hostOid ?? undefined,
      });
    }

    // Reserve on the new host before the long copy, so concurrent creates cannot take the space.
    const fromOid = order.hostOid;
    const oldIps = [order.primaryIp, ...order.secondaryIps].filter((ip): ip is string => ip !== null);
    const [primary, ...secondary] = allocateIps(store, target, need.ips);
    order.hostOid = target.oid;
    order.primaryIp = primary ?? null;
    order.secondaryIps = secondary;
    order.ptr = {};
    const dc = findDataCenter(target.dc);
    order.dc = target.dc;
    if (dc) order.monthlyFeeUsd = vpsMonthlyFeeUsd(order, dc);
    const wasRunning = order.runningState !== "NOTRUNNING";
    store.changed(order);

    const usedGb = order.usedDiskMb / 1024;
    const perGbMs =
      DURATIONS_MS.movePerGbMin +
      store.random.next() * (DURATIONS_MS.movePerGbMax - DURATIONS_MS.movePerGbMin);
    await clock.work(usedGb * perGbMs, order.orderOid);
    if (wasRunning) {
      order.runningState = "RUNNING";
      order.startedAtMs = clock.now();
    }
    store.changed(order);

    const updateDns = req.is_update_dns ?? req.update_dns ?? true;
    const messages = [
      `Moved ${order.domainName} from ${fromOid ? hostName(fromOid) : "its old host"} to ${hostName(target.oid)}.`,
      `Copied ${usedGb.toFixed(1)}GB of disk in ${Math.round((usedGb * perGbMs) / 60_000)} minutes.`,
      `IP address changed from ${oldIps.join(", ")} to ${[order.primaryIp, ...order.secondaryIps].join(", ")}.`,
      updateDns
        ? "Updated RimuHosting DNS records from the old IP addresses to the new ones."
        : "DNS records were left unchanged (is_update_dns=false).",
      wasRunning
        ? `${order.domainName} is running on ${hostName(target.oid)} and pinging OK.`
        : `${order.domainName} was not running and was left stopped.`,
    ];
    const echo: VpsMoveRequest = {
      selected_host_server_oid: target.oid,
      host_server_oid: req.host_server_oid ?? null,
      pricing_change_option: req.pricing_change_option ?? "CHOOSE_BEST_OPTION",
      is_update_dns: updateDns,
      update_dns: req.update_dns ?? null,
      move_reason: req.move_reason ?? null,
    };
    const now = clock.now();
    return {
      message: `${order.domainName} moved to ${hostName(target.oid)}.`,
      about_order: toAboutOrder(order),
      move_messages: messages,
      move_request: echo,
      vps_move_request: echo,
      running_vps_info: toRunningVpsInfo(order, now),
    };
  });
}
