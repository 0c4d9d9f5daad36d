/**
 * The Vps resource: a RimuHosting VPS order, managed through a Pulumi dynamic provider.
 *
 * Thin on purpose: the lifecycle lives in ./impl (loaded by the provider host through ./vps-shim.ts, which the
 * text in ./vps-provider-text.ts requires). docs/vps.md says what each change does.
 */
import * as pulumi from "@pulumi/pulumi";
import type { VpsArgs, VpsFile, VpsOutputProperties, VpsTimeouts } from "./generated/vps-types.js";
import {
  PREVIEW_FLAG,
  SECRET_FIELDS,
  VPS_INPUT_NAMES,
  VPS_OUTPUT_ONLY,
  withoutUserSetInternals,
} from "./impl/fields/vps-fields.js";
import { DYNAMIC_VPS_TYPE } from "./impl/fields/vps-type-tokens.js";
import { expectedUrn } from "./resource-urn.js";
import { VPS_PROVIDER_TEXT } from "./vps-provider-text.js";
import { trimRegistrationStacks } from "./vps-registration.js";

// Generated from the field table (impl/fields/vps-fields.ts) by `npm run generate`, with their JSDoc and @default.
export type { VpsArgs, VpsFile, VpsOutputProperties, VpsTimeouts };

/** The outputs that are not inputs, registered (and unknown in previews) like Pulumi's own packages do. */
const OUTPUT_ONLY = VPS_OUTPUT_ONLY;

/**
 * Inputs that are also outputs: every input of the one table (impl/fields/vps-fields.ts), all registered so
 * every one can be read back. The type annotation checks each is a VpsArgs property.
 */
const INPUT_OUTPUTS: readonly (keyof VpsArgs)[] = VPS_INPUT_NAMES;

// The declared outputs (VpsOutputProperties, generated from the field table), merged into the class below: what
// `declare readonly x: pulumi.Output<T>` lines would declare, written once by the generator. (A line comment, so
// that editors show the class's JSDoc alone.)
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the members are the generated ones
export interface Vps extends VpsOutputProperties {}

/**
 * A RimuHosting VPS. The resource id is the order oid (as a string).
 *
 * ```ts
 * const web = new Vps("web", { domainName: "web1.example.com", distro: "deb12.64", dcLocation: "DCDALLAS",
 *   memoryMb: 1024, diskSpaceMb: 8192 });
 * export const ip = web.primaryIp;
 * ```
 */
// A dynamic resource (its type is the dynamic provider's, `pulumi-nodejs:dynamic/…`) registered as
// `dynamic.Resource` registers one, with the provider text written by this package instead of the SDK's closure
// serializer (./vps-provider-text.ts says why).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the declared outputs, merged above
export class Vps extends pulumi.CustomResource {
  /** The type token: `pulumi-nodejs:dynamic/rimuhosting:Vps`. */
  static readonly __pulumiType = DYNAMIC_VPS_TYPE;

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

  constructor(name: string, args: VpsArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    // Every output seeded as undefined, so each is registered and read back (awsx pattern); args override.
    const props: Record<string, unknown> = { ...OUTPUT_SEED };
    if (args) {
      Object.assign(props, args);
      // Internal keys are the class's and the provider's: any the program set are named for check() to refuse.
      withoutUserSetInternals(props);
      // Dynamic providers get no URN: this is what makes the creation token stable across retries.
      props.creationScope = `${pulumi.getProject()}/${pulumi.getStack()}/${name}`;
      // Only in a preview: the provider then quotes prices and attaches its warnings to this URN (impl/engine/notes.ts).
      if (pulumi.runtime.isDryRun())
        props[PREVIEW_FLAG] = expectedUrn(name, Vps.__pulumiType, opts?.parent) ?? true;
    }
    // After the program's internal keys were set aside: a __provider of its own is refused by check().
    props.__provider = VPS_PROVIDER_TEXT;
    const secretOutputs = [...(opts?.additionalSecretOutputs ?? []), ...secretOutputsOf(args)];
    // Stack traces cut to what is used (./vps-registration.ts): most of the registration's CPU time, and
    // about 700 bytes of each Vps's state.
    const restoreStacks = trimRegistrationStacks();
    try {
      super(Vps.__pulumiType, name, props, { ...opts, additionalSecretOutputs: secretOutputs });
    } finally {
      restoreStacks();
    }
  }
}

/**
 * The secret outputs the engine is told of: the password always (the service may generate one), the other secret
 * inputs (cloudConfig, files) only when given. Each name is stored in every VPS's state (issue 20), and an input
 * that is not given has no output to hide. `Vps.get` (no args) names them all.
 */
function secretOutputsOf(args: VpsArgs | undefined): string[] {
  return SECRET_FIELDS.filter((name) => !args || name === "password" || args[name] !== undefined);
}

/** Every output name (outputs only, then the inputs, all outputs too) mapped to undefined: a function of code alone. */
const OUTPUT_SEED: Readonly<Record<string, undefined>> = Object.freeze(
  Object.fromEntries([...OUTPUT_ONLY, ...INPUT_OUTPUTS].map((key) => [key, undefined])),
);
