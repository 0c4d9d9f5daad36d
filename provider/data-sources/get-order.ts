/** getOrder / getOrderOutput: one order by oid. */
import type * as pulumi from "@pulumi/pulumi";
import { fetchOrder, type GetOrderArgs, type GetOrderResult } from "../impl/data-sources.js";
import {
  assertOrderOid,
  outputForm,
  programClient,
  type DataSourceOutputOptions,
  type Inputs,
} from "./program-client.js";

export type { GetOrderArgs, GetOrderResult } from "../impl/data-sources.js";
/** getOrderOutput's args: the order oid may be an Input (e.g. a Vps's orderOid). */
export type GetOrderOutputArgs = Inputs<GetOrderArgs>;

/** Reads one order (also a cancelled one). Needs the API key. */
export async function getOrder(args: GetOrderArgs): Promise<GetOrderResult> {
  assertOrderOid("getOrder", args?.orderOid);
  return fetchOrder(programClient("getOrder", true), args);
}

/** getOrder as an Output. */
export function getOrderOutput(
  args: GetOrderOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetOrderResult> {
  return outputForm(args, opts, getOrder);
}
