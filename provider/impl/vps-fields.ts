/**
 * Every input of the Vps resource and what a change to it does. One table, read by check(), diff(),
 * update(), read() and the README, so the behaviours cannot drift apart.
 */

/**
 * - `parameters`: resized in place (PUT …/vps/parameters), which restarts the VPS.
 * - `move`: moved to another host server (PUT …/vps/host-server); the IPs may change.
 * - `reinstall`: applied by reinstalling in place (PUT …/vps/reinstall), which erases the disk; needs allowReinstall.
 * - `running-state`: started or stopped (PUT …/vps/running-state).
 * - `replace`: the API cannot change it on an existing order, so a new VPS is ordered and the old one cancelled.
 * - `setting`: a provider setting; recorded, no API call.
 * - `order-only`: used when ordering; the API cannot change it later and a replacement would be out of
 *   proportion, so a change is reported (warning) and not applied.
 * - `adopt`: read only by create(); a different order oid later means a replacement.
 */
export type ChangeKind =
  "parameters" | "move" | "reinstall" | "running-state" | "replace" | "setting" | "order-only" | "adopt";

export const VPS_INPUT_FIELDS = {
  domainName: "replace",
  distro: "reinstall",
  dcLocation: "replace",
  pricingPlanCode: "replace",
  memoryMb: "parameters",
  diskSpaceMb: "parameters",
  diskSpace2Mb: "parameters",
  vpsType: "replace",
  billingOid: "order-only",
  hostServerOid: "move",
  runningState: "running-state",
  password: "reinstall",
  controlPanel: "reinstall",
  cloudConfig: "reinstall",
  files: "reinstall",
  ipCount: "replace",
  metaData: "order-only",
  allowReinstall: "setting",
  timeouts: "setting",
  adoptOrderOid: "adopt",
} as const satisfies Record<string, ChangeKind>;

export type VpsInputName = keyof typeof VPS_INPUT_FIELDS;
export const VPS_INPUT_NAMES = Object.keys(VPS_INPUT_FIELDS) as VpsInputName[];

/**
 * Inputs that may hold secrets (the root password, files such as keys, cloud-config, which can set
 * passwords): marked secret on the resource's outputs (additionalSecretOutputs), and never copied into the
 * inputs a refresh returns (the engine would store those unmarked).
 */
export const SECRET_FIELDS = ["password", "files", "cloudConfig"] as const satisfies readonly VpsInputName[];
