/**
 * The ONLY object Pulumi serializes (into every Vps's `__provider`, stored twice per resource: in its
 * inputs and its outputs). It captures nothing and holds ONE method: `configure`, which the
 * dynamic-provider host calls once per provider text and process, synchronously after loading the text
 * and before any other method (docs/dynamic-providers.md §3, §8.6). It requires the implementation
 * package by name and copies the lifecycle methods onto the provider object; the host then calls those.
 *
 * Why one method: the closure serializer wraps every function it emits in about 200 characters of
 * `with`/`apply` scaffolding, so seven one-line methods made 2,588 characters per copy; one makes about
 * 460. The methods are copied before configure's first `await`, so a second operation that finds this
 * provider in the host's cache while the first is still configuring already sees them.
 *
 * Rules for this file: an object literal with method shorthand (no arrow-function fields, no classes),
 * no imports used at run time, no module-level values referenced from the method. The method names are
 * listed in the text rather than taken from a new export, so a text stored by this version still loads
 * with an older or newer implementation package that exports them.
 */
import type * as pulumi from "@pulumi/pulumi";

type Impl = typeof import("./impl/index.js");

/** What the host finds after configure() ran: the shim's configure plus the implementation's methods. */
const shim = {
  async configure(req: pulumi.dynamic.ConfigureRequest) {
    const impl = require("pulumi-rimuhosting/impl") as Impl;
    for (const m of ["check", "diff", "create", "read", "update", "delete"] as const)
      (this as Record<string, unknown>)[m] = impl[m];
    return impl.configure(req);
  },
};

/**
 * Typed as the full ResourceProvider because that is what the host sees once configure() has run; no
 * method but configure exists before then, and the host calls none before it.
 */
export const vpsShim = shim as unknown as pulumi.dynamic.ResourceProvider;
