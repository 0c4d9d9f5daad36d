/**
 * The provider object every Vps hands to Pulumi, which serializes it into the resource's `__provider`
 * (stored twice per resource: in its inputs and its outputs). Two properties keep that text small
 * (docs/dynamic-providers.md §3, §8.6):
 *
 * - It is this module's whole `module.exports`. The closure serializer finds such an object in the
 *   require cache, and when the module's real path is inside a `node_modules` directory (a normal npm,
 *   yarn or pnpm install) it writes a `require()` of it instead of its code: about 260 characters. It
 *   names the file by the LAST key of the package's `exports` that maps to it: `pulumi-rimuhosting/shim`
 *   (21 characters shorter, twice per VPS, than the path). Where it cannot read the exports map (some
 *   pnpm layouts) it writes the path, `pulumi-rimuhosting/dist/provider/vps-shim.js`, which the package
 *   exports too, as do states written before `./shim` existed. Stored states depend on both names:
 *   never move this file, and keep both keys, `./shim` last.
 * - Where the package is linked rather than installed (`npm link`, a `file:` dependency, workspaces),
 *   the serializer copies the object instead, and then each function costs about 200 characters of
 *   its scaffolding: so there is ONE method, `configure`, which the dynamic-provider host calls once
 *   per provider text and process, before any other. It requires the implementation package by name
 *   and copies the lifecycle methods onto the provider object, before its first `await`, so a second
 *   operation that finds this provider in the host's cache while the first is still configuring
 *   already sees them. About 690 characters.
 *
 * Rules for this file: an object literal with method shorthand (no arrow-function fields, no classes),
 * no imports used at run time, no module-level values referenced from the method. The method names are
 * listed here rather than taken from a new export, so a text stored by this version still loads with
 * an older or newer implementation package.
 */
import type * as pulumi from "@pulumi/pulumi";

type Impl = typeof import("./impl/index.js");

const vpsShim = {
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
export = vpsShim as unknown as pulumi.dynamic.ResourceProvider;
