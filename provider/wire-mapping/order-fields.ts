/**
 * An order from the wire (AboutOrder, snake_case) to camelCase: the one mapping of an order, shared by
 * the Vps outputs (impl/inputs/vps-outputs.ts) and the getOrder/getOrders data sources. Loads no HTTP client
 * and no zod (type imports only), so the data sources import it directly.
 */
import type { AboutOrder } from "../../contract/index.js";
import { PROVIDER_META_PREFIX } from "../client/metadata-keys.js";
import { isoTime, monthlyFeeUsd } from "./values.js";

/** The user's metadata on an order, without the provider's own keys (creation token and nonce). */
function userMetaData(order: AboutOrder): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const entry of order.meta_data ?? []) {
    if (!entry.key_name.startsWith(PROVIDER_META_PREFIX)) meta[entry.key_name] = entry.value ?? "";
  }
  return meta;
}

/**
 * The fields of an order the service reports, camelCase: the one wire-to-camelCase mapping of an order,
 * shared by the Vps outputs and the getOrder/getOrders data sources. Absent values are undefined.
 */
export function orderFields(order: AboutOrder) {
  const params = order.vps_parameters;
  const ips = order.allocated_ips;
  return {
    orderOid: order.order_oid,
    slug: order.slug,
    domainName: order.domain_name,
    distro: order.distro ?? undefined,
    dcLocation: order.location?.data_center_location_code ?? undefined,
    memoryMb: params?.memory_mb ?? undefined,
    diskSpaceMb: params?.disk_space_mb ?? undefined,
    diskSpace2Mb: params?.disk_space_2_mb ?? undefined,
    billingOid: order.billing_oid ?? undefined,
    hostServerOid: order.host_server_oid ?? undefined,
    runningState: order.running_state ?? undefined,
    metaData: userMetaData(order),
    primaryIp: ips?.primary_ip ?? undefined,
    secondaryIps: ips?.secondary_ips ?? [],
    monthlyFeeUsd: monthlyFeeUsd(order.billing_info),
    // Set by R3 PUT …/cancelled for the end of the billing period (the VPS runs until then), or by R6 DELETE.
    cancellationDate: isoTime(order.billing_info?.cancellation_date),
    orderDescription: order.order_description ?? undefined,
  };
}

/** True when the order has been shut down and cancelled (DELETE …/vps), not merely scheduled to cancel. */
export function isOrderGone(order: AboutOrder, now: number): boolean {
  if (order.deployed_state === "REMOVED") return true;
  const cancellation = order.billing_info?.cancellation_date;
  if (!cancellation) return false;
  return cancellation.ms_since_epoch <= now || order.running_state === "NOTRUNNING";
}
