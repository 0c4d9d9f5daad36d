/**
 * Every input of the Vps resource and what a change to it does. One table, read by check(), diff(),
 * update(), read() and the docs, so the behaviours cannot drift apart.
 */

/**
 * - `parameters`: resized in place (PUT …/vps/parameters), which restarts the VPS.
 * - `move`: moved to another host server (PUT …/vps/host-server); the IPs may change.
 * - `reinstall`: applied by reinstalling in place (PUT …/vps/reinstall), which erases the disk; needs allowReinstall.
 * - `running-state`: started or stopped (PUT …/vps/running-state).
 * - `reverse-dns`: set in place (PUT …/ptr;ip=…), after a create, a move (a new address) or a change.
 * - `replace`: the API cannot change it on an existing order, so a new VPS is ordered and the old one cancelled.
 * - `setting`: a provider setting; recorded, no API call.
 * - `order-only`: used when ordering; the API cannot change it later and a replacement would be out of
 *   proportion, so a change is reported (warning) and not applied.
 * - `adopt`: read only by create(); a different order oid later means a replacement.
 */
export type ChangeKind =
  | "parameters"
  | "move"
  | "reinstall"
  | "running-state"
  | "reverse-dns"
  | "replace"
  | "setting"
  | "order-only"
  | "adopt";

interface FieldRule {
  /** What a change does to an existing VPS. */
  change: ChangeKind;
  /** The wire fields (dotted paths of NewVPSRequest and friends) that carry it, for error messages. */
  wire?: readonly string[];
  /** May hold a secret: kept secret in the state's inputs and outputs. */
  secret?: true;
}

/**
 * THE table of Vps inputs: the change kind, the wire fields and the secret flag of each. The input
 * schema's keys (vps-inputs.ts), VpsArgs (../vps.ts), the outputs and the secret list are checked
 * against it by test/provider/impl/vps-fields.test.ts.
 */
export const VPS_FIELDS = {
  domainName: { change: "replace", wire: ["instantiation_options.domain_name", "domain_name"] },
  distro: { change: "reinstall", wire: ["instantiation_options.distro", "distro"] },
  dcLocation: { change: "replace", wire: ["dc_location"] },
  pricingPlanCode: { change: "replace", wire: ["pricing_plan_code"] },
  memoryMb: { change: "parameters", wire: ["vps_parameters.memory_mb", "memory_mb"] },
  diskSpaceMb: { change: "parameters", wire: ["vps_parameters.disk_space_mb", "disk_space_mb"] },
  diskSpace2Mb: { change: "parameters", wire: ["vps_parameters.disk_space_2_mb", "disk_space_2_mb"] },
  vpsType: { change: "replace", wire: ["vps_type"] },
  billingOid: { change: "order-only", wire: ["billing_oid"] },
  hostServerOid: { change: "move", wire: ["host_server_oid", "selected_host_server_oid"] },
  runningState: { change: "running-state", wire: ["running_state"] },
  password: { change: "reinstall", wire: ["instantiation_options.password"], secret: true },
  controlPanel: { change: "reinstall", wire: ["instantiation_options.control_panel"] },
  cloudConfig: { change: "reinstall", wire: ["instantiation_options.cloud_config_data"], secret: true },
  files: { change: "reinstall", wire: ["file_injection_data"], secret: true },
  // Installed as /root/.ssh/authorized_keys through file_injection_data (vps-requests.ts).
  sshKeys: { change: "reinstall" },
  reverseDns: { change: "reverse-dns", wire: ["ptr.domain_name"] },
  ipCount: { change: "replace", wire: ["ip_request.num_ips", "ip_request"] },
  metaData: { change: "order-only", wire: ["meta_data"] },
  allowReinstall: { change: "setting" },
  timeouts: { change: "setting" },
  adoptOrderOid: { change: "adopt" },
} as const satisfies Record<string, FieldRule>;

/** Each input's change kind (from VPS_FIELDS). */
export const VPS_INPUT_FIELDS = Object.fromEntries(
  Object.entries(VPS_FIELDS).map(([name, rule]) => [name, rule.change]),
) as { readonly [N in keyof typeof VPS_FIELDS]: (typeof VPS_FIELDS)[N]["change"] };

export type VpsInputName = keyof typeof VPS_INPUT_FIELDS;
export const VPS_INPUT_NAMES = Object.keys(VPS_INPUT_FIELDS) as VpsInputName[];

/**
 * Inputs that may hold secrets (the root password, files such as keys, cloud-config, which can set
 * passwords): marked secret on the resource's outputs (additionalSecretOutputs), and never copied into the
 * inputs a refresh returns (the engine would store those unmarked).
 */
export const SECRET_FIELDS = VPS_INPUT_NAMES.filter(
  (name) => (VPS_FIELDS[name] as FieldRule).secret === true,
) as readonly VpsInputName[];

/** The outputs that are not inputs (the Vps class registers them; check() accepts them unset). */
export const VPS_OUTPUT_ONLY = [
  "orderOid",
  "slug",
  "primaryIp",
  "secondaryIps",
  "monthlyFeeUsd",
  "orderDescription",
] as const;

/**
 * Inputs the Vps class sets itself (never users): the seed of the creation token and the nonce that
 * says which state placed an order (creation-token.ts). Not changes: diff() never compares them.
 */
export const INTERNAL_INPUTS = ["creationScope", "__creationNonce"] as const;

/**
 * Input the Vps class sets to `true` only while the program runs as a preview (pulumi.runtime.isDryRun()),
 * so the provider quotes prices then and only then (money.ts). Never recorded: create() and update()
 * run in non-preview runs, which do not set it. Not a change: diff() never compares it.
 */
export const PREVIEW_FLAG = "__preview";

/** The input a wire field (`vps_parameters.memory_mb`, `file_injection_data[0].path`) belongs to. */
export function inputNameOfWireField(wireField: string): VpsInputName | undefined {
  const plain = wireField.replace(/\[\d+\]/g, "").replace(/\.\d+(?=\.|$)/g, "");
  for (const name of VPS_INPUT_NAMES) {
    const wire = (VPS_FIELDS[name] as FieldRule).wire ?? [];
    if (wire.some((w) => plain === w || plain.startsWith(`${w}.`))) return name;
  }
  return undefined;
}
