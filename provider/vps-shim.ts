/**
 * The provider object the dynamic-provider host runs for every Vps. The text each Vps stores
 * (./vps-provider-text.ts) requires this module by its exported name, `pulumi-rimuhosting/shim`, and the
 * host calls `configure` once per text and process, before any other method.
 *
 * `configure` requires the implementation package by name and copies the lifecycle methods onto this
 * object, before its first `await`, so a second operation that finds this provider in the host's cache
 * while the first is still configuring already sees them.
 *
 * Stored states depend on this module: it must stay the provider object (its whole `module.exports`), under
 * both names package.json exports (`./shim`, and its path, `./dist/provider/vps-shim.js`, which states
 * written by the SDK's closure serializer require); never move this file. Earlier states may also hold this
 * object copied by value (a linked package) or 0.1.0's seven methods: both require
 * `pulumi-rimuhosting/impl` and call its exports by name, so those names stay too. The method names are
 * listed here rather than taken from a new export, so a text stored by this version still loads with an
 * older or newer implementation package.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RecordedOutputs, VpsInputs, VpsOutputs } from "./impl/index.js";

type Impl = typeof import("./impl/index.js");

/**
 * The Vps's lifecycle as the dynamic-provider host calls it, typed with the inputs and outputs. `read` stands
 * apart: the SDK types the inputs it hands back as outputs, and they are inputs (refreshedInputs()).
 */
type Lifecycle = Required<
  Omit<pulumi.dynamic.ResourceProvider<VpsInputs, VpsOutputs>, "configure" | "read">
> & {
  read(
    id: string,
    props?: RecordedOutputs,
  ): Promise<Omit<pulumi.dynamic.ReadResult<RecordedOutputs>, "inputs"> & { inputs?: VpsInputs }>;
};

/** The implementation's lifecycle methods, by their names in the package's exports. */
function lifecycleOf(impl: Impl): Lifecycle {
  const { check, diff, create, read, update } = impl;
  return { check, diff, create, read, update, delete: impl.delete };
}

/**
 * Loads the implementation through Node's compile cache (in Node's default place, or NODE_COMPILE_CACHE's; off with
 * NODE_DISABLE_COMPILE_CACHE, as the native plugin's launcher does), written as soon as it is loaded: Node writes it
 * at exit, and the engine kills its provider hosts. Every host after the first then loads got, zod and this package
 * in about 45 ms less CPU (a `require` of the implementation, 4 of each, Node 22).
 */
function withCompileCache<T>(load: () => T): T {
  const cache = require("node:module") as typeof import("node:module");
  const { status } = cache.enableCompileCache();
  const loaded = load();
  const { ENABLED, ALREADY_ENABLED } = cache.constants.compileCacheStatus;
  if (status === ENABLED || status === ALREADY_ENABLED) cache.flushCompileCache();
  return loaded;
}

/**
 * configure() only until it has run: it adds the lifecycle (the host calls no other method before it).
 */
const vpsShim: Pick<pulumi.dynamic.ResourceProvider<VpsInputs, VpsOutputs>, "configure"> &
  Partial<Lifecycle> = {
  async configure(req: pulumi.dynamic.ConfigureRequest) {
    const impl = withCompileCache(() => require("pulumi-rimuhosting/impl") as Impl);
    Object.assign(this, lifecycleOf(impl));
    return impl.configure(req);
  },
};

export = vpsShim;
