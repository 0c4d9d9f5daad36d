/**
 * Every input of the Vps resource and what a change to it does. One table, read by check(), diff(),
 * update(), read() and the docs (docs/vps.md's Inputs and Outputs tables are generated from it by
 * `npm run docs:vps`), so the behaviours cannot drift apart. No zod here: the Vps class (../vps.ts) imports
 * this module in users' programs.
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
  /**
   * The service reports it on the order (orderFields() in vps-outputs.ts reads it back): a refresh sees
   * drift, and a failed update step is detected by comparing it. Unreported inputs keep the recorded value.
   */
  reported?: true;
  /** Can only grow: a smaller value is refused in check() and again before an update starts. */
  growOnly?: true;
  /**
   * Sent as given at its first wire path (`wire[0]`) when ordering, quoting, and (a reinstall input)
   * reinstalling: toWire() in vps-requests.ts. Inputs that need shaping (ipCount, files, sshKeys,
   * metaData) are built there by hand.
   */
  asIs?: true;
  /** docs/vps.md, Inputs table: the type, the default when left out, and notes (users' words). */
  type: string;
  default: string;
  notes?: string;
  /** docs/vps.md, Outputs table: for an input whose output says more than "as given". */
  output?: { type: string; notes: string };
}

/** An output that is not an input, with its docs/vps.md Outputs row. */
interface OutputRule {
  type: string;
  notes: string;
}

/**
 * THE table of Vps inputs: what a change does, the wire fields, the secret, reported and grow-only
 * flags, and the docs/vps.md rows of each. Derived from it: the change kinds, the secret list, the
 * replace-forcing inputs (vps-changes.ts), the reinstall and grow-only rules (vps-inputs.ts), the fields
 * an update step can move (vps-converge.ts), the docs tables (`npm run docs:vps`). The input schema
 * (vps-inputs.ts), VpsArgs (../vps.ts) and VpsOutputs (vps-outputs.ts) must have exactly these keys:
 * the compiler checks the schema, test/provider/impl/vps-fields.test.ts the interfaces.
 */
