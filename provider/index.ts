/**
 * pulumi-rimuhosting: the Vps resource and the data sources. This module only re-exports.
 * Every type a public signature uses is exported here, so a user can name it.
 */
export { Vps, type VpsArgs, type VpsFile, type VpsOutputProperties, type VpsTimeouts } from "./vps.js";
export type { DcLocation, VpsType } from "../contract/literals.js";
export * from "./data-sources/index.js";
export { CONFIG_KEYS, ENV_VARS, DEFAULT_BASE_URL } from "./config.js";
export * from "./impl/engine/error-classes.js";
export type { RimuErrorCode } from "./client/errors.js";
export {
  retryTransientErrors,
  isTransientError,
  type FailedOperation,
  type RetryTransientOptions,
} from "./retry-hook.js";
