/** getVpsStatus / getVpsStatusOutput: live state of a VPS and its host server. */
import type * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import type { GetOrderArgs } from "./get-order.js";
import { outputForm, type DataSourceOutputOptions, type Inputs } from "./output-form.js";
import { callOrderDataSource } from "./program-client.js";
import { compact, isoTime } from "../wire-mapping/values.js";

/** getVpsStatus's args: the VPS's order oid. */
export type GetVpsStatusArgs = GetOrderArgs;
/** getVpsStatusOutput's args: the order oid may be an Input. */
export type GetVpsStatusOutputArgs = Inputs<GetVpsStatusArgs>;

/** The host server a VPS runs on, as getVpsStatus reports it. */
export interface VpsHostStatus {
  /**
   * CPU model.
   * @default undefined when the service does not say
   */
  cpuModelName?: string;
  /**
   * CPU cores of the host.
   * @default undefined when the service does not say
   */
  numCores?: number;
  /**
   * Free memory on the host, MB.
   * @default undefined when the service does not say
   * @integer
   */
  memFreeMb?: number;
  /**
   * Total memory of the host, MB.
   * @default undefined when the service does not say
   * @integer
   */
  memTotalMb?: number;
  /**
   * Free disk on the host, GB.
   * @default undefined when the service does not say
   */
  diskFreeGb?: number;
  /**
   * Load averages (1, 5 and 15 minutes).
   * @default []
   */
  load: number[];
  /**
   * VPSs running on the host.
   * @default undefined when the service does not say
   */
  runningVpss?: number;
  /**
   * Host uptime in seconds.
   * @default undefined when the service does not say
   */
  uptimeSeconds?: number;
}

/** Live state of a VPS and its host. */
export interface GetVpsStatusResult {
  /**
   * The order oid asked for.
   * @default always set
   * @integer
   */
  orderOid: number;
  /**
   * `RUNNING`, `NOTRUNNING`, `RESTARTING` or `POWERCYCLING`.
   * @default undefined when the service does not say
   */
  runningState?: string;
  /**
   * The VPS answers ping from its host.
   * @default undefined when the service does not say
   */
  pingsOk?: boolean;
  /**
   * VPS uptime in seconds.
   * @default undefined when the service does not say
   */
  uptimeSeconds?: number;
  /**
   * CPU time used, seconds.
   * @default undefined when the service does not say
   */
  cpuTimeSeconds?: number;
  /**
   * The running kernel.
   * @default undefined when the service does not say
   */
  currentKernel?: string;
  /**
   * Backups are enabled.
   * @default undefined when the service does not say
   */
  isBackupsEnabled?: boolean;
  /**
   * A backup is running now.
   * @default undefined when the service does not say
   */
  isBackupRunning?: boolean;
  /**
   * Next expected backup, ISO-8601.
   * @default undefined when none is scheduled
   */
  nextBackupTime?: string;
  /**
   * The VPS is suspended.
   * @default undefined when the service does not say
   */
  isSuspended?: boolean;
  /**
   * The host server.
   * @default `{ load: [] }` when the service does not say
   */
  host: VpsHostStatus;
}

/**
 * Reads the live status of a VPS (power, ping, uptime, backups) and its host (load, free memory and
 * disk). Needs the API key. Mock token: `rimuhosting:index:getVpsStatus` (inputs `{ orderOid }`).
 */
export async function getVpsStatus(args: GetVpsStatusArgs): Promise<GetVpsStatusResult> {
  return callOrderDataSource("getVpsStatus", args, fetchVpsStatus);
}

/** getVpsStatus as an Output. */
export function getVpsStatusOutput(
  args: GetVpsStatusOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetVpsStatusResult> {
  return outputForm(args, opts, getVpsStatus);
}

async function fetchVpsStatus(client: RimuClient, args: GetOrderArgs): Promise<GetVpsStatusResult> {
  const response = await client.getVpsStatus(args.orderOid);
  const info = response.running_vps_info;
  const host = response.host_server_info;
  return compact({
    orderOid: args.orderOid,
    runningState: info.running_state ?? undefined,
    pingsOk: info.pings_ok ?? undefined,
    uptimeSeconds: info.vps_uptime_s ?? undefined,
    cpuTimeSeconds: info.vps_cpu_time_s ?? undefined,
    currentKernel: info.current_kernel ?? undefined,
    isBackupsEnabled: info.is_backups_enabled ?? undefined,
    isBackupRunning: info.is_backup_running ?? undefined,
    nextBackupTime: isoTime(info.next_backup_time),
    isSuspended: info.is_suspended ?? undefined,
    host: compact({
      cpuModelName: host?.cpu_model_name ?? undefined,
      numCores: host?.host_num_cores ?? undefined,
      memFreeMb: host?.host_mem_mb_free ?? undefined,
      memTotalMb: host?.host_mem_mb_total ?? undefined,
      diskFreeGb: host?.host_disk_gb_free ?? undefined,
      load: host?.hostload ?? [],
      runningVpss: host?.running_vpss ?? undefined,
      uptimeSeconds: host?.host_uptime_s ?? undefined,
    }),
  });
}
