/** Renders stored orders and hosts as the contract's records (AboutOrder, RunningVPSInfo, HostServerInfo). */
import {
  type AboutBillingData,
  type AboutOrder,
  type HostServerInfo,
  type RunningVpsInfo,
  orderSlug,
} from "../../contract/index.js";
import { findDataCenter, toDataLocationInfo } from "../catalog/data-centers.js";
import { findDistribution } from "../catalog/distributions.js";
import { hostName } from "../catalog/hosts.js";
import { formatUsd, planAmount } from "../catalog/pricing.js";
import type { HostState, OrderState } from "../state/schema.js";
import type { StateStore } from "../state/store.js";
import { toTimestamp, toTimestampOrNull } from "./timestamp.js";
import { findHost, hostUsage } from "../domain/capacity.js";
import { DAY_MS } from "../domain/durations.js";

/** "4GB" for whole gigabytes, "950MB" otherwise. */
export function formatSize(mb: number): string {
  return mb % 1024 === 0 ? `${mb / 1024}GB` : `${mb}MB`;
}

export function orderDescription(order: OrderState): string {
  const dc = findDataCenter(order.dc);
  const parts = [
    order.planCode,
    `Server Type: ${order.serverType === "VPS" ? "VM" : "Dedicated"}`,
    `Location: ${dc?.name ?? order.dc}`,
    `${formatSize(order.memoryMb)} memory`,
    `${formatSize(order.diskMb)} on SSD disk image`,
    `Data Transfer: ${order.dataTransferGb}GB`,
  ];
  if (order.hostOid) parts.push(`Host: ${hostName(order.hostOid)}`);
  if (order.primaryIp) parts.push(order.primaryIp);
  if (order.distro) parts.push(findDistribution(order.distro)?.description ?? order.distro);
  const currency = order.feeCurrency?.replace(/^CUR_/, "") ?? "USD";
  parts.push(
    `Control Panel: ${order.controlPanel || "none"}`,
    `${formatUsd(order.monthlyFeeUsd)} ${currency}/m`,
  );
  return parts.join("; ");
}

/**
 * The order's billing: in USD, or, for a plan priced in another currency only, in that currency with no USD value
 * (as its quote was), and no `monthly_recurring_fee`, which the service gives in USD (docs/rimuhosting-api.md).
 */
export function toBillingInfo(order: OrderState): AboutBillingData {
  return {
    monthly_recurring_fee: order.feeCurrency ? null : order.monthlyFeeUsd,
    monthly_recurring_amt: planAmount(order.monthlyFeeUsd, order.feeCurrency),
    order_date: toTimestamp(order.orderDateMs),
    cancellation_date: toTimestampOrNull(order.cancellationDateMs),
    prepaid_until: null,
    suspended_date: null,
  };
}

export function toAboutOrder(order: OrderState): AboutOrder {
  const dc = findDataCenter(order.dc);
  return {
    order_oid: order.orderOid,
    domain_name: order.domainName,
    slug: orderSlug(order.orderOid, order.domainName),
    billing_oid: order.billingOid,
    billing_info: toBillingInfo(order),
    allocated_ips: { primary_ip: order.primaryIp, secondary_ips: [...order.secondaryIps] },
    data_transfer_allowance: {
      data_transfer_gb: order.dataTransferGb,
      data_transfer: String(order.dataTransferGb),
    },
    distro: order.distro,
    host_server_oid: order.hostOid,
    is_on_customers_own_physical_server: false,
    location: dc ? toDataLocationInfo(dc) : null,
    meta_data: order.metaData.map((m) => ({ ...m })),
    order_description: orderDescription(order),
    running_state: order.runningState,
    server_type: order.serverType,
    vps_parameters:
      order.serverType === "VPS"
        ? {
            memory_mb: order.memoryMb,
            disk_space_mb: order.diskMb,
            disk_space_2_mb: order.disk2Mb,
            disk_space_3_mb: order.disk3Mb,
          }
        : null,
    deployed_state: order.deployedState,
  };
}

export function uptimeSeconds(order: OrderState, nowMs: number): number {
  return order.startedAtMs === null ? 0 : Math.max(0, Math.floor((nowMs - order.startedAtMs) / 1000));
}

/** Backups run daily at 05:00 UTC. */
function nextBackupMs(nowMs: number): number {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS + 5 * 3_600_000;
  return today > nowMs ? today : today + DAY_MS;
}

export function toRunningVpsInfo(order: OrderState, nowMs: number): RunningVpsInfo {
  const uptime = uptimeSeconds(order, nowMs);
  const up = order.runningState !== "NOTRUNNING";
  return {
    running_state: order.runningState,
    pings_ok: order.runningState === "RUNNING",
    current_kernel: "default64",
    current_kernel_canonical: up ? "6.1.0-26-amd64" : null,
    is_console_login_enabled: false,
    console_public_authorized_keys: null,
    is_backups_enabled: true,
    is_backup_running: false,
    last_backup_message: "",
    next_backup_time: toTimestamp(nextBackupMs(nowMs)),
    is_suspended: false,
    vps_uptime_s: uptime,
    vps_cpu_time_s: Math.floor(uptime / 50),
    deployed_state: order.deployedState,
  };
}

function toHostServerInfo(store: StateStore, host: HostState, nowMs: number): HostServerInfo {
  const usage = hostUsage(store, host);
  const load = Math.round(usage.runningVpss * 7) / 100;
  return {
    cpu_model_name: "AMD EPYC 7443P 24-Core Processor",
    default_kernel_i386: "default",
    default_kernel_x86_64: "default64",
    host_mem_mb_free: usage.memFreeMb,
    host_mem_mb_total: host.memTotalMb,
    host_disk_gb_free: usage.diskFreeGb,
    host_num_cores: host.cores,
    host_uptime_s: Math.floor((nowMs - host.bootedAtMs) / 1000),
    host_xen_version: "4.17.3",
    hostload: [load, load, load],
    is_host64_bit_capable: true,
    running_vpss: usage.runningVpss,
  };
}

export function orderHostInfo(store: StateStore, order: OrderState, nowMs: number): HostServerInfo | null {
  const host = order.hostOid ? findHost(store, order.hostOid) : undefined;
  return host ? toHostServerInfo(store, host, nowMs) : null;
}