export const VPS_FIELDS = {
  domainName: {
    change: "replace",
    wire: ["instantiation_options.domain_name", "domain_name"],
    asIs: true,
    reported: true,
    type: "string (FQDN)",
    default: "required",
    notes: "label of the VPS, e.g. `web1.example.com`",
  },
  distro: {
    change: "reinstall",
    wire: ["instantiation_options.distro", "distro"],
    asIs: true,
    reported: true,
    type: "string",
    default: "RimuHosting's default",
    notes: "a code from `getDistributions()`, e.g. `deb12.64`",
  },
  dcLocation: {
    change: "replace",
    wire: ["dc_location"],
    asIs: true,
    reported: true,
    type: "`DCDALLAS`, `DCLONDON`, …",
    default: "RimuHosting's choice",
    notes: "see `getDataCenters()`",
  },
  pricingPlanCode: {
    change: "replace",
    wire: ["pricing_plan_code"],
    asIs: true,
    type: "string",
    default: "RimuHosting's default plan",
    notes: "see `getPricingPlans()`, e.g. `MIRO1B`",
  },
  memoryMb: {
    change: "parameters",
    wire: ["vps_parameters.memory_mb", "memory_mb"],
    asIs: true,
    reported: true,
    type: "number",
    default: "the plan's memory",
    notes: "whole MB",
  },
  diskSpaceMb: {
    change: "parameters",
    wire: ["vps_parameters.disk_space_mb", "disk_space_mb"],
    asIs: true,
    reported: true,
    growOnly: true,
    type: "number",
    default: "the plan's disk",
    notes: "whole MB; can only grow",
  },
  diskSpace2Mb: {
    change: "parameters",
    wire: ["vps_parameters.disk_space_2_mb", "disk_space_2_mb"],
    asIs: true,
    reported: true,
    growOnly: true,
    type: "number",
    default: "0 (none)",
    notes: "second disk, not in the regular backups; can only grow",
  },
  vpsType: {
    change: "replace",
    wire: ["vps_type"],
    asIs: true,
    type: "`LOW_CONTENTION`, `REGULAR`, `DEDICATED`",
    default: "the plan's class",
  },
  billingOid: {
    change: "order-only",
    wire: ["billing_oid"],
    asIs: true,
    reported: true,
    type: "number",
    default: "RimuHosting picks",
    notes: "a `billingOid` from `getBillingMethods()`",
  },
  hostServerOid: {
    change: "move",
    wire: ["host_server_oid", "selected_host_server_oid"],
    asIs: true,
    reported: true,
    type: 'string, e.g. `"764"`',
    default: "RimuHosting's choice, never moved",
    notes: "setting it moves the VPS",
    output: { type: "string", notes: "the host server it runs on" },
  },
  runningState: {
    change: "running-state",
    wire: ["running_state"],
    reported: true,
    type: "`RUNNING` or `NOTRUNNING`",
    default: "not managed",
    notes: "a new VPS starts running",
    output: { type: "string", notes: "`RUNNING`, `NOTRUNNING`, `RESTARTING` or `POWERCYCLING`" },
  },
  password: {
    change: "reinstall",
    wire: ["instantiation_options.password"],
    asIs: true,
    secret: true,
    type: "string (pass a secret)",
    default: "RimuHosting generates one",
    notes: "8 to 128 characters; stored encrypted",
    output: { type: "string", notes: "the `password` input, or the one RimuHosting generated" },
  },
  controlPanel: {
    change: "reinstall",
    wire: ["instantiation_options.control_panel"],
    asIs: true,
    type: "string",
    default: "RimuHosting's default",
    notes: '`webmin` or `""`',
  },
  cloudConfig: {
    change: "reinstall",
    wire: ["instantiation_options.cloud_config_data"],
    asIs: true,
    secret: true,
    type: "string",
    default: "none",
    notes: "cloud-config for cloud-init distros; kept as a secret output",
    output: { type: "string", notes: "as given (cloud-config can carry passwords)" },
  },
  files: {
    change: "reinstall",
    wire: ["file_injection_data"],
    secret: true,
    type: "`{ path, content }[]`",
    default: "none",
    notes: "written into the filesystem at install; kept as a secret output",
    output: { type: "`{ path, content }[]`", notes: "as given" },
  },
  // Installed as /root/.ssh/authorized_keys through file_injection_data (vps-requests.ts).
  sshKeys: {
    change: "reinstall",
    type: "string[]",
    default: "none (log in with the root password)",
    notes:
      "OpenSSH public keys for root, one per entry (`ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256/384/521`, `sk-…`); " +
      "installed as `/root/.ssh/authorized_keys`; see [SSH keys](#ssh-keys-sshkeys)",
  },
  reverseDns: {
    change: "reverse-dns",
    wire: ["ptr.domain_name"],
    type: "string",
    default: "none (RimuHosting's default PTR name)",
    notes:
      'the PTR name of the primary IPv4 address, e.g. `web1.example.com`; `""` removes the record; ' +
      "see [Reverse DNS](#reverse-dns-reversedns)",
  },
  ipCount: {
    change: "replace",
    wire: ["ip_request.num_ips", "ip_request"],
    reported: true,
    type: "number",
    default: "1",
    notes: "more than one needs RimuHosting's approval",
  },
  metaData: {
    change: "order-only",
    wire: ["meta_data"],
    reported: true,
    type: "`Record<string, string>`",
    default: "none",
    notes: "stored on the order, searchable; keys starting `pulumi-rimuhosting:` are reserved",
  },
  allowReinstall: {
    change: "setting",
    type: "boolean",
    default: "false",
    notes:
      "allows the changes that reinstall the VPS (`distro`, `password`, `controlPanel`, `cloudConfig`, `files`, " +
      "`sshKeys`; they erase its disk)",
  },
  timeouts: {
    change: "setting",
    type: "`{ createMinutes?, updateMinutes?, deleteMinutes? }`",
    default: "60 minutes each",
    notes:
      "the provider's own limits (see [Known limits](troubleshooting.md#known-limits)); a move gets " +
      "`updateMinutes` plus 10 minutes per GB of disk",
  },
  adoptOrderOid: {
    change: "adopt",
    type: "number",
    default: "order a new VPS",
    notes: "adopt this existing order instead (see [Adoption](#adoption-adoptorderoid))",
  },
} as const satisfies Record<string, FieldRule>;

/** Each input's change kind (from VPS_FIELDS). */
export const VPS_INPUT_FIELDS = Object.fromEntries(
  Object.entries(VPS_FIELDS).map(([name, rule]) => [name, rule.change]),
) as { readonly [N in keyof typeof VPS_FIELDS]: (typeof VPS_FIELDS)[N]["change"] };

export type VpsInputName = keyof typeof VPS_INPUT_FIELDS;
export const VPS_INPUT_NAMES = Object.keys(VPS_INPUT_FIELDS) as VpsInputName[];

/** The inputs whose row sets `flag`, in table order. */
function flagged(flag: "secret" | "reported" | "growOnly" | "asIs"): readonly VpsInputName[] {
  return VPS_INPUT_NAMES.filter((name) => (VPS_FIELDS[name] as FieldRule)[flag] === true);
}

