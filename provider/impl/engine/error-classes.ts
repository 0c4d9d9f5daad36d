/**
 * The error classes docs/errors.md documents, and their codes' types: exported by the package
 * (`pulumi-rimuhosting`) and by its implementation (`pulumi-rimuhosting/impl`), from this one list.
 */
export {
  VpsError,
  VpsIncompleteError,
  VpsChangeRefusedError,
  VpsAdoptionError,
  VpsForeignOrderError,
  type ErrorCode,
  type VpsErrorCode,
} from "./errors.js";
