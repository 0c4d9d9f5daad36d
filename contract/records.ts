/**
 * The records of docs/rimuhosting-api.md §3 (orders, billing, VPS live data, catalog).
 * Snake_case field names exactly as on the wire. Types come from z.infer under the same name.
 */
import * as z from "zod";
import { Amount, Timestamp } from "./common.js";
import { BillingMethodType, RunningState, ServerType } from "./enums.js";

/** AllocatedIPs (§3.4). */
export const AllocatedIps = z.looseObject({
  primary_ip: z.string().nullish(),
  secondary_ips: z.array(z.string()).nullish(),
});
export type AllocatedIps = z.infer<typeof AllocatedIps>;

/** AboutBillingData (§3.5). */
export const AboutBillingData = z.looseObject({
  monthly_recurring_fee: z.number().nullish(),
  monthly_recurring_amt: Amount.nullish(),
  order_date: Timestamp.nullish(),
  cancellation_date: Timestamp.nullish(),
  prepaid_until: Timestamp.nullish(),
  suspended_date: Timestamp.nullish(),
});
export type AboutBillingData = z.infer<typeof AboutBillingData>;

/** DataLocationInfo (§3.7). Codes are the DcLocation values, kept as strings so new codes never break a client. */
export const DataLocationInfo = z.looseObject({
  data_center_location_code: z.string(),
  data_center_location_name: z.string().nullish(),
  data_center_location_country_2ltr: z.string().nullish(),
});
export type DataLocationInfo = z.infer<typeof DataLocationInfo>;

/** DataTransferAllocationData (§3.8). */
export const DataTransferAllocationData = z.looseObject({
  data_transfer_gb: z.number().nullish(),
  data_transfer: z.string().nullish(),
});
export type DataTransferAllocationData = z.infer<typeof DataTransferAllocationData>;

/** RunningVPSData (§3.16) as the server reports it: totals in MB; unspecified sizes are null. */
export const RunningVpsData = z.looseObject({
  memory_mb: z.number().nullish(),
  disk_space_mb: z.number().nullish(),
  disk_space_2_mb: z.number().nullish(),
  disk_space_3_mb: z.number().nullish(),
});
export type RunningVpsData = z.infer<typeof RunningVpsData>;

/** KeyValueMetaData (§3.14): user metadata on an order, searchable with `meta_search`. */
export const KeyValueMetaData = z.looseObject({
  key_name: z.string(),
  value: z.string().nullish(),
});
export type KeyValueMetaData = z.infer<typeof KeyValueMetaData>;

/** AboutOrder (§3.3): the database view of an order. */
export const AboutOrder = z.looseObject({
  order_oid: z.number().int(),
  domain_name: z.string(),
  slug: z.string(),
  billing_oid: z.number().nullish(),
  billing_info: AboutBillingData.nullish(),
  allocated_ips: AllocatedIps.nullish(),
  data_transfer_allowance: DataTransferAllocationData.nullish(),
  distro: z.string().nullish(),
  host_server_oid: z.string().nullish(),
  is_on_customers_own_physical_server: z.boolean().nullish(),
  location: DataLocationInfo.nullish(),
  meta_data: z.array(KeyValueMetaData).nullish(),
  order_description: z.string().nullish(),
  running_state: RunningState.nullish(),
  server_type: ServerType.nullish(),
  vps_parameters: RunningVpsData.nullish(),
  deployed_state: z.string().nullish(),
});
export type AboutOrder = z.infer<typeof AboutOrder>;

/** RunningVPSInfo (§3.17): live data from the host. */
export const RunningVpsInfo = z.looseObject({
  running_state: RunningState.nullish(),
  pings_ok: z.boolean().nullish(),
  current_kernel: z.string().nullish(),
  current_kernel_canonical: z.string().nullish(),
  is_console_login_enabled: z.boolean().nullish(),
  console_public_authorized_keys: z.string().nullish(),
  is_backups_enabled: z.boolean().nullish(),
  is_backup_running: z.boolean().nullish(),
  last_backup_message: z.string().nullish(),
  next_backup_time: Timestamp.nullish(),
  is_suspended: z.boolean().nullish(),
  vps_uptime_s: z.number().nullish(),
  vps_cpu_time_s: z.number().nullish(),
  deployed_state: z.string().nullish(),
});
export type RunningVpsInfo = z.infer<typeof RunningVpsInfo>;

