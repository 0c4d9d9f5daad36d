/** getDistributions / getDistributionsOutput: the distributions offered for new VPSs. */
import type * as pulumi from "@pulumi/pulumi";
import { fetchDistributions, type GetDistributionsResult } from "../impl/data-sources.js";
import { outputForm, programClient, type DataSourceOutputOptions } from "./program-client.js";

export type { GetDistributionsResult, Distribution } from "../impl/data-sources.js";

/** Lists the distributions offered on new orders (older ones still work but are not listed). Needs no API key. */
export async function getDistributions(): Promise<GetDistributionsResult> {
  return fetchDistributions(programClient("getDistributions", false));
}

/** getDistributions as an Output (e.g. to wait for other resources with dependsOn). */
export function getDistributionsOutput(
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetDistributionsResult> {
  return outputForm<Record<string, never>, GetDistributionsResult>(undefined, opts, () => getDistributions());
}
