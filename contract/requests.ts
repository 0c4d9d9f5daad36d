/**
 * Request records (docs/rimuhosting-api.md §3.9–§3.16, §4.2). The same schemas validate requests in the
 * emulator and type the client's request builders. Numbers and booleans accept their string forms,
 * as the live API does. `null` means "keep the current value" on reinstall (§R10).
 */
import * as z from "zod";
import { WireBool, WireInt } from "./common.js";
import { DcLocation, PricingChangeOption, RunningState, VpsType } from "./enums.js";
import { KeyValueMetaData } from "./records.js";

/** A fully qualified domain name: labels of letters, digits and hyphens, at least one dot. */
export const Fqdn = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/,
    {
      message: "must be a fully qualified domain name such as web1.example.com",
    },
  );

/** RunningVPSData as sent in a request (§3.16): only the sizes to change, in MB totals. */
export const RunningVpsDataRequest = z.object({
  memory_mb: WireInt.nullish(),
  disk_space_mb: WireInt.nullish(),
  disk_space_2_mb: WireInt.nullish(),
  disk_space_3_mb: WireInt.nullish(),
});
export type RunningVpsDataRequest = z.infer<typeof RunningVpsDataRequest>;

/** InstantiationData (§3.10). */
export const InstantiationData = z.object({
  domain_name: z.string().nullish(),
  distro: z.string().nullish(),
  password: z.string().nullish(),
  control_panel: z.string().nullish(),
  cloud_config_data: z.string().nullish(),
});
export type InstantiationData = z.infer<typeof InstantiationData>;

/** InstantiationViaCloneData (§3.11). */
export const InstantiationViaCloneData = z.object({
  vps_order_oid_to_clone: WireInt,
  domain_name: z.string().nullish(),
});
export type InstantiationViaCloneData = z.infer<typeof InstantiationViaCloneData>;

/** IPRequestData (§3.12). */
export const IpRequestData = z.object({
  num_ips: WireInt.nullish(),
  extra_ip_reason: z.string().nullish(),
  requested_ips: z.array(z.string()).nullish(),
});
export type IpRequestData = z.infer<typeof IpRequestData>;

/** FileData (§3.13): a file written into the new filesystem. */
export const FileData = z.object({
  path: z.string(),
  data_as_string: z.string(),
});
export type FileData = z.infer<typeof FileData>;

/**
 * The FileData path through which RimuHosting's own tools install an SSH public key for root at
 * install time (docs/rimuhosting-api.md#r4).
 */
export const ROOT_AUTHORIZED_KEYS_PATH = "/root/.ssh/authorized_keys";

/** NewVPSRequest (§3.9): body of create (R4), reinstall (R10) and price quote (R16). */
export const NewVpsRequest = z.object({
  instantiation_options: InstantiationData.nullish(),
  instantiation_via_clone_options: InstantiationViaCloneData.nullish(),
  pricing_plan_code: z.string().nullish(),
  dc_location: DcLocation.nullish(),
  vps_parameters: RunningVpsDataRequest.nullish(),
  vps_type: VpsType.nullish(),
  billing_oid: WireInt.nullish(),
  user_oid: WireInt.nullish(),
  host_server_oid: z.union([z.string(), z.number().transform(String)]).nullish(),
  ip_request: IpRequestData.nullish(),
  file_injection_data: z.array(FileData).nullish(),
  is_just_minimal_init: WireBool.nullish(),
  meta_data: z.array(KeyValueMetaData).nullish(),
  is_ssd_host_required: WireBool.nullish(),
  features: z.string().nullish(),
  host_server_selector: z.object({ min_vm_disk_free_gb: WireInt.nullish() }).nullish(),
  vps_order_oid_to_clone: WireInt.nullish(),
});
export type NewVpsRequest = z.infer<typeof NewVpsRequest>;
export type NewVpsRequestInput = z.input<typeof NewVpsRequest>;

/** VPSMoveRequest (§3.15). akissa sends `update_dns` and PHP `host_server_oid`; both are accepted. */
export const VpsMoveRequest = z.object({
  selected_host_server_oid: z.union([z.string(), z.number().transform(String)]).nullish(),
  host_server_oid: z.union([z.string(), z.number().transform(String)]).nullish(),
  pricing_change_option: PricingChangeOption.nullish(),
  is_update_dns: WireBool.nullish(),
  update_dns: WireBool.nullish(),
  move_reason: z.string().nullish(),
});
export type VpsMoveRequest = z.infer<typeof VpsMoveRequest>;

/** Body of R11 (§R11). */
export const RunningStateChangeRequest = z.object({
  running_state: RunningState,
});
export type RunningStateChangeRequest = z.infer<typeof RunningStateChangeRequest>;
