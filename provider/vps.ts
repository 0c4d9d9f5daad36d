/**
 * The Vps resource: a RimuHosting VPS order, managed through a Pulumi dynamic provider.
 *
 * Thin on purpose: the lifecycle lives in ./impl (loaded by the provider host), and the serialized
 * provider is ./vps-shim.ts. See the README's "Vps" section for what each change does.
 */
import * as pulumi from "@pulumi/pulumi";
// From the zod-free list, so the public types of the root entry load no zod typings (old tsconfigs without
// esModuleInterop cannot read them).
import type { DcLocation, VpsType } from "../contract/literals.js";
import { PREVIEW_FLAG, SECRET_FIELDS, VPS_INPUT_NAMES, VPS_OUTPUT_ONLY } from "./impl/vps-fields.js";
import vpsShim = require("./vps-shim.js");
import { trimRegistrationStacks } from "./vps-registration.js";

/** A file written into the new filesystem at install time. */
export interface VpsFile {
  /** Absolute path inside the VPS, e.g. `/root/.ssh/authorized_keys`. */
  path: string;
  /** The file's content. */
  content: string;
}

/** Per-operation time limits of the provider (the engine's `customTimeouts` do not reach dynamic providers). */
export interface VpsTimeouts {
  /**
   * Limit for ordering the VPS (one HTTP call that returns when it runs).
   * @default 60
   */
  createMinutes?: number;
  /**
   * Limit for each resize, reinstall or running-state call. A move gets this plus 10 minutes per GB of the
   * VPS's disk.
   * @default 60
   */
  updateMinutes?: number;
  /**
   * Limit for the shutdown and cancellation.
   * @default 60
   */
  deleteMinutes?: number;
}

/**
 * The inputs of a Vps. Changing an input after creation does what docs/vps.md's change table says. Every
 * input is a row of the field table (impl/vps-fields.ts); each `@default` here is the row's `default`
 * (test/provider/impl/vps-fields.test.ts checks both).
 */
