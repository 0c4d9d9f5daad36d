/** getPricingPlans / getPricingPlansOutput: RimuHosting's pricing plans (VPS sizes and prices). */
import type * as pulumi from "@pulumi/pulumi";
import {
  fetchPricingPlans,
  type GetPricingPlansArgs,
  type GetPricingPlansResult,
} from "../impl/data-sources.js";
import { outputForm, programClient, type DataSourceOutputOptions, type Inputs } from "./program-client.js";

export type { GetPricingPlansArgs, GetPricingPlansResult, PricingPlan } from "../impl/data-sources.js";
/** getPricingPlansOutput's args: the same fields, each may be an Input. */
export type GetPricingPlansOutputArgs = Inputs<GetPricingPlansArgs>;

/** Lists the pricing plans (VPS plans by default). Needs no API key. */
export async function getPricingPlans(args: GetPricingPlansArgs = {}): Promise<GetPricingPlansResult> {
  return fetchPricingPlans(programClient("getPricingPlans", false), args);
}

/** getPricingPlans as an Output, for args that are Outputs. */
export function getPricingPlansOutput(
  args?: GetPricingPlansOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetPricingPlansResult> {
  return outputForm(args, opts, getPricingPlans);
}
