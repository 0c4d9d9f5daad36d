/** getPricingPlans / getPricingPlansOutput: RimuHosting's pricing plans (VPS sizes and prices). */
import type * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import { outputForm, type DataSourceOutputOptions, type Inputs } from "./output-form.js";
import { callDataSource } from "./program-client.js";
import { monthlyFeeUsd } from "../wire-mapping/values.js";

/** A pricing plan: a VPS size at a price (most memory/disk sizes above the minimums are also offered). */
export interface PricingPlan {
  /**
   * The plan code, for Vps `pricingPlanCode`, e.g. `MIRO1B`.
   * @default always set
   */
  code: string;
  /**
   * Display name.
   * @default "" when the service gives none
   */
  description: string;
  /**
   * `VPS` or `PHYSICAL` (a dedicated server).
   * @default "VPS" when the service does not say
   */
  serverType: string;
  /**
   * Starting memory in MB.
   * @default 0 when the service does not say
   * @integer
   */
  minimumMemoryMb: number;
  /**
   * Starting disk in GB.
   * @default 0 when the service does not say
   */
  minimumDiskGb: number;
  /**
   * Base monthly fee in USD.
   * @default undefined when the service gives no USD price (a plan priced in another currency only)
   */
  monthlyFeeUsd?: number;
  /**
   * Data centre code where the plan is offered, e.g. `DCDALLAS`.
   * @default undefined when the service does not say
   */
  dcLocation?: string;
}

/** getPricingPlans's filters. */
export interface GetPricingPlansArgs {
  /**
   * `VPS` plans or `PHYSICAL` (dedicated server) plans.
   * @default "VPS"
   */
  serverType?: "VPS" | "PHYSICAL";
  /**
   * Only plans offered in this data centre, e.g. `DCDALLAS`.
   * @default every data centre
   */
  dcLocation?: string;
  /**
   * Only plans cheaper than this many USD per month.
   * @default no price limit
   */
  priceUnder?: number;
}

/** getPricingPlans's result. */
export interface GetPricingPlansResult {
  /**
   * The plans that pass the filters, in the service's order.
   * @default [] when none do
   */
  plans: PricingPlan[];
}

/** getPricingPlansOutput's args: the same fields, each may be an Input. */
export type GetPricingPlansOutputArgs = Inputs<GetPricingPlansArgs>;

/**
 * Lists the pricing plans (VPS plans by default). Needs no API key.
 * Mock token: `rimuhosting:index:getPricingPlans`.
 */
export async function getPricingPlans(args: GetPricingPlansArgs = {}): Promise<GetPricingPlansResult> {
  return callDataSource("getPricingPlans", args, false, fetchPricingPlans);
}

/** getPricingPlans as an Output, for args that are Outputs. */
export function getPricingPlansOutput(
  args?: GetPricingPlansOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetPricingPlansResult> {
  return outputForm(args, opts, getPricingPlans);
}

async function fetchPricingPlans(
  client: RimuClient,
  args: GetPricingPlansArgs,
): Promise<GetPricingPlansResult> {
  const filter: GetPricingPlansArgs = { serverType: args.serverType ?? "VPS" };
  if (args.dcLocation !== undefined) filter.dcLocation = args.dcLocation;
  if (args.priceUnder !== undefined) filter.priceUnder = args.priceUnder;
  const response = await client.listPricingPlans(filter);
  return {
    plans: (response.pricing_plan_infos ?? []).map((plan) => {
      const mapped: PricingPlan = {
        code: plan.pricing_plan_code,
        description: plan.pricing_plan_description ?? "",
        serverType: plan.server_type ?? "VPS",
        minimumMemoryMb: plan.minimum_memory_mb ?? 0,
        minimumDiskGb: plan.minimum_disk_gb ?? 0,
      };
      const usd = monthlyFeeUsd(plan);
      if (usd !== undefined) mapped.monthlyFeeUsd = usd;
      const dc = plan.offered_at_data_center?.data_center_location_code;
      if (dc) mapped.dcLocation = dc;
      return mapped;
    }),
  };
}
