/** getOrders / getOrdersOutput: the account's orders (VPSs and dedicated servers). */
import type * as pulumi from "@pulumi/pulumi";
import { fetchOrders, type GetOrdersArgs, type GetOrdersResult } from "../impl/data-sources.js";
import { outputForm, programClient, type DataSourceOutputOptions, type Inputs } from "./program-client.js";

export type { GetOrdersArgs, GetOrdersResult, Order } from "../impl/data-sources.js";
/** getOrdersOutput's args: the same fields, each may be an Input. */
export type GetOrdersOutputArgs = Inputs<GetOrdersArgs>;

/** Lists the account's orders; active ones only unless includeInactive. Needs the API key. */
export async function getOrders(args: GetOrdersArgs = {}): Promise<GetOrdersResult> {
  return fetchOrders(programClient("getOrders", true), args);
}

/** getOrders as an Output. */
export function getOrdersOutput(
  args?: GetOrdersOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetOrdersResult> {
  return outputForm(args, opts, getOrders);
}
