/** getVpsStatus / getVpsStatusOutput: live state of a VPS and its host server. */
import type * as pulumi from "@pulumi/pulumi";
import { fetchVpsStatus, type GetOrderArgs, type GetVpsStatusResult } from "../impl/data-sources.js";
import { orderClient, outputForm, type DataSourceOutputOptions, type Inputs } from "./program-client.js";

export type { GetVpsStatusResult } from "../impl/data-sources.js";
/** getVpsStatus's args: the VPS's order oid. */
export type GetVpsStatusArgs = GetOrderArgs;
/** getVpsStatusOutput's args: the order oid may be an Input. */
export type GetVpsStatusOutputArgs = Inputs<GetVpsStatusArgs>;

/** Reads the live status of a VPS (power, ping, uptime, backups) and its host (load, free memory and disk). Needs the API key. */
export async function getVpsStatus(args: GetVpsStatusArgs): Promise<GetVpsStatusResult> {
  return fetchVpsStatus(orderClient("getVpsStatus", args), args);
}

/** getVpsStatus as an Output. */
export function getVpsStatusOutput(
  args: GetVpsStatusOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetVpsStatusResult> {
  return outputForm(args, opts, getVpsStatus);
}
