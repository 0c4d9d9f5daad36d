/** getOrder / getOrderOutput: one order by oid. */
import type * as pulumi from "@pulumi/pulumi";
import { fetchOrder, type GetOrderArgs, type GetOrderResult } from "../impl/data-sources.js";
import { orderClient, outputForm, type DataSourceOutputOptions, type Inputs } from "./program-client.js";

export type { GetOrderArgs, GetOrderResult } from "../impl/data-sources.js";
/** getOrderOutput's args: the order oid may be an Input (e.g. a Vps's orderOid). */
export type GetOrderOutputArgs = Inputs<GetOrderArgs>;

/** Reads one order (also a cancelled one). Needs the API key. */
export async function getOrder(args: GetOrderArgs): Promise<GetOrderResult> {
  return fetchOrder(orderClient("getOrder", args), args);
}

/** getOrder as an Output. */
export function getOrderOutput(
  args: GetOrderOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetOrderResult> {
  return outputForm(args, opts, getOrder);
}