/** The inputs of the given change kinds, in table order. */
export function inputsOfKind(...kinds: ChangeKind[]): readonly VpsInputName[] {
  return VPS_INPUT_NAMES.filter((name) => kinds.includes(VPS_INPUT_FIELDS[name]));
}

/**
 * Inputs that may hold secrets (the root password, files such as keys, cloud-config, which can set
 * passwords): marked secret on the resource's outputs (additionalSecretOutputs), and never copied into the
 * inputs a refresh returns (the engine would store those unmarked).
 */
export const SECRET_FIELDS = flagged("secret");

/** Inputs the service reports on the order (a refresh sees their drift). */
export const REPORTED_FIELDS = flagged("reported");

/** Inputs that can only grow (disks: RimuHosting never shrinks one). */
export const GROW_ONLY_FIELDS = flagged("growOnly");

/** Inputs sent as given at their first wire path (vps-requests.ts). */
export const AS_IS_FIELDS = flagged("asIs");

/** The wire path an input is sent at (the first of its row's `wire`). */
export function wirePathOf(name: VpsInputName): string | undefined {
  return (VPS_FIELDS[name] as FieldRule).wire?.[0];
}

/** The outputs that are not inputs (the Vps class registers them; check() accepts them unset). */
export const VPS_OUTPUT_ONLY_FIELDS = {
  orderOid: { type: "number", notes: "the order's id (the resource id as a number)" },
  slug: { type: "string", notes: "the order's API path segment, `order-<oid>-<domain>`" },
  primaryIp: { type: "string", notes: "main IPv4 address" },
  secondaryIps: { type: "string[]", notes: "further IPv4 addresses" },
  monthlyFeeUsd: { type: "number", notes: "the monthly fee" },
  orderDescription: {
    type: "string",
    notes: "RimuHosting's one-line summary (plan, location, sizes, host, IP, distro, price)",
  },
} as const satisfies Record<string, OutputRule>;

export type VpsOutputOnlyName = keyof typeof VPS_OUTPUT_ONLY_FIELDS;
export const VPS_OUTPUT_ONLY = Object.keys(VPS_OUTPUT_ONLY_FIELDS) as VpsOutputOnlyName[];

/**
 * Inputs the Vps class sets itself (never users): the seed of the creation token and the nonce that
 * says which state placed an order (creation-token.ts). Not changes: diff() never compares them.
 */
export const INTERNAL_INPUTS = ["creationScope", "__creationNonce"] as const;
export type InternalInputName = (typeof INTERNAL_INPUTS)[number];

/**
 * Input the Vps class sets only while the program runs as a preview (pulumi.runtime.isDryRun()): the
 * resource's URN (or `true` when it cannot be known), so the provider quotes prices and runs the preview-only
 * checks then and only then, and attaches its warnings to the resource (notes.ts). Never recorded: create()
 * and update() run in non-preview runs, which do not set it. Not a change: diff() never compares it.
 */
export const PREVIEW_FLAG = "__preview";

/**
 * Every key of the inputs that belongs to the Vps class or the provider, never to the user: the internal
 * inputs, the preview flag and the engine's serialized provider.
 */
export const INTERNAL_KEYS: readonly string[] = [...INTERNAL_INPUTS, PREVIEW_FLAG, "__provider"];

/**
 * Input the Vps class sets, only when the program set internal keys itself, to the list of their names (never
 * their values): the class drops them (so `__provider` cannot break the registration) and check() refuses
 * the resource naming each one.
 */
export const USER_SET_INTERNAL = "__internalKeysSetByUser";

/** Moves the internal keys a program set into USER_SET_INTERNAL (names only). Called by the Vps class. */
export function withoutUserSetInternals(props: Record<string, unknown>): void {
  const set = INTERNAL_KEYS.filter((key) => props[key] !== undefined);
  for (const key of set) delete props[key];
  if (set.length > 0) props[USER_SET_INTERNAL] = set;
}

/** The input a wire field (`vps_parameters.memory_mb`, `file_injection_data[0].path`) belongs to. */
export function inputNameOfWireField(wireField: string): VpsInputName | undefined {
  const plain = wireField.replace(/\[\d+\]/g, "").replace(/\.\d+(?=\.|$)/g, "");
  for (const name of VPS_INPUT_NAMES) {
    const wire = (VPS_FIELDS[name] as FieldRule).wire ?? [];
    if (wire.some((w) => plain === w || plain.startsWith(`${w}.`))) return name;
  }
  return undefined;
}
