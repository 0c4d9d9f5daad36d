/** getDataCenters / getDataCentersOutput: data centres enabled for new VPSs. */
import type * as pulumi from "@pulumi/pulumi";
import { fetchDataCenters, type GetDataCentersResult } from "../impl/data-sources.js";
import { outputForm, programClient, type DataSourceOutputOptions } from "./program-client.js";

export type { GetDataCentersResult, DataCenter } from "../impl/data-sources.js";

/** Lists the data centres where new VPSs can be set up (not a capacity guarantee). Needs no API key. */
export async function getDataCenters(): Promise<GetDataCentersResult> {
  return fetchDataCenters(programClient("getDataCenters", false));
}

/** getDataCenters as an Output. */
export function getDataCentersOutput(opts?: DataSourceOutputOptions): pulumi.Output<GetDataCentersResult> {
  return outputForm<Record<string, never>, GetDataCentersResult>(undefined, opts, () => getDataCenters());
}
