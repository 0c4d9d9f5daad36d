/**
 * Every input of the Vps resource and what a change to it does. One table, read by check(), diff(),
 * update(), read(), and by the generator (`npm run generate`, tools/generate) that writes VpsArgs, the
 * declared outputs, the plugin schema's types and docs/vps.md's tables from it, so none of them can drift
 * apart. No zod here: the Vps class (../vps.ts) imports this module in users' programs.
 */
import { DC_LOCATIONS, VPS_TYPES } from "../../../contract/literals.js";
import { PROVIDER_META_PREFIX } from "../../client/metadata-keys.js";
import type { ChangeKind, FieldRule, FieldType, ObjectTypeRule } from "./vps-field-rules.js";
import { VPS_OUTPUT_ONLY_FIELDS } from "./vps-output-fields.js";

/** The object types the inputs use: exported interfaces (../generated/vps-types.ts) and schema types. */
export const VPS_OBJECT_TYPES = {
  VpsFile: {
    description: "A file written into the new filesystem at install time.",
    properties: {
      path: {
        type: "string",
        required: true,
        description: "Absolute path inside the VPS, e.g. `/root/.ssh/authorized_keys`.",
      },
      content: { type: "string", required: true, description: "The file's content." },
    },
  },
  VpsTimeouts: {
    description:
      "Per-operation time limits of the provider (the engine's `customTimeouts` do not reach dynamic providers).",
    properties: {
      createMinutes: {
        type: "number",
        defaultValue: 60,
        description: "Limit for ordering the VPS (one HTTP call that returns when it runs).",
      },
      updateMinutes: {
        type: "number",
        defaultValue: 60,
        description:
          "Limit for each resize, reinstall or running-state call. A move gets this plus 10 minutes per GB of the " +
          "VPS's disk.",
      },
      deleteMinutes: {
        type: "number",
        defaultValue: 60,
        description: "Limit for the shutdown and cancellation.",
      },
    },
  },
} as const satisfies Record<string, ObjectTypeRule>;

/**
 * THE table of Vps inputs: what a change does, the wire fields, the secret, reported, grow-only and printable
 * flags, each input's type, default and description, and its output's. Derived from it: the change kinds,
 * the secret list, the replace-forcing inputs (vps-changes.ts), the reinstall and grow-only rules
 * (vps-refusals.ts), the fields an update step can move (vps-converge.ts); and, written by `npm run
 * generate` (tools/generate), VpsArgs and the Vps class's declared outputs (../generated/vps-types.ts),
 * the plugin schema's types (../generated/vps-schema-types.json) and docs/vps.md's tables. The input
 * schema (vps-input-schema.ts) and VpsOutputs (vps-outputs.ts) must have exactly these keys: the compiler
 * checks them (test/provider/impl/vps-fields.test.ts).
 */
