/** getOrders / getOrdersOutput: the account's orders (VPSs and dedicated servers). */
import type * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import { toOrder, type Order } from "./get-order.js";
import { outputForm, type DataSourceOutputOptions, type Inputs } from "./output-form.js";
import { callDataSource } from "./program-client.js";

/** getOrders's filters. */
export interface GetOrdersArgs {
  /**
   * Also list cancelled orders.
   * @default false
   */
  includeInactive?: boolean;
  /**
   * Only `VPS` or only `PHYSICAL` orders.
   * @default both
   */
  serverType?: "VPS" | "PHYSICAL";
}

/** getOrders's result. */
export interface GetOrdersResult {
  /**
   * The orders that pass the filters.
   * @default [] when there are none
   */
  orders: Order[];
}

/** getOrdersOutput's args: the same fields, each may be an Input. */
export type GetOrdersOutputArgs = Inputs<GetOrdersArgs>;

/**
 * Lists the account's orders; active ones only unless includeInactive. Needs the API key.
 * Mock token: `rimuhosting:index:getOrders`.
 */
export async function getOrders(args: GetOrdersArgs = {}): Promise<GetOrdersResult> {
  return callDataSource("getOrders", args, true, fetchOrders);
}

/** getOrders as an Output. */
export function getOrdersOutput(
  args?: GetOrdersOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetOrdersResult> {
  return outputForm(args, opts, getOrders);
}

async function fetchOrders(client: RimuClient, args: GetOrdersArgs): Promise<GetOrdersResult> {
  const filter: { includeInactive: boolean; serverType?: "VPS" | "PHYSICAL" } = {
    includeInactive: args.includeInactive ?? false,
  };
  if (args.serverType !== undefined) filter.serverType = args.serverType;
  const response = await client.listOrders(filter);
  return { orders: (response.about_orders ?? []).map((order) => toOrder(order)) };
}
