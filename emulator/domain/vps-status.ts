/** R5 GET .../vps and R7 GET .../vps/data-transfer-usage: live data of a VPS and its host. */
import type { DemoAccount } from "../accounts.js";
import type { OrderState } from "../state/schema.js";
import type { Outcome } from "./outcome.js";
import { toTimestamp } from "../wire/timestamp.js";
import type { EmulatorContext } from "./context.js";
import { DURATIONS_MS } from "./durations.js";
import { getOwnOrder, requireVpsToRead } from "./lookup.js";
import { orderHostInfo, toAboutOrder, toRunningVpsInfo, uptimeSeconds } from "../wire/records.js";

/**
 * The order after the read's realistic duration. Checked before waiting (a missing or removed VPS
 * fails at once) and after (it may have been deleted meanwhile).
 */
async function readVpsAfter(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
  realisticMs: number,
): Promise<OrderState> {
  requireVpsToRead(getOwnOrder(ctx, account.name, orderOid));
  await ctx.clock.work(realisticMs, orderOid);
  const order = getOwnOrder(ctx, account.name, orderOid);
  requireVpsToRead(order);
  return order;
}

/** A cancelled (removed) order's VPS answers 404 EMU_ERR_VPS_NOT_FOUND; the order stays readable via R2. */
export async function getVpsStatus(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
): Promise<Outcome<"getVpsStatus">> {
  const order = await readVpsAfter(ctx, account, orderOid, DURATIONS_MS.vpsStatus);
  const now = ctx.clock.now();
  return {
    message: `Status of ${order.domainName}`,
    running_vps_info: toRunningVpsInfo(order, now),
    host_server_info: orderHostInfo(ctx.store, order, now),
    about_order: toAboutOrder(order),
  };
}

function monthStart(ms: number, monthsBack: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1);
}

/**
 * DataTransferUsageInfo's real field names are unknown (docs/rimuhosting-api.md 3.24); the emulator's own fields are
 * documented in docs/emulator.md ("Where the emulator guesses"): the allowance, the usage of this and last month, and the disk in use
 * (which sets how long a host move takes).
 */
export async function getDataTransferUsage(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
): Promise<Outcome<"getDataTransferUsage">> {
  const order = await readVpsAfter(
    ctx,
    account,
    orderOid,
    DURATIONS_MS.vpsStatus + DURATIONS_MS.dataTransferExtra,
  );
  const now = ctx.clock.now();
  // One megabyte a minute of uptime: deterministic, and grows while the VPS runs.
  const usedMb = Math.floor(uptimeSeconds(order, now) / 60);
  return {
    message: `Data transfer usage of ${order.domainName}`,
    data_transfer_usage_info: {
      allowance_gb: order.dataTransferGb,
      current_month_start: toTimestamp(monthStart(now, 0)),
      current_month_used_mb: usedMb,
      previous_month_start: toTimestamp(monthStart(now, 1)),
      previous_month_used_mb: 0,
      disk_used_mb: order.usedDiskMb,
    },
    running_vps_info: toRunningVpsInfo(order, now),
    host_server_info: orderHostInfo(ctx.store, order, now),
  };
}
