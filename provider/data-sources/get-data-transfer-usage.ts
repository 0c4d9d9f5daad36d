/** getDataTransferUsage / getDataTransferUsageOutput: a VPS's data-transfer usage. */
import type * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import type { GetOrderArgs } from "./get-order.js";
import { outputForm, type DataSourceOutputOptions, type Inputs } from "./output-form.js";
import { callOrderDataSource } from "./program-client.js";
import { compact } from "../wire-mapping/values.js";

/** getDataTransferUsage's args: the VPS's order oid. */
export type GetDataTransferUsageArgs = GetOrderArgs;
/** getDataTransferUsageOutput's args: the order oid may be an Input. */
export type GetDataTransferUsageOutputArgs = Inputs<GetDataTransferUsageArgs>;

/** A VPS's data-transfer usage for this and last month. */
export interface GetDataTransferUsageResult {
  /**
   * The order oid asked for.
   * @default always set
   * @integer
   */
  orderOid: number;
  /**
   * The usage record exactly as the service sends it (RimuHosting does not document its field names;
   * the emulator's are in the emulator docs).
   * @default {} when the service sends none
   */
  usage: Record<string, unknown>;
  /**
   * `RUNNING`, `NOTRUNNING`, `RESTARTING` or `POWERCYCLING`.
   * @default undefined when the service does not say
   */
  runningState?: string;
}

/**
 * Reads the data-transfer usage of a VPS for this and last month (slower than getVpsStatus). Needs the
 * API key. Mock token: `rimuhosting:index:getDataTransferUsage` (inputs `{ orderOid }`).
 */
export async function getDataTransferUsage(
  args: GetDataTransferUsageArgs,
): Promise<GetDataTransferUsageResult> {
  return callOrderDataSource("getDataTransferUsage", args, fetchDataTransferUsage);
}

/** getDataTransferUsage as an Output. */
export function getDataTransferUsageOutput(
  args: GetDataTransferUsageOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetDataTransferUsageResult> {
  return outputForm(args, opts, getDataTransferUsage);
}

async function fetchDataTransferUsage(
  client: RimuClient,
  args: GetOrderArgs,
): Promise<GetDataTransferUsageResult> {
  const response = await client.getDataTransferUsage(args.orderOid);
  return compact({
    orderOid: args.orderOid,
    usage: response.data_transfer_usage_info ?? {},
    runningState: response.running_vps_info?.running_state ?? undefined,
  });
}
