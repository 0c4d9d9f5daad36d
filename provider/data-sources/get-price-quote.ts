/** getPriceQuote / getPriceQuoteOutput: the monthly price of a prospective VPS, without ordering it. */
import type * as pulumi from "@pulumi/pulumi";
import { fetchPriceQuote, type GetPriceQuoteArgs, type GetPriceQuoteResult } from "../impl/data-sources.js";
import { outputForm, programClient, type DataSourceOutputOptions, type Inputs } from "./program-client.js";

export type { GetPriceQuoteArgs, GetPriceQuoteResult } from "../impl/data-sources.js";
/** getPriceQuoteOutput's args: the same fields, each may be an Input. */
export type GetPriceQuoteOutputArgs = Inputs<GetPriceQuoteArgs>;

/** Quotes the monthly price of a VPS with these sizes, plan and location. Nothing is ordered. */
export async function getPriceQuote(args: GetPriceQuoteArgs = {}): Promise<GetPriceQuoteResult> {
  return fetchPriceQuote(programClient("getPriceQuote", false), args);
}

/** getPriceQuote as an Output. */
export function getPriceQuoteOutput(
  args?: GetPriceQuoteOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetPriceQuoteResult> {
  return outputForm(args, opts, getPriceQuote);
}
