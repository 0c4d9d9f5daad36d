/**
 * The `__provider` every Vps stores, twice (in its inputs and its outputs), and which the dynamic-provider host
 * loads: a module whose `handler()` returns the provider (the host runs it with require-from-string, from the
 * program's directory, and calls `handler()` once per text and process; docs/dynamic-providers.md §3).
 *
 * Written here rather than by the SDK's closure serializer (what `dynamic.Resource` does): the serializer wraps
 * even a `require()` in about 200 characters of scaffolding, and copies the shim by value where the package is
 * linked rather than installed (690 characters). This text is 60 characters in every layout, and the engine
 * rewrites it, with the whole state, around every step of an operation (issue 20).
 *
 * Stored states depend on it: `pulumi-rimuhosting/shim` must stay exported (package.json), and the shim's module
 * must stay the provider object (provider/vps-shim.ts). Earlier states hold the serializer's text, which requires
 * the shim by its path (`pulumi-rimuhosting/dist/provider/vps-shim.js`, also still exported) or carries it by
 * value.
 */
export const VPS_PROVIDER_TEXT = 'exports.handler = () => require("pulumi-rimuhosting/shim");\n';
