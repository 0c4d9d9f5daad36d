/** Vps inputs (camelCase) to wire requests (snake_case), in one place, from the field table's wire paths. */
import type { NewVpsRequestInput, RunningVpsDataRequest } from "../../../contract/index.js";
import type { VpsInputs } from "./vps-input-schema.js";
import { AUTHORIZED_KEYS_PATH, authorizedKeysFile } from "./access.js";
import { AS_IS_FIELDS, inputsOfKind, wirePathOf } from "../fields/vps-fields.js";

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

/**
 * The given inputs among `names` that the field table marks `asIs`, each at its wire path
 * (`vps_parameters.memory_mb`): the one camelCase-to-wire mapping of a plain input, for the create, the
 * reinstall, the resize and the quote. Unset inputs are left out, and so is an object none of whose
 * fields is set, so the service applies its defaults.
 */
export function toWire(inputs: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const name of AS_IS_FIELDS) {
    const value = inputs[name];
    if (value === undefined || !names.includes(name)) continue;
    const keys = (wirePathOf(name) as string).split(".");
    let at = request;
    for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
    at[keys[keys.length - 1]!] = value;
  }
  return request;
}

/** ip_request of a create (and of the order a preview's quote judges): the ipCount input. */
export function ipRequest(inputs: { ipCount?: number | undefined }): NewVpsRequestInput["ip_request"] {
  if (inputs.ipCount === undefined) return undefined;
  return {
    num_ips: inputs.ipCount,
    extra_ip_reason: inputs.ipCount > 1 ? "Requested through pulumi-rimuhosting (ipCount)" : undefined,
  };
}

/** NewVPSRequest for R4 (create): every plain input, plus the ones that need shaping. */
export function newVpsRequest(inputs: VpsInputs): NewVpsRequestInput {
  return {
    ...(toWire(inputs, AS_IS_FIELDS) as NewVpsRequestInput),
    ip_request: ipRequest(inputs),
    file_injection_data: injectedFiles(inputs),
    meta_data: inputs.metaData
      ? Object.entries(inputs.metaData).map(([key_name, value]) => ({ key_name, value }))
      : undefined,
  };
}

/**
 * NewVPSRequest for R10 (reinstall): the install-time options (the plain reinstall inputs, the distro
 * kept when not given), with `null` data centre and sizes so the order keeps them
 * (docs/rimuhosting-api.md R10).
 */
export function reinstallRequest(inputs: VpsInputs, currentDistro: string | undefined): NewVpsRequestInput {
  const installed = toWire({ ...inputs, distro: inputs.distro ?? currentDistro }, inputsOfKind("reinstall"));
  return {
    ...(installed as NewVpsRequestInput),
    dc_location: null,
    vps_parameters: { memory_mb: null, disk_space_mb: null },
    file_injection_data: injectedFiles(inputs),
  };
}

/** The sizes to send to R9 (parameters): only those that change. */
export function parametersRequest(inputs: VpsInputs, changed: readonly string[]): RunningVpsDataRequest {
  return (toWire(inputs, changed).vps_parameters ?? {}) as RunningVpsDataRequest;
}