export interface VpsArgs {
  /**
   * Fully qualified domain name and label of the VPS, e.g. `web1.example.com`. A change replaces the VPS.
   * @default required
   */
  domainName: pulumi.Input<string>;
  /**
   * Distribution code from getDistributions(), e.g. `deb12.64`. A change reinstalls in place (erases the
   * disk) and needs `allowReinstall: true`.
   * @default RimuHosting's default
   */
  distro?: pulumi.Input<string>;
  /**
   * Data centre from getDataCenters(), e.g. `DCDALLAS`. A change replaces the VPS.
   * @default RimuHosting's choice
   */
  dcLocation?: pulumi.Input<DcLocation>;
  /**
   * Pricing plan code from getPricingPlans(), e.g. `MIRO1B`. A change from one plan to another replaces the
   * VPS.
   * @default RimuHosting's default plan
   */
  pricingPlanCode?: pulumi.Input<string>;
  /**
   * Memory in MB, e.g. 1024. A change resizes in place (the VPS restarts; billing changes).
   * @default the plan's memory
   */
  memoryMb?: pulumi.Input<number>;
  /**
   * Primary disk in MB, e.g. 8192. Can only grow; a change resizes in place (restart).
   * @default the plan's disk
   */
  diskSpaceMb?: pulumi.Input<number>;
  /**
   * Second disk in MB (not in the regular backups); 0 means none. Can only grow; a change resizes in place
   * (restart).
   * @default 0 (none)
   */
  diskSpace2Mb?: pulumi.Input<number>;
  /**
   * VPS class: `LOW_CONTENTION`, `REGULAR` or `DEDICATED`. A change from one class to another replaces the
   * VPS.
   * @default the plan's class
   */
  vpsType?: pulumi.Input<VpsType>;
  /**
   * Billing method (billingOid from getBillingMethods()); left out, RimuHosting picks one (e.g. the last
   * card used). Used only when ordering: a later change is reported but not applied.
   * @default RimuHosting picks
   */
  billingOid?: pulumi.Input<number>;
  /**
   * Host server to run on, e.g. `"764"`. Left out, RimuHosting chooses and Pulumi never moves the VPS.
   * Setting or changing it moves the VPS (takes 5–10 minutes per GB; the IP may change).
   * @default RimuHosting's choice, never moved
   */
  hostServerOid?: pulumi.Input<string>;
  /**
   * Desired power state, `RUNNING` or `NOTRUNNING`. Left out, the power state is not managed (a new VPS
   * starts running). A change starts or stops the VPS.
   * @default not managed
   */
  runningState?: pulumi.Input<"RUNNING" | "NOTRUNNING">;
  /**
   * Root password (pass a secret). Left out, RimuHosting generates one, returned in the secret `password`
   * output. A change reinstalls (needs `allowReinstall: true`).
   * @default RimuHosting generates one
   */
  password?: pulumi.Input<string>;
  /**
   * Control panel to install: `webmin` or `""` for none. A change reinstalls (needs `allowReinstall: true`).
   * @default RimuHosting's default
   */
  controlPanel?: pulumi.Input<string>;
  /**
   * cloud-config text for cloud-init distros. Kept as a secret output. A change reinstalls (needs
   * `allowReinstall: true`).
   * @default none
   */
  cloudConfig?: pulumi.Input<string>;
  /**
   * Files written into the filesystem at install, e.g. `/root/.ssh/authorized_keys`. Kept as a secret
   * output. A change reinstalls (needs `allowReinstall: true`).
   * @default none
   */
  files?: pulumi.Input<pulumi.Input<VpsFile>[]>;
  /**
   * SSH public keys installed for root at install time, one OpenSSH public key per entry
   * (`"ssh-ed25519 AAAAC3Nza… me@laptop"`; types ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521 and
   * the sk- variants). They are written as `/root/.ssh/authorized_keys` the way RimuHosting's own tools
   * do it (file injection), so a `files` entry for that path cannot be given as well (check refuses it).
   * Like `files`, a change reinstalls the VPS (erasing its disk) and needs `allowReinstall: true`;
   * removing the input leaves the installed keys alone. Public keys are not secret.
   * @default none (log in with the root password)
   */
  sshKeys?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Reverse DNS (PTR) name of the primary IPv4 address, e.g. `web1.example.com`; `""` removes the
   * record. Set in place after the VPS is created, when it changes, and again after a move (which gives
   * a new address). No read of the API reports PTR records, so a refresh keeps the recorded name and
   * cannot see a change made elsewhere (the control panel). Removing the input leaves the record alone.
   * @default none (RimuHosting's default PTR name)
   */
  reverseDns?: pulumi.Input<string>;
  /**
   * Number of IPv4 addresses. More than one needs RimuHosting's approval. A change replaces the VPS.
   * @default 1
   */
  ipCount?: pulumi.Input<number>;
  /**
   * Key/value metadata stored on the order (searchable). Used only when ordering: a later change is reported
   * but not applied.
   * @default none
   */
  metaData?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Allow changes that reinstall the VPS in place (distro, password, controlPanel, cloudConfig, files,
   * sshKeys), erasing its disk. Left false, such changes are refused.
   * @default false
   */
  allowReinstall?: pulumi.Input<boolean>;
  /**
   * The provider's own time limits (moves scale with the disk: `updateMinutes` plus 10 minutes per GB).
   * @default 60 minutes each
   */
  timeouts?: pulumi.Input<VpsTimeouts>;
  /**
   * Adopt this existing VPS order instead of ordering a new one (`pulumi import` does not work for dynamic
   * providers). The order must be active, on this account, and match domainName (and dcLocation if set).
   * Setting a different oid later replaces the resource.
   * @default order a new VPS
   */
  adoptOrderOid?: pulumi.Input<number>;
  /**
   * Internal, set automatically: do not set it. The Vps class always overwrites it with
   * `<project>/<stack>/<resource name>`. The provider derives the order's creation token from it and
   * the inputs that force a replacement; with the creation nonce the provider keeps in this stack's
   * state, a create whose outcome was lost is found by the next `pulumi up` instead of ordering a
   * second VPS, and another stack's order is never taken over (docs/vps.md#exactly-once-creation). Never a
   * change: diff() ignores it.
   * @internal
   */
  creationScope?: pulumi.Input<string>;
}

/** The outputs that are not inputs, registered (and unknown in previews) like Pulumi's own packages do. */
const OUTPUT_ONLY = VPS_OUTPUT_ONLY;

/**
 * Inputs that are also outputs: every input of the one table (impl/vps-fields.ts), all registered so
 * every one can be read back. The type annotation checks each is a VpsArgs property.
 */
const INPUT_OUTPUTS: readonly (keyof VpsArgs)[] = VPS_INPUT_NAMES;

/**
 * A RimuHosting VPS. The resource id is the order oid (as a string).
 *
 * ```ts
 * const web = new Vps("web", { domainName: "web1.example.com", distro: "deb12.64", dcLocation: "DCDALLAS",
 *   memoryMb: 1024, diskSpaceMb: 8192 });
 * export const ip = web.primaryIp;
 * ```
 */
export class Vps extends pulumi.dynamic.Resource {
  /** The type token: `pulumi-nodejs:dynamic/rimuhosting:Vps`. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/rimuhosting:Vps";

  /** True if `obj` is a Vps (works across copies of this package). */
  static override isInstance(obj: unknown): obj is Vps {
    return (
      obj !== null &&
      typeof obj === "object" &&
      (obj as Record<string, unknown>).__pulumiType === Vps.__pulumiType
    );
  }

