/**
 * The data sources' logic: one client call each, mapped from the wire (snake_case) to documented
 * camelCase results. The program-side wrappers in ../data-sources/ add configuration and the Output forms.
 */
import type { AboutOrder, DcLocation, NewVpsRequestInput, Timestamp, VpsType } from "../../contract/index.js";
import type { RimuClient } from "../client/index.js";
import { compact, isOrderGone, orderFields } from "./vps-outputs.js";

/** A pricing plan: a VPS size at a price (most memory/disk sizes above the minimums are also offered). */
export interface PricingPlan {
  /** The plan code, for Vps `pricingPlanCode`, e.g. `MIRO1B`. */
  code: string;
  /** Display name. */
  description: string;
  /** `VPS` or `PHYSICAL`. */
  serverType: string;
  /** Starting memory in MB. */
  minimumMemoryMb: number;
  /** Starting disk in GB. */
  minimumDiskGb: number;
  /** Base monthly fee in USD. */
  monthlyFeeUsd: number;
  /** Data centre code where the plan is offered, if the service says. */
  dcLocation?: string;
}
export interface GetPricingPlansArgs {
  /** `VPS` (default) or `PHYSICAL`. */
  serverType?: "VPS" | "PHYSICAL";
  /** Only plans offered in this data centre, e.g. `DCDALLAS`. */
  dcLocation?: string;
  /** Only plans cheaper than this many USD per month. */
  priceUnder?: number;
}
export interface GetPricingPlansResult {
  plans: PricingPlan[];
}

export async function fetchPricingPlans(
  client: RimuClient,
  args: GetPricingPlansArgs = {},
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
        monthlyFeeUsd: plan.monthly_recurring_fee ?? plan.monthly_recurring_amt?.amt_usd ?? 0,
      };
      const dc = plan.offered_at_data_center?.data_center_location_code;
      if (dc) mapped.dcLocation = dc;
      return mapped;
    }),
  };
}

/** A distribution offered for new VPSs. */
export interface Distribution {
  /** The code, for Vps `distro`, e.g. `deb12.64`. */
  code: string;
  description: string;
  /** Shown prominently on RimuHosting's order form. */
  isPromoted: boolean;
  /** RimuHosting's recommended choice. */
  isRecommended: boolean;
}
export interface GetDistributionsResult {
  distributions: Distribution[];
}

export async function fetchDistributions(client: RimuClient): Promise<GetDistributionsResult> {
  const response = await client.listDistributions();
  return {
    distributions: (response.distro_infos ?? []).map((distro) => ({
      code: distro.distro_code,
      description: distro.distro_description ?? "",
      isPromoted: distro.is_promoted ?? false,
      isRecommended: distro.is_recommended ?? false,
    })),
  };
}

/** A billing method on the account. */
export interface BillingMethod {
  /** The id, for Vps `billingOid`. */
  billingOid: number;
  /** `TS_CC` (card), `TS_PAYPAL`, `TS_BANK`, `TS_WIRE`, `TS_OTHER` or `TS_INVOICE`. */
  type?: string;
  /** Label; for cards it includes the masked number and expiry. */
  description: string;
  /** Active orders billed to it. */
  orderOids: number[];
}
export interface GetBillingMethodsResult {
  billingMethods: BillingMethod[];
}

export async function fetchBillingMethods(client: RimuClient): Promise<GetBillingMethodsResult> {
  const response = await client.listBillingMethods();
  return {
    billingMethods: (response.billing_methods ?? []).map((method) => {
      const mapped: BillingMethod = {
        billingOid: method.billing_oid,
        description: method.description ?? "",
        orderOids: (method.orders_on_this_billing_method ?? []).map((order) => order.order_oid),
      };
      if (method.billing_method_type) mapped.type = method.billing_method_type;
      return mapped;
    }),
  };
}

/** An order (VPS or dedicated server) as the account sees it. */
export interface Order {
  orderOid: number;
  /** Path segment of the order in the API, `order-<oid>-<domain>`. */
  slug: string;
  domainName: string;
  /** `VPS` or `PHYSICAL`. */
  serverType?: string;
  /** `RUNNING`, `NOTRUNNING`, `RESTARTING` or `POWERCYCLING`. */
  runningState?: string;
  /** True once the order is shut down and cancelled. */
  cancelled: boolean;
  /** When the order is (or was) cancelled, ISO-8601, if it is. */
  cancellationDate?: string;
  dcLocation?: string;
  distro?: string;
  hostServerOid?: string;
  memoryMb?: number;
  diskSpaceMb?: number;
  diskSpace2Mb?: number;
  primaryIp?: string;
  secondaryIps: string[];
  billingOid?: number;
  monthlyFeeUsd?: number;
  orderDescription?: string;
  /** The order's metadata (without the provider's creation token). */
  metaData: Record<string, string>;
}

function iso(timestamp: Timestamp | null | undefined): string | undefined {
  return timestamp?.iso_format ?? undefined;
}

export function toOrder(order: AboutOrder, now: number = Date.now()): Order {
  return compact({
    ...orderFields(order),
    serverType: order.server_type ?? undefined,
    cancelled: isOrderGone(order, now),
    cancellationDate: iso(order.billing_info?.cancellation_date),
  });
}

export interface GetOrdersArgs {
  /** Also list cancelled orders. Default false. */
  includeInactive?: boolean;
  /** Only `VPS` or only `PHYSICAL` orders. Default: both. */
  serverType?: "VPS" | "PHYSICAL";
}
export interface GetOrdersResult {
  orders: Order[];
}