export const VPS_FIELDS = {
  domainName: {
    change: "replace",
    printable: true,
    wire: ["instantiation_options.domain_name", "domain_name"],
    asIs: true,
    reported: true,
    type: "string",
    required: true,
    description: "Fully qualified domain name and label of the VPS, e.g. `web1.example.com`.",
    output: { description: "The domain name of the VPS, as the service reports it.", alwaysSet: true },
  },
  distro: {
    change: "reinstall",
    printable: true,
    wire: ["instantiation_options.distro", "distro"],
    asIs: true,
    reported: true,
    type: "string",
    default: "RimuHosting's default",
    description: "Distribution code from `getDistributions()`, e.g. `deb12.64`.",
    output: { description: "Installed distribution code.", alwaysSet: true },
  },
  dcLocation: {
    change: "replace",
    printable: true,
    wire: ["dc_location"],
    asIs: true,
    reported: true,
    type: { enum: DC_LOCATIONS, name: "DcLocation" },
    default: "RimuHosting's choice",
    description: "Data centre from `getDataCenters()`, e.g. `DCDALLAS`.",
    output: { description: "Data centre code.", alwaysSet: true },
  },
  pricingPlanCode: {
    change: "replace",
    printable: true,
    wire: ["pricing_plan_code"],
    asIs: true,
    type: "string",
    default: "RimuHosting's default plan",
    description: "Pricing plan code from `getPricingPlans()`, e.g. `MIRO1B`.",
    output: { description: "The pricing plan code (as given: the service does not report it)." },
  },
  memoryMb: {
    change: "parameters",
    printable: true,
    wire: ["vps_parameters.memory_mb", "memory_mb"],
    asIs: true,
    reported: true,
    type: "integer",
    default: "the plan's memory",
    description: "Memory in whole MB, e.g. 1024.",
    output: { description: "Memory in MB, as the service reports it.", alwaysSet: true },
  },
  diskSpaceMb: {
    change: "parameters",
    printable: true,
    wire: ["vps_parameters.disk_space_mb", "disk_space_mb"],
    asIs: true,
    reported: true,
    growOnly: true,
    type: "integer",
    default: "the plan's disk",
    description: "Primary disk in whole MB, e.g. 8192.",
    output: { description: "Primary disk in MB, as the service reports it.", alwaysSet: true },
  },
  diskSpace2Mb: {
    change: "parameters",
    printable: true,
    wire: ["vps_parameters.disk_space_2_mb", "disk_space_2_mb"],
    asIs: true,
    reported: true,
    growOnly: true,
    type: "integer",
    default: "0 (none)",
    defaultValue: 0,
    description: "Second disk in whole MB (not in the regular backups); 0 means none.",
    output: { description: "Second disk in MB (0 = none).", alwaysSet: true },
  },
  vpsType: {
    change: "replace",
    printable: true,
    wire: ["vps_type"],
    asIs: true,
    type: { enum: VPS_TYPES, name: "VpsType" },
    default: "the plan's class",
    description: "VPS class: `LOW_CONTENTION`, `REGULAR` or `DEDICATED`.",
    output: { description: "The VPS class (as given: the service does not report it)." },
  },
  billingOid: {
    change: "order-only",
    printable: true,
    wire: ["billing_oid"],
    asIs: true,
    reported: true,
    type: "integer",
    default: "RimuHosting picks",
    description:
      "Billing method (a `billingOid` from `getBillingMethods()`); left out, RimuHosting picks one (e.g. the " +
      "last card used).",
    output: { description: "The order's billing method." },
  },
  hostServerOid: {
    change: "move",
    printable: true,
    wire: ["host_server_oid", "selected_host_server_oid"],
    asIs: true,
    reported: true,
    type: "string",
    default: "RimuHosting's choice, never moved",
    description:
      'Host server to run on, e.g. `"764"`. Left out, RimuHosting chooses and Pulumi never moves the VPS.',
    output: { description: "The host server the VPS runs on.", alwaysSet: true },
  },
  runningState: {
    change: "running-state",
    printable: true,
    wire: ["running_state"],
    reported: true,
    type: { enum: ["RUNNING", "NOTRUNNING"] },
    default: "not managed",
    description:
      "Desired power state, `RUNNING` or `NOTRUNNING`. Left out, the power state is not managed (a new VPS " +
      "starts running).",
    output: {
      description: "Current power state: `RUNNING`, `NOTRUNNING`, `RESTARTING` or `POWERCYCLING`.",
      alwaysSet: true,
    },
  },
  password: {
    change: "reinstall",
    wire: ["instantiation_options.password"],
    asIs: true,
    secret: true,
    type: "string",
    default: "RimuHosting generates one",
    description:
      "Root password, 8 to 128 characters (pass a secret). Left out, RimuHosting generates one, returned in the " +
      "secret `password` output.",
    output: {
      description: "Root password (secret): the input, or the one RimuHosting generated.",
      default: "the one RimuHosting generated, if the input is not set",
    },
  },
  controlPanel: {
    change: "reinstall",
    printable: true,
    wire: ["instantiation_options.control_panel"],
    asIs: true,
    type: "string",
    default: "RimuHosting's default",
    description: 'Control panel to install: `webmin` or `""` for none.',
    output: { description: "The control panel installed (as given)." },
  },
  cloudConfig: {
    change: "reinstall",
    wire: ["instantiation_options.cloud_config_data"],
    asIs: true,
    secret: true,
    type: "string",
    default: "none",
    description: "cloud-config text for cloud-init distros. Kept as a secret output.",
    output: { description: "cloud-config text (secret: cloud-config can carry passwords)." },
  },
  files: {
    change: "reinstall",
    wire: ["file_injection_data"],
    secret: true,
    type: { array: { object: "VpsFile" } },
    default: "none",
    description:
      "Files written into the filesystem at install, e.g. `/root/.ssh/authorized_keys`. Kept as a secret output.",
    output: { description: "Injected files (secret)." },
  },
  // Installed as /root/.ssh/authorized_keys through file_injection_data (vps-requests.ts).
  sshKeys: {
    change: "reinstall",
    type: { array: "string" },
    default: "none (log in with the root password)",
    description:
      "SSH public keys installed for root at install time, one OpenSSH public key per entry " +
      '(`"ssh-ed25519 AAAAC3Nza… me@laptop"`; types ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521 and ' +
      "the sk- variants). They are written as `/root/.ssh/authorized_keys` the way RimuHosting's own tools " +
      "do it (file injection), so a `files` entry for that path cannot be given as well (check refuses it). " +
      "Public keys are not secret. Removing the input leaves the installed keys alone.",
    see: { title: "SSH keys", href: "#ssh-keys-sshkeys" },
    output: { description: "SSH public keys installed for root (as given)." },
  },
  reverseDns: {
    change: "reverse-dns",
    wire: ["ptr.domain_name"],
    type: "string",
    default: "none (RimuHosting's default PTR name)",
    description:
      'Reverse DNS (PTR) name of the primary IPv4 address, e.g. `web1.example.com`; `""` removes the ' +
      "record. No read of the API reports PTR records, so a refresh keeps the recorded name and cannot see a " +
      "change made elsewhere (the control panel). Removing the input leaves the record alone.",
    see: { title: "Reverse DNS", href: "#reverse-dns-reversedns" },
    output: {
      description: "Reverse DNS name of the primary address (as given: the API does not report PTR records).",
    },
  },
  ipCount: {
    change: "replace",
    printable: true,
    wire: ["ip_request.num_ips", "ip_request"],
    reported: true,
    type: "integer",
    defaultValue: 1,
    description: "Number of IPv4 addresses. More than one needs RimuHosting's approval.",
    output: { description: "Number of IPv4 addresses allocated.", alwaysSet: true },
  },
  metaData: {
    change: "order-only",
    wire: ["meta_data"],
    reported: true,
    type: { map: "string" },
    default: "none",
    description:
      "Key/value metadata stored on the order (searchable); keys starting " +
      `\`${PROVIDER_META_PREFIX}\` are reserved.`,
    output: {
      description: "The order's metadata (without the provider's creation token).",
      alwaysSet: true,
    },
  },
  allowReinstall: {
    change: "setting",
    type: "boolean",
    defaultValue: false,
    description:
      "Allow changes that reinstall the VPS in place (`distro`, `password`, `controlPanel`, `cloudConfig`, " +
      "`files`, `sshKeys`), erasing its disk. Left false, such changes are refused.",
    output: { description: "Whether changes that reinstall the VPS are allowed (as given)." },
  },
  timeouts: {
    change: "setting",
    type: { object: "VpsTimeouts" },
    default: "60 minutes each",
    description:
      "The provider's own time limits (moves scale with the disk: `updateMinutes` plus 10 minutes per GB).",
    see: { title: "Known limits", href: "troubleshooting.md#known-limits" },
    output: { description: "The provider's time limits (as given)." },
  },
  adoptOrderOid: {
    change: "adopt",
    type: "integer",
    default: "order a new VPS",
    description:
      "Adopt this existing VPS order instead of ordering a new one (`pulumi import` does not work for " +
      "dynamic providers). The order must be active, on this account, and match domainName (and " +
      "dcLocation if set).",
    see: { title: "Adoption", href: "#adoption-adoptorderoid" },
    output: { description: "The order adopted, if any (as given)." },
  },
} as const satisfies Record<string, FieldRule>;

