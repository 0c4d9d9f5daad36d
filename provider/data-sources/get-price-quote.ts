/** getPriceQuote / getPriceQuoteOutput: the monthly price of a prospective VPS, without ordering it. */
import type * as pulumi from "@pulumi/pulumi";
import type { NewVpsRequestInput } from "../../contract/index.js";
import type { DcLocation, VpsType } from "../../contract/literals.js";
import type { RimuClient } from "../client/index.js";
import { outputForm, type DataSourceOutputOptions, type Inputs } from "./output-form.js";
import { callDataSource } from "./program-client.js";
import { amountUsd, compact } from "../wire-mapping/values.js";

/** A prospective VPS to price; the same names and meanings as the Vps inputs. */
export interface GetPriceQuoteArgs {
  /**
   * Pricing plan code, e.g. `MIRO1B` (from getPricingPlans).
   * @default the service's default plan
   */
  pricingPlanCode?: string;
  /**
   * Data centre code, e.g. `DCDALLAS`.
   * @default the service's default data centre
   */
  dcLocation?: DcLocation;
  /**
   * Memory in MB.
   * @default the plan's minimum
   * @integer
   */
  memoryMb?: number;
  /**
   * First disk in MB.
   * @default the plan's minimum
   * @integer
   */
  diskSpaceMb?: number;
  /**
   * Second disk in MB.
   * @default no second disk
   * @integer
   */
  diskSpace2Mb?: number;
  /**
   * VPS class: `LOW_CONTENTION`, `REGULAR` or `DEDICATED`.
   * @default the service's default class
   */
  vpsType?: VpsType;
  /**
   * Distribution code, e.g. `deb12.64`.
   * @default the service's default distribution
   */
  distro?: string;
}

/** getPriceQuote's result. */
export interface GetPriceQuoteResult {
  /**
   * Monthly price in the quote's currency.
   * @default 0 when the service gives no amount
   */
  monthlyAmount: number;
  /**
   * `CUR_USD`, `CUR_AUD`, ...
   * @default undefined when the service does not say
   */
  currency?: string;
  /**
   * Monthly price in USD.
   * @default the amount when the currency is USD, else undefined when the service does not say
   */
  monthlyFeeUsd?: number;
  /**
   * The service's explanation, e.g. "The price for 1024MB memory and 8GB disk in Dallas is …".
   * @default undefined when the service gives none
   */
  message?: string;
}

/** getPriceQuoteOutput's args: the same fields, each may be an Input. */
export type GetPriceQuoteOutputArgs = Inputs<GetPriceQuoteArgs>;

/**
 * Quotes the monthly price of a VPS with these sizes, plan and location. Nothing is ordered; needs no
 * API key. Mock token: `rimuhosting:index:getPriceQuote`.
 */
export async function getPriceQuote(args: GetPriceQuoteArgs = {}): Promise<GetPriceQuoteResult> {
  return callDataSource("getPriceQuote", args, false, fetchPriceQuote);
}

/** getPriceQuote as an Output. */
export function getPriceQuoteOutput(
  args?: GetPriceQuoteOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetPriceQuoteResult> {
  return outputForm(args, opts, getPriceQuote);
}

async function fetchPriceQuote(client: RimuClient, args: GetPriceQuoteArgs): Promise<GetPriceQuoteResult> {
  const request: NewVpsRequestInput = {
    instantiation_options: args.distro === undefined ? undefined : { distro: args.distro },
    pricing_plan_code: args.pricingPlanCode,
    dc_location: args.dcLocation,
    vps_type: args.vpsType,
    vps_parameters: {
      memory_mb: args.memoryMb,
      disk_space_mb: args.diskSpaceMb,
      disk_space_2_mb: args.diskSpace2Mb,
    },
  };
  const response = await client.quoteNewVm(request);
  const amount = response.monthly_recurring_amt;
  return compact({
    monthlyAmount: amount?.amt ?? 0,
    currency: amount?.currency ?? undefined,
    monthlyFeeUsd: amountUsd(amount),
    message: response.human_readable_message ?? undefined,
  });
}