export async function fetchOrders(client: RimuClient, args: GetOrdersArgs = {}): Promise<GetOrdersResult> {
  const filter: { includeInactive: boolean; serverType?: "VPS" | "PHYSICAL" } = {
    includeInactive: args.includeInactive ?? false,
  };
  if (args.serverType !== undefined) filter.serverType = args.serverType;
  const response = await client.listOrders(filter);
  return { orders: (response.about_orders ?? []).map((order) => toOrder(order)) };
}

export interface GetOrderArgs {
  /** The order oid (a Vps's `orderOid`). */
  orderOid: number;
}
export type GetOrderResult = Order;

export async function fetchOrder(client: RimuClient, args: GetOrderArgs): Promise<GetOrderResult> {
  return toOrder((await client.getOrder(args.orderOid)).about_order);
}

/** Live state of a VPS and its host. */
export interface GetVpsStatusResult {
  orderOid: number;
  runningState?: string;
  /** The VPS answers ping from its host. */
  pingsOk?: boolean;
  uptimeSeconds?: number;
  cpuTimeSeconds?: number;
  currentKernel?: string;
  isBackupsEnabled?: boolean;
  isBackupRunning?: boolean;
  /** Next expected backup, ISO-8601. */
  nextBackupTime?: string;
  isSuspended?: boolean;
  host: {
    cpuModelName?: string;
    numCores?: number;
    memFreeMb?: number;
    memTotalMb?: number;
    diskFreeGb?: number;
    /** Load averages. */
    load: number[];
    runningVpss?: number;
    uptimeSeconds?: number;
  };
}

export async function fetchVpsStatus(client: RimuClient, args: GetOrderArgs): Promise<GetVpsStatusResult> {
  const response = await client.getVpsStatus(args.orderOid);
  const info = response.running_vps_info;
  const host = response.host_server_info;
  return compact({
    orderOid: args.orderOid,
    runningState: info.running_state ?? undefined,
    pingsOk: info.pings_ok ?? undefined,
    uptimeSeconds: info.vps_uptime_s ?? undefined,
    cpuTimeSeconds: info.vps_cpu_time_s ?? undefined,
    currentKernel: info.current_kernel ?? undefined,
    isBackupsEnabled: info.is_backups_enabled ?? undefined,
    isBackupRunning: info.is_backup_running ?? undefined,
    nextBackupTime: iso(info.next_backup_time),
    isSuspended: info.is_suspended ?? undefined,
    host: compact({
      cpuModelName: host?.cpu_model_name ?? undefined,
      numCores: host?.host_num_cores ?? undefined,
      memFreeMb: host?.host_mem_mb_free ?? undefined,
      memTotalMb: host?.host_mem_mb_total ?? undefined,
      diskFreeGb: host?.host_disk_gb_free ?? undefined,
      load: host?.hostload ?? [],
      runningVpss: host?.running_vpss ?? undefined,
      uptimeSeconds: host?.host_uptime_s ?? undefined,
    }),
  });
}

export interface GetDataTransferUsageResult {
  orderOid: number;
  /**
   * The usage record exactly as the service sends it (field names are not documented by RimuHosting;
   * the emulator's fields are listed in the README).
   */
  usage: Record<string, unknown>;
  runningState?: string;
}

export async function fetchDataTransferUsage(
  client: RimuClient,
  args: GetOrderArgs,
): Promise<GetDataTransferUsageResult> {
  const response = await client.getDataTransferUsage(args.orderOid);
  return compact({
    orderOid: args.orderOid,
    usage: response.data_transfer_usage_info ?? {},
    runningState: response.running_vps_info?.running_state ?? undefined,
  });
}

/** A data centre enabled for new VPSs. */
export interface DataCenter {
  /** The code, for Vps `dcLocation`, e.g. `DCDALLAS`. */
  code: string;
  name: string;
  /** ISO country code, e.g. `US`. */
  countryCode?: string;
}
export interface GetDataCentersResult {
  dataCenters: DataCenter[];
}

export async function fetchDataCenters(client: RimuClient): Promise<GetDataCentersResult> {
  const response = await client.listDataCenters();
  return {
    dataCenters: (response.data_center_infos ?? []).map((dc) =>
      compact({
        code: dc.data_center_location_code,
        name: dc.data_center_location_name ?? dc.data_center_location_code,
        countryCode: dc.data_center_location_country_2ltr ?? undefined,
      }),
    ),
  };
}

/** A prospective VPS to price; the same names as the Vps inputs. */
export interface GetPriceQuoteArgs {
  pricingPlanCode?: string;
  dcLocation?: DcLocation;
  memoryMb?: number;
  diskSpaceMb?: number;
  diskSpace2Mb?: number;
  vpsType?: VpsType;
  distro?: string;
}
export interface GetPriceQuoteResult {
  /** Monthly price in the quote's currency. */
  monthlyAmount: number;
  /** `CUR_USD`, `CUR_AUD`, ... */
  currency?: string;
  /** Monthly price in USD. */
  monthlyFeeUsd?: number;
  /** The service's explanation, e.g. "The price for 1024MB memory and 8GB disk in Dallas is …". */
  message?: string;
}

export async function fetchPriceQuote(
  client: RimuClient,
  args: GetPriceQuoteArgs,
): Promise<GetPriceQuoteResult> {
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
    monthlyFeeUsd: amount?.amt_usd ?? (amount?.currency === "CUR_USD" ? amount.amt : undefined),
    message: response.human_readable_message ?? undefined,
  });
}
