/** Vps inputs (camelCase) to wire requests (snake_case), in one place. */
import type { NewVpsRequestInput } from "../../contract/index.js";
import type { VpsInputs } from "./vps-inputs.js";
import { AUTHORIZED_KEYS_PATH, authorizedKeysFile } from "./access.js";

/**
 * file_injection_data: the files input, plus sshKeys as /root/.ssh/authorized_keys (check() refuses a
 * files entry for that path when sshKeys is set). Undefined when there are none.
 */
function injectedFiles(inputs: VpsInputs): { path: string; data_as_string: string }[] | undefined {
  const files = (inputs.files ?? []).map((file) => ({ path: file.path, data_as_string: file.content }));
  if (inputs.sshKeys && inputs.sshKeys.length > 0)
    files.push({ path: AUTHORIZED_KEYS_PATH, data_as_string: authorizedKeysFile(inputs.sshKeys) });
  return files.length > 0 ? files : undefined;
}

/** NewVPSRequest for R4 (create). Unset inputs are left out, so the service applies its defaults. */
export function newVpsRequest(inputs: VpsInputs): NewVpsRequestInput {
  const sizes = {
    memory_mb: inputs.memoryMb,
    disk_space_mb: inputs.diskSpaceMb,
    disk_space_2_mb: inputs.diskSpace2Mb,
  };
  const anySize = Object.values(sizes).some((value) => value !== undefined);
  return {
    instantiation_options: {
      domain_name: inputs.domainName,
      distro: inputs.distro,
      password: inputs.password,
      control_panel: inputs.controlPanel,
      cloud_config_data: inputs.cloudConfig,
    },
    pricing_plan_code: inputs.pricingPlanCode,
    dc_location: inputs.dcLocation,
    vps_parameters: anySize ? sizes : undefined,
    vps_type: inputs.vpsType,
    billing_oid: inputs.billingOid,
    host_server_oid: inputs.hostServerOid,
    ip_request:
      inputs.ipCount === undefined
        ? undefined
        : {
            num_ips: inputs.ipCount,
            extra_ip_reason:
              inputs.ipCount > 1 ? "Requested through pulumi-rimuhosting (ipCount)" : undefined,
          },
    file_injection_data: injectedFiles(inputs),
    meta_data: inputs.metaData
      ? Object.entries(inputs.metaData).map(([key_name, value]) => ({ key_name, value }))
      : undefined,
  };
}

/**
 * NewVPSRequest for R10 (reinstall): the install-time options, with `null` data centre and sizes so the
 * order keeps them (docs/rimuhosting-api.md R10).
 */
export function reinstallRequest(inputs: VpsInputs, currentDistro: string | undefined): NewVpsRequestInput {
  return {
    instantiation_options: {
      distro: inputs.distro ?? currentDistro,
      password: inputs.password,
      control_panel: inputs.controlPanel,
      cloud_config_data: inputs.cloudConfig,
    },
    dc_location: null,
    vps_parameters: { memory_mb: null, disk_space_mb: null },
    file_injection_data: injectedFiles(inputs),
  };
}

/** The sizes to send to R9 (parameters): only those that change. */
export function parametersRequest(inputs: VpsInputs, changed: readonly string[]) {
  return {
    memory_mb: changed.includes("memoryMb") ? inputs.memoryMb : undefined,
    disk_space_mb: changed.includes("diskSpaceMb") ? inputs.diskSpaceMb : undefined,
    disk_space_2_mb: changed.includes("diskSpace2Mb") ? inputs.diskSpace2Mb : undefined,
  };
}

/** Minutes (timeouts input) to milliseconds; undefined keeps the client's default. */
export function minutesToMs(minutes: number | undefined): number | undefined {
  return minutes === undefined ? undefined : Math.round(minutes * 60_000);
}
