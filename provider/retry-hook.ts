/**
 * A callback for Pulumi's `onError` resource hook (`new pulumi.ErrorHook(name, retryTransientErrors())`, in
 * `hooks: { onError: [...] }` of a resource's options; @pulumi/pulumi 3.218 and later, CLI 3.244 and later for every
 * provider's errors): the engine calls it when a create, update or delete of the resource failed, with the errors so
 * far, and runs the operation again when it answers true.
 *
 * It answers true only when the newest error carries a code the catalogue calls temporary (docs/errors.md: a 429 or
 * 5xx left after the client's retries, a timeout, an unreadable answer, a change left half done), and only while
 * fewer than `attempts` tries have failed; after a pause that grows with each try. A mistake in the program or the
 * settings (RIMU_ERR_VALIDATION, RIMU_ERR_CONFIG, …) or an error without a code is never retried: running it
 * again fails the same way. Running an operation again is safe: a create finds this stack's own order by its
 * creation token, an update compares with the live order (docs/vps.md).
 */
import { setTimeout as timer } from "node:timers/promises";
import { ERROR_CATALOGUE, type ErrorCode } from "./impl/engine/errors.js";

/** The part of Pulumi's ErrorHookArgs this callback reads. */
export interface FailedOperation {
  /** The errors seen so far, newest first. */
  errors: string[];
}

export interface RetryTransientOptions {
  /** How many tries in all, the first included, before the error stands (default 3). */
  attempts?: number;
  /** The pause before the second try, in ms; each further try waits as long again more (default 5000). */
  pauseMs?: number;
}

const CODE = /\[(RIMU_ERR_[A-Z_]+)\]/;

/** The code an error's text carries (the first in brackets), if it is one of the catalogue's. */
export function errorCodeOf(text: string): ErrorCode | undefined {
  const code = CODE.exec(text)?.[1];
  return code !== undefined && Object.hasOwn(ERROR_CATALOGUE, code) ? (code as ErrorCode) : undefined;
}

/** Whether an error's text carries a code the catalogue calls temporary. */
export function isTransientError(text: string): boolean {
  const code = errorCodeOf(text);
  return code !== undefined && ERROR_CATALOGUE[code].kind === "temporary";
}

/** The onError callback: true (after a pause) to run the failed operation again. */
export function retryTransientErrors(
  options: RetryTransientOptions = {},
): (args: FailedOperation) => Promise<boolean> {
  const attempts = options.attempts ?? 3;
  const pauseMs = options.pauseMs ?? 5000;
  return async ({ errors }) => {
    const newest = errors[0];
    if (newest === undefined || errors.length >= attempts || !isTransientError(newest)) return false;
    await timer(pauseMs * errors.length);
    return true;
  };
}
