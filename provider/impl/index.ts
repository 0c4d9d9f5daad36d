/**
 * The implementation package of the Vps dynamic provider: `require("pulumi-rimuhosting/impl")`.
 *
 * The serialized shim (../vps-shim.ts) requires this module lazily inside each method, so nothing here
 * is ever captured: zod schemas, clients and configuration live in the host's require cache.
 * It exports the lifecycle the shim calls, the error classes docs/errors.md documents and the outputs'
 * type; the seams tests use are in ./testing.ts, which the package does not export.
 */
export { configure } from "./runtime-config.js";
export { check, diff, create, read, update, deleteVps, deleteVps as delete } from "./vps-provider.js";
export {
  VpsError,
  VpsIncompleteError,
  VpsChangeRefusedError,
  VpsAdoptionError,
  VpsForeignOrderError,
} from "./errors.js";
export type { VpsOutputs } from "./vps-outputs.js";
