/**
 * R9 PUT .../vps/parameters: new memory/disk totals. Disks never shrink (409); growth must fit on the
 * host (409); a running VPS is restarted; billing follows with a pro-rata line in the recorded
 * wording (docs/rimuhosting-api.md R9). A stopped VPS is resized without starting it (inferred).
 */
import type { RunningVpsDataRequest } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { findDataCenter } from "../catalog/data-centers.js";
import { hostName } from "../catalog/hosts.js";
import { formatUsd, roundMoney, vpsMonthlyFeeUsd } from "../catalog/pricing.js";
import { emuError } from "../errors.js";
import type { OrderState } from "../state/schema.js";
import type { Outcome } from "./outcome.js";
import { formatDate } from "../wire/timestamp.js";
import { findHost, hostUsage, requireHostFits, totalDiskMb } from "./capacity.js";
import type { EmulatorContext } from "./context.js";
import { BILLING_PERIOD_MS, DAY_MS, DURATIONS_MS } from "./durations.js";
import { billingPeriodEnd } from "./lifecycle.js";
import { changeOwnOrder, requireVpsToChange } from "./lookup.js";
import { formatSize, toAboutOrder } from "../wire/records.js";
import { MIN_DISK_MB, MIN_MEMORY_MB, requireSize } from "./validate.js";

type Sizes = Pick<OrderState, "memoryMb" | "diskMb" | "disk2Mb" | "disk3Mb">;

const DISKS = [
  ["disk_space_mb", "diskMb", "Disk"],
  ["disk_space_2_mb", "disk2Mb", "Second disk"],
  ["disk_space_3_mb", "disk3Mb", "Third disk"],
] as const;

function wantedSizes(order: OrderState, req: RunningVpsDataRequest): Sizes {
  const sizes: Sizes = {
    memoryMb: requireSize(req.memory_mb ?? order.memoryMb, MIN_MEMORY_MB, "memory_mb"),
    diskMb: requireSize(req.disk_space_mb ?? order.diskMb, MIN_DISK_MB, "disk_space_mb"),
    disk2Mb: requireSize(req.disk_space_2_mb ?? order.disk2Mb, 0, "disk_space_2_mb"),
    disk3Mb: requireSize(req.disk_space_3_mb ?? order.disk3Mb, 0, "disk_space_3_mb"),
  };
  for (const [field, key] of DISKS) {
    if (sizes[key] < order[key]) {
      throw emuError("EMU_ERR_DISK_SHRINK", {
        fieldName: field,
        message: `${field} is ${sizes[key]} but the disk is already ${order[key]}MB; disks cannot be made smaller. Ask for ${order[key]} or more, or reinstall with a smaller disk.`,
      });
    }
  }
  return sizes;
}

/** "Memory change from 1GB to 2GB.  Date: ….  Monthly pricing changed from … USD to … USD, … more.  Pro-rated …" */
function billingMessage(
  order: OrderState,
  before: Sizes,
  oldFee: number,
  newFee: number,
  nowMs: number,
): string {
  const changes: string[] = [];
  if (before.memoryMb !== order.memoryMb) {
    changes.push(`Memory change from ${formatSize(before.memoryMb)} to ${formatSize(order.memoryMb)}.`);
  }
  for (const [, key, label] of DISKS) {
    if (before[key] !== order[key])
      changes.push(`${label} change from ${formatSize(before[key])} to ${formatSize(order[key])}.`);
  }
  const diff = roundMoney(newFee - oldFee);
  const days = Math.ceil((billingPeriodEnd(order, nowMs) - nowMs) / DAY_MS);
  const proRata = roundMoney((Math.abs(diff) * (days * DAY_MS)) / BILLING_PERIOD_MS);
  const direction = diff >= 0 ? "more" : "less";
  return (
    `${changes.join("  ")}  Date: ${formatDate(nowMs)}.  Monthly pricing changed from ${formatUsd(oldFee)} USD to ${formatUsd(newFee)} USD, ${formatUsd(Math.abs(diff))} USD ${direction}.` +
    `  Pro-rated ${diff >= 0 ? "change" : "credit"} of ${formatUsd(proRata)} USD over ${days} days.`
  );
}

export async function changeParameters(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
  req: RunningVpsDataRequest,
): Promise<Outcome<"changeParameters">> {
  const { store, clock } = ctx;
  return changeOwnOrder(ctx, account.name, orderOid, requireVpsToChange, async (order) => {
    const before: Sizes = {
      memoryMb: order.memoryMb,
      diskMb: order.diskMb,
      disk2Mb: order.disk2Mb,
      disk3Mb: order.disk3Mb,
    };
    const wanted = wantedSizes(order, req);
    const echo = {
      memory_mb: req.memory_mb ?? null,
      disk_space_mb: req.disk_space_mb ?? null,
      disk_space_2_mb: req.disk_space_2_mb ?? null,
      disk_space_3_mb: req.disk_space_3_mb ?? null,
    };
    const oldFee = order.monthlyFeeUsd;
    const respond = (
      changed: boolean,
      humanMessage: string,
      newFee: number,
      messages: string[],
    ): Outcome<"changeParameters"> => ({
      message: humanMessage,
      about_order: toAboutOrder(order),
      resource_change_request: echo,
      resource_change_result: {
        were_resources_changed: changed,
        original_pricing: { amt: oldFee, cur: "CUR_USD" },
        new_pricing: { amt: newFee, cur: "CUR_USD" },
        resource_change_messages: messages,
      },
    });
    const unchanged = (Object.keys(before) as (keyof Sizes)[]).every((k) => before[k] === wanted[k]);
    if (unchanged) {
      return respond(false, "No resource changes were needed.", oldFee, [
        "The requested sizes are the current sizes; nothing was changed.",
      ]);
    }
    const host = order.hostOid ? findHost(store, order.hostOid) : undefined;
    const messages: string[] = [];
    if (host) {
      // Only the growth has to fit: the VPS already holds its current resources.
      const growMem = Math.max(0, wanted.memoryMb - order.memoryMb);
      const growDisk = Math.max(0, totalDiskMb(wanted) - totalDiskMb(order));
      requireHostFits(store, host, { memoryMb: growMem, diskMb: growDisk, ips: 0 });
      const usage = hostUsage(store, host);
      messages.push(
        `Host ${hostName(host.oid)} has ${usage.memFreeMb}MB memory and ${usage.diskFreeGb}GB disk free.`,
      );
    }
    // Reserve now, so concurrent creates see the new sizes while the restart is under way.
    Object.assign(order, wanted);
    const dc = findDataCenter(order.dc);
    const newFee = dc ? vpsMonthlyFeeUsd(order, dc) : oldFee;
    order.monthlyFeeUsd = newFee;
    store.changed(order);
    messages.push("Updated the VPS parameter file.");
    if (order.runningState !== "NOTRUNNING") {
      messages.push(`Restarting ${order.domainName} to apply the change.`);
      order.runningState = "RESTARTING";
      store.changed(order);
      await clock.work(DURATIONS_MS.resize, order.orderOid);
      order.runningState = "RUNNING";
      order.startedAtMs = clock.now();
      messages.push(`${order.domainName} is pinging OK after the restart.`);
    } else {
      messages.push(`${order.domainName} was not running, so it was left stopped.`);
    }
    const now = clock.now();
    messages.push(billingMessage(order, before, oldFee, newFee, now), "Completed.");
    store.changed(order);
    return respond(true, "Resource change completed.", newFee, messages);
  });
}