  /**
   * Reads an existing Vps by order oid into the program without managing it (no create, no delete).
   * To manage an existing order, use the `adoptOrderOid` input instead.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Vps {
    return new Vps(name, undefined, { ...opts, id });
  }

  /** The order oid, a number (the id is the same as a string). */
  declare readonly orderOid: pulumi.Output<number>;
  /** The order's path segment in the API, `order-<oid>-<domain>`. */
  declare readonly slug: pulumi.Output<string>;
  /** The domain name of the VPS, as the service reports it. */
  declare readonly domainName: pulumi.Output<string>;
  /** Installed distribution code. */
  declare readonly distro: pulumi.Output<string>;
  /** Data centre code. */
  declare readonly dcLocation: pulumi.Output<string>;
  /** The pricing plan code (as given: the service does not report it). */
  declare readonly pricingPlanCode: pulumi.Output<string | undefined>;
  /** Memory in MB, as the service reports it. */
  declare readonly memoryMb: pulumi.Output<number>;
  /** Primary disk in MB, as the service reports it. */
  declare readonly diskSpaceMb: pulumi.Output<number>;
  /** Second disk in MB (0 = none). */
  declare readonly diskSpace2Mb: pulumi.Output<number>;
  /** The VPS class (as given: the service does not report it). */
  declare readonly vpsType: pulumi.Output<string | undefined>;
  /** The order's billing method. */
  declare readonly billingOid: pulumi.Output<number | undefined>;
  /** The host server the VPS runs on. */
  declare readonly hostServerOid: pulumi.Output<string>;
  /** Current power state: `RUNNING`, `NOTRUNNING`, `RESTARTING` or `POWERCYCLING`. */
  declare readonly runningState: pulumi.Output<string>;
  /** Root password (secret): the input, or the one RimuHosting generated. */
  declare readonly password: pulumi.Output<string | undefined>;
  /** The control panel installed (as given). */
  declare readonly controlPanel: pulumi.Output<string | undefined>;
  /** cloud-config text (secret). */
  declare readonly cloudConfig: pulumi.Output<string | undefined>;
  /** Injected files (secret). */
  declare readonly files: pulumi.Output<VpsFile[] | undefined>;
  /** SSH public keys installed for root (as given). */
  declare readonly sshKeys: pulumi.Output<string[] | undefined>;
  /** Reverse DNS name of the primary address (as given: the API does not report PTR records). */
  declare readonly reverseDns: pulumi.Output<string | undefined>;
  /** Number of IPv4 addresses allocated. */
  declare readonly ipCount: pulumi.Output<number>;
  /** The order's metadata (without the provider's creation token). */
  declare readonly metaData: pulumi.Output<Record<string, string>>;
  /** Whether changes that reinstall the VPS are allowed (as given). */
  declare readonly allowReinstall: pulumi.Output<boolean | undefined>;
  /** The provider's time limits (as given). */
  declare readonly timeouts: pulumi.Output<VpsTimeouts | undefined>;
  /** The order adopted, if any (as given). */
  declare readonly adoptOrderOid: pulumi.Output<number | undefined>;
  /** Main IPv4 address. */
  declare readonly primaryIp: pulumi.Output<string>;
  /** Any further IPv4 addresses. */
  declare readonly secondaryIps: pulumi.Output<string[]>;
  /** Monthly fee in USD. */
  declare readonly monthlyFeeUsd: pulumi.Output<number>;
  /** RimuHosting's one-line summary of the order (plan, location, sizes, host, IP, distro, price). */
  declare readonly orderDescription: pulumi.Output<string>;

  constructor(name: string, args: VpsArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    // Every output seeded as undefined, so each is registered and read back (awsx pattern); args override.
    const props: Record<string, unknown> = { ...outputSeed() };
    if (args) {
      Object.assign(props, args);
      // Dynamic providers get no URN: this is what makes the creation token stable across retries.
      props.creationScope = `${pulumi.getProject()}/${pulumi.getStack()}/${name}`;
      // Only in a preview: the provider then quotes the price of a create or resize (impl/money.ts).
      if (pulumi.runtime.isDryRun()) props[PREVIEW_FLAG] = true;
    }
    const secretOutputs = opts?.additionalSecretOutputs
      ? [...opts.additionalSecretOutputs, ...SECRET_FIELDS]
      : [...SECRET_FIELDS];
    // Stack traces cut to what is used (./vps-registration.ts): most of the registration's CPU time, and
    // about 700 bytes of each Vps's state.
    const restoreStacks = trimRegistrationStacks(__filename);
    try {
      super(vpsShim, name, props, { ...opts, additionalSecretOutputs: secretOutputs }, "rimuhosting", "Vps");
    } finally {
      restoreStacks();
    }
  }
}

let seed: Readonly<Record<string, undefined>> | undefined;
/** Every output name (outputs only, then the inputs, all outputs too) mapped to undefined; built once. */
function outputSeed(): Readonly<Record<string, undefined>> {
  seed ??= Object.freeze(
    Object.fromEntries([...OUTPUT_ONLY, ...INPUT_OUTPUTS].map((key) => [key, undefined])),
  );
  return seed;
}
