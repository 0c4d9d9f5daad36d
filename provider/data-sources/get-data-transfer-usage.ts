/** getDataTransferUsage / getDataTransferUsageOutput: a VPS's data-transfer usage. */
import type * as pulumi from "@pulumi/pulumi";
import {
  fetchDataTransferUsage,
  type GetDataTransferUsageResult,
  type GetOrderArgs,
} from "../impl/data-sources.js";
import { orderClient, outputForm, type DataSourceOutputOptions, type Inputs } from "./program-client.js";

export type { GetDataTransferUsageResult } from "../impl/data-sources.js";
/** getDataTransferUsage's args: the VPS's order oid. */
export type GetDataTransferUsageArgs = GetOrderArgs;
/** getDataTransferUsageOutput's args: the order oid may be an Input. */
export type GetDataTransferUsageOutputArgs = Inputs<GetDataTransferUsageArgs>;

/** Reads the data-transfer usage of a VPS for this and last month (slower than getVpsStatus). Needs the API key. */
export async function getDataTransferUsage(
  args: GetDataTransferUsageArgs,
): Promise<GetDataTransferUsageResult> {
  return fetchDataTransferUsage(orderClient("getDataTransferUsage", args), args);
}

/** getDataTransferUsage as an Output. */
export function getDataTransferUsageOutput(
  args: GetDataTransferUsageOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetDataTransferUsageResult> {
  return outputForm(args, opts, getDataTransferUsage);
}
