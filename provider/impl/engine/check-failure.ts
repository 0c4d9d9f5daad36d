import type { ErrorCode } from "./errors.js";

/**
 * Why check() refuses an input: the input (`sshKeys.1`, "" for the resource as a whole), the reason in the
 * user's terms, and the error code (RIMU_ERR_VALIDATION when not given). presentFailure() (vps-provider.ts)
 * turns it into the one line the user sees.
 */
export interface CheckFailure {
  property: string;
  reason: string;
  code?: ErrorCode;
}
