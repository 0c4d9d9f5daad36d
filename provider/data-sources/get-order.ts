/** getOrder / getOrderOutput: one order by oid; and the Order shape getOrders lists. */
import type * as pulumi from "@pulumi/pulumi";
import type { AboutOrder } from "../../contract/index.js";
import type { RimuClient } from "../client/index.js";
import { outputForm, type DataSourceOutputOptions, type Inputs } from "./output-form.js";
import { callOrderDataSource } from "./program-client.js";
import { isOrderGone, orderFields } from "../wire-mapping/order-fields.js";
import { compact } from "../wire-mapping/values.js";

/** An order (VPS or dedicated server) as the account sees it. */
export interface Order {
  /**
   * The order oid (a Vps's `orderOid`).
   * @default always set
   * @integer
   */
  orderOid: number;
  /**
   * Path segment of the order in the API, `order-<oid>-<domain>`.
   * @default always set
   */
  slug: string;
  /**
   * The server's domain name.
   * @default always set
   */
  domainName: string;
  /**
   * `VPS` or `PHYSICAL`.
   * @default undefined when the service does not say
   */
  serverType?: string;
  /**
   * `RUNNING`, `NOTRUNNING`, `RESTARTING` or `POWERCYCLING`.
   * @default undefined when the service does not say
   */
  runningState?: string;
  /**
   * True once the order is shut down and cancelled.
   * @default false
   */
  cancelled: boolean;
  /**
   * When the order is (or was) cancelled, ISO-8601.
   * @default undefined unless a cancellation is scheduled or done
   */
  cancellationDate?: string;
  /**
   * Data centre code, e.g. `DCDALLAS`.
   * @default undefined when the service does not say
   */
  dcLocation?: string;
  /**
   * Distribution code, e.g. `deb12.64`.
   * @default undefined when the service does not say
   */
  distro?: string;
  /**
   * The host server the VPS runs on.
   * @default undefined when the service does not say
   */
  hostServerOid?: string;
  /**
   * Memory in MB.
   * @default undefined when the service does not say
   * @integer
   */
  memoryMb?: number;
  /**
   * First disk in MB.
   * @default undefined when the service does not say
   * @integer
   */
  diskSpaceMb?: number;
  /**
   * Second disk in MB.
   * @default undefined when the order has none or the service does not say
   * @integer
   */
  diskSpace2Mb?: number;
  /**
   * Primary IPv4 address.
   * @default undefined until one is allocated
   */
  primaryIp?: string;
  /**
   * Further IPv4 addresses.
   * @default []
   */
  secondaryIps: string[];
  /**
   * The billing method the order is billed to.
   * @default undefined when the service does not say
   * @integer
   */
  billingOid?: number;
  /**
   * Monthly fee in USD.
   * @default undefined when the service does not say
   */
  monthlyFeeUsd?: number;
  /**
   * The service's description of the order.
   * @default undefined when the service gives none
   */
  orderDescription?: string;
  /**
   * The order's metadata (without the provider's creation token).
   * @default {}
   */
  metaData: Record<string, string>;
}

/** getOrder's args. */
export interface GetOrderArgs {
  /**
   * The order oid (a Vps's `orderOid`): a positive whole number.
   * @default required
   * @integer
   */
  orderOid: number;
}

/** getOrder's result: the order. */
export type GetOrderResult = Order;

/** getOrderOutput's args: the order oid may be an Input (e.g. a Vps's orderOid). */
export type GetOrderOutputArgs = Inputs<GetOrderArgs>;

/**
 * Reads one order (also a cancelled one). Needs the API key.
 * Mock token: `rimuhosting:index:getOrder` (inputs `{ orderOid }`).
 */
export async function getOrder(args: GetOrderArgs): Promise<GetOrderResult> {
  return callOrderDataSource("getOrder", args, fetchOrder);
}

/** getOrder as an Output. */
export function getOrderOutput(
  args: GetOrderOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetOrderResult> {
  return outputForm(args, opts, getOrder);
}

async function fetchOrder(client: RimuClient, args: GetOrderArgs): Promise<GetOrderResult> {
  return toOrder((await client.getOrder(args.orderOid)).about_order);
}

/** An order from the wire (snake_case) to the documented camelCase shape (also getOrders's entries). */
export function toOrder(order: AboutOrder, now: number = Date.now()): Order {
  return compact({
    ...orderFields(order),
    serverType: order.server_type ?? undefined,
    cancelled: isOrderGone(order, now),
  });
}
