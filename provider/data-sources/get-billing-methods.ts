/** getBillingMethods / getBillingMethodsOutput: the account's billing methods. */
import type * as pulumi from "@pulumi/pulumi";
import { fetchBillingMethods, type GetBillingMethodsResult } from "../impl/data-sources.js";
import { outputForm, programClient, type DataSourceOutputOptions } from "./program-client.js";

export type { GetBillingMethodsResult, BillingMethod } from "../impl/data-sources.js";

/** Lists the billing methods on the account, with the orders billed to each. Needs the API key. */
export async function getBillingMethods(): Promise<GetBillingMethodsResult> {
  return fetchBillingMethods(programClient("getBillingMethods", true));
}

/** getBillingMethods as an Output. */
export function getBillingMethodsOutput(
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetBillingMethodsResult> {
  return outputForm<Record<string, never>, GetBillingMethodsResult>(undefined, opts, () =>
    getBillingMethods(),
  );
}
