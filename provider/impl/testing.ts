/**
 * The seams tests (and the fault-matrix bench) use to drive the provider implementation in-process:
 * reset the per-host configuration and caches, read the catalogue once for all runs, shorten the read timeout and the creation look-up window,
 * collect log lines instead of printing them, read the budget guard's verdicts. Not part of the package: its exports map has no path to
 * this module, so programs cannot reach these.
 */
export { forgetRun, resetConfiguration, setRetryDelay } from "./lifecycle/runtime-config.js";
import { setReadTimeout } from "./lifecycle/runtime-config.js";
export { setCreateLookupGrace } from "./lifecycle/vps-create.js";
export { keepCatalogueForAllRuns } from "./account/catalog.js";
export type { BackendStates } from "./ownership/backend-states.js";
export { setBackendReader, type BackendReader } from "./ownership/backend-reader.js";
export { setStackIdentityReader, type StackIdentity } from "./ownership/stack-identity.js";
export { setLogSink } from "./engine/log.js";
export { nextPreviewedWait, setPreviewedWait } from "./ordering/previewed-wait.js";
import { guardVerdicts as guardVerdictsOf } from "./ordering/order-guard.js";
import { currentRun } from "./engine/run-context.js";
export { beginRun, currentRun, serving, type RunContext } from "./engine/run-context.js";
/** The guard's verdicts in the run this process serves now (the table of cases compares them). */
export const guardVerdicts = () => guardVerdictsOf(currentRun());
/** The read timeout of the provider's clients (the fault matrix's "client timeout"), for the run served now. */
export const setReadTimeoutForTests = (ms: number | undefined) => setReadTimeout(currentRun(), ms);
import { configuredAccountKey } from "./lifecycle/runtime-config.js";
import { previewedPlanFile, sharedPlanFile } from "./account/plan-files.js";
/** The shared plan's file (account/shared-plan.ts) of the engine run `command` on the configured account. */
export const sharedPlanFileOf = (command: string) =>
  sharedPlanFile(configuredAccountKey("A test's shared plan"), command);
/** The previewed plan's file (account/previewed-plan.ts) of the stack `stack` (project/stack) on the configured account. */
export const previewedPlanFileOf = (stack: string) =>
  previewedPlanFile(configuredAccountKey("A test's previewed plan"), stack);