/**
 * HostServerInfo (§3.18). `host_disk_gb_free` is (inferred): the interface says host info includes
 * free disk space, but no recorded response names the field.
 */
export const HostServerInfo = z.looseObject({
  cpu_model_name: z.string().nullish(),
  default_kernel_i386: z.string().nullish(),
  default_kernel_x86_64: z.string().nullish(),
  host_mem_mb_free: z.number().nullish(),
  host_mem_mb_total: z.number().nullish(),
  host_disk_gb_free: z.number().nullish(),
  host_num_cores: z.number().nullish(),
  host_uptime_s: z.number().nullish(),
  host_xen_version: z.string().nullish(),
  hostload: z.array(z.number()).nullish(),
  is_host64_bit_capable: z.boolean().nullish(),
  running_vpss: z.number().nullish(),
});
export type HostServerInfo = z.infer<typeof HostServerInfo>;

/**
 * Money in ResourceChangeResult: a 2010 recording has `{amt, cur}`, jclouds typed it as a
 * double (§3.19, §6 item 12). Accept both.
 */
export const ChangePricing = z.union([
  z.number(),
  z.looseObject({ amt: z.number(), cur: z.string().nullish(), currency: z.string().nullish() }),
]);
export type ChangePricing = z.infer<typeof ChangePricing>;

/** ResourceChangeResult (§3.19). */
export const ResourceChangeResult = z.looseObject({
  were_resources_changed: z.boolean(),
  original_pricing: ChangePricing.nullish(),
  new_pricing: ChangePricing.nullish(),
  resource_change_messages: z.array(z.string()).nullish(),
});
export type ResourceChangeResult = z.infer<typeof ResourceChangeResult>;

/** PricingPlanInfo (§3.20). */
export const PricingPlanInfo = z.looseObject({
  pricing_plan_code: z.string(),
  pricing_plan_description: z.string().nullish(),
  server_type: ServerType.nullish(),
  minimum_memory_mb: z.number().nullish(),
  minimum_disk_gb: z.number().nullish(),
  minimum_data_transfer_allowance_gb: z.number().nullish(),
  monthly_recurring_fee: z.number().nullish(),
  monthly_recurring_amt: Amount.nullish(),
  offered_at_data_center: DataLocationInfo.nullish(),
  see_also_url: z.string().nullish(),
});
export type PricingPlanInfo = z.infer<typeof PricingPlanInfo>;

/** DistroInfo (§3.21). */
export const DistroInfo = z.looseObject({
  distro_code: z.string(),
  distro_description: z.string().nullish(),
  is_promoted: z.boolean().nullish(),
  is_recommended: z.boolean().nullish(),
});
export type DistroInfo = z.infer<typeof DistroInfo>;

/** OrderBeingBilled (§3.23). */
export const OrderBeingBilled = z.looseObject({
  order_oid: z.number().int(),
  domain_name: z.string().nullish(),
  slug: z.string().nullish(),
  about_billing: AboutBillingData.nullish(),
});
export type OrderBeingBilled = z.infer<typeof OrderBeingBilled>;

/** BillingMethodData (§3.22). */
export const BillingMethodData = z.looseObject({
  billing_oid: z.number().int(),
  billing_method_type: BillingMethodType.nullish(),
  description: z.string().nullish(),
  orders_on_this_billing_method: z.array(OrderBeingBilled).nullish(),
});
export type BillingMethodData = z.infer<typeof BillingMethodData>;

/**
 * DataTransferUsageInfo (§3.24). Its field names are not known from any source, so clients treat
 * it as an opaque object. The emulator's own fields are in docs/emulator.md
 * ("Where the emulator guesses").
 */
export const DataTransferUsageInfo = z.record(z.string(), z.unknown());
export type DataTransferUsageInfo = z.infer<typeof DataTransferUsageInfo>;

/** OrderFilter / PlanFilter (§3.25): echo of the applied filter; field names unknown, kept opaque. */
export const FilterEcho = z.record(z.string(), z.unknown());
export type FilterEcho = z.infer<typeof FilterEcho>;