/** Each input's change kind (from VPS_FIELDS). */
export const VPS_INPUT_FIELDS = Object.fromEntries(
  Object.entries(VPS_FIELDS).map(([name, rule]) => [name, rule.change]),
) as { readonly [N in keyof typeof VPS_FIELDS]: (typeof VPS_FIELDS)[N]["change"] };

export type VpsInputName = keyof typeof VPS_INPUT_FIELDS;
export const VPS_INPUT_NAMES = Object.keys(VPS_INPUT_FIELDS) as VpsInputName[];

/** The inputs whose row sets `flag`, in table order. */
function flagged(flag: "secret" | "reported" | "growOnly" | "asIs" | "printable"): readonly VpsInputName[] {
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

/** Inputs whose values a message may print (plain facts, never a secret); the others are named only. */
export const PRINTABLE_FIELDS = flagged("printable");

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

export { VPS_OUTPUT_ONLY_FIELDS, type OutputOnlyRule } from "./vps-output-fields.js";

export type VpsOutputOnlyName = keyof typeof VPS_OUTPUT_ONLY_FIELDS;
export const VPS_OUTPUT_ONLY = Object.keys(VPS_OUTPUT_ONLY_FIELDS) as VpsOutputOnlyName[];

/**
 * Inputs the Vps class sets itself (never users): the seed of the creation token and the nonce that
 * says which state placed an order (creation-token.ts). Not changes: diff() never compares them.
 */
export const INTERNAL_INPUTS = ["creationScope", "__creationNonce"] as const;
export type InternalInputName = (typeof INTERNAL_INPUTS)[number];

/**
 * The internal inputs VpsArgs declares (the Vps class sets them), documented `@internal` so that the
 * published declarations leave them out and editors do not offer them.
 */
export const VPS_CLASS_INPUTS = {
  creationScope: {
    type: "string",
    description:
      "Internal, set automatically: do not set it. The Vps class always overwrites it with " +
      "`<project>/<stack>/<resource name>`. The provider derives the order's creation token from it and the " +
      "inputs that force a replacement; with the creation nonce the provider keeps in this stack's state, a " +
      "create whose outcome was lost is found by the next `pulumi up` instead of ordering a second VPS, and " +
      "another stack's order is never taken over (docs/vps.md#exactly-once-creation). Never a change: diff() " +
      "ignores it.",
  },
} as const satisfies Partial<Record<InternalInputName, { type: FieldType; description: string }>>;

/**
 * Input the Vps class sets only while the program runs as a preview (pulumi.runtime.isDryRun()): the
 * resource's URN (or `true` when it cannot be known), so the provider quotes prices and runs the preview-only
 * checks then and only then, and attaches its warnings to the resource (notes.ts). Never recorded: create()
 * and update() run in non-preview runs, which do not set it. Not a change: diff() never compares it.
 */
export const PREVIEW_FLAG = "__preview";

/**
 * Input the provider records, never the program: the order the state holds. check() is handed the recorded inputs,
 * never the outputs or the id, and finds the live order by it (vps-lookahead.ts); read() records it, check() keeps it.
 */
export const RECORDED_ORDER_KEY = "__orderOid";

/** Every key of the inputs that belongs to the Vps class or the provider, never to the user. */
const OWN_KEYS = [PREVIEW_FLAG, "__provider", RECORDED_ORDER_KEY];
export const INTERNAL_KEYS: readonly string[] = [...INTERNAL_INPUTS, ...OWN_KEYS];

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
