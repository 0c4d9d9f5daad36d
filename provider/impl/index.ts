/**
 * The implementation package of the Vps dynamic provider: `require("pulumi-rimuhosting/impl")`.
 *
 * The serialized shim (../vps-shim.ts) requires this module lazily inside each method, so nothing here
 * is ever captured: zod schemas, clients and configuration live in the host's require cache.
 * Besides the lifecycle it exports only what tests need to drive it (reset, clock, log sink, grace).
 */
export { configure, resetConfiguration, clientFor, setReadTimeoutForTests } from "./runtime-config.js";
export {
  check,
  diff,
  create,
  read,
  update,
  deleteVps,
  deleteVps as delete,
  setClock,
  setCreateLookupGrace,
} from "./vps-provider.js";
export {
  ERROR_CATALOGUE,
  VpsError,
  VpsIncompleteError,
  VpsChangeRefusedError,
  VpsAdoptionError,
  VpsForeignOrderError,
} from "./errors.js";
export { PENDING_ID_PREFIX } from "./vps-create.js";
export { setLogSink } from "./log.js";
export { parseCredit } from "./money.js";
export type { VpsOutputs } from "./vps-outputs.js";
