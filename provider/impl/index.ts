/**
 * The implementation package of the Vps resource, shared by both front ends: `require("pulumi-rimuhosting/impl")`.
 *
 * The dynamic provider's serialized shim (../vps-shim.ts) requires this module lazily inside each method, so
 * nothing here is ever captured: zod schemas, clients and configuration live in the host's require cache. The
 * native plugin (../native/vps-resource.ts) calls the same lifecycle and the core under check() and diff().
 * It exports the lifecycle, that core, the error classes docs/errors.md documents and the types of the inputs
 * and the recorded state; the seams tests use are in ./testing.ts, which the package does not export.
 */
import { configure as configureRun, type ConfigureRequestLike } from "./lifecycle/runtime-config.js";
import { currentRun } from "./engine/run-context.js";
import * as lifecycle from "./vps-provider.js";
import { linesWritten } from "./engine/log.js";

/** An engine call that answers once the lines it logged are written (engine/log.ts writes them in batches). */
function answeringAfterItsLines<A extends unknown[], R>(
  call: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await call(...args);
    } finally {
      await linesWritten();
    }
  };
}

/** The engine's first call to the provider: the settings of the run this process serves (runtime-config.ts). */
export const configure = (req: ConfigureRequestLike): Promise<void> => configureRun(currentRun(), req);

export const check = answeringAfterItsLines(lifecycle.check);
export const diff = answeringAfterItsLines(lifecycle.diff);
export const create = answeringAfterItsLines(lifecycle.create);
export const read = answeringAfterItsLines(lifecycle.read);
export const update = answeringAfterItsLines(lifecycle.update);
export const deleteVps = answeringAfterItsLines(lifecycle.deleteVps);
export { deleteVps as delete };
// The core under check() and diff(), returning what they found as data (for the native plugin's front end).
export { checkVps, diffVps, presentFailure, previewRefusal } from "./vps-provider.js";
export type { CheckResult, DiffResult } from "./vps-provider.js";
export type { ChangeEffects } from "./lifecycle/vps-effects.js";
export type { Note } from "./engine/notes.js";
export type { CheckFailure } from "./engine/check-failure.js";
export * from "./engine/error-classes.js";
export type { RecordedOutputs, VpsOutputs } from "./inputs/vps-outputs.js";
export type { VpsInputs } from "./inputs/vps-input-schema.js";
