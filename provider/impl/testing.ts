/**
 * The seams tests (and the fault-matrix bench) use to drive the provider implementation in-process:
 * reset the per-host configuration and caches, read the catalogue once for all runs, shorten the read timeout and the creation look-up window,
 * collect log lines instead of printing them, read the budget guard's verdicts. Not part of the package: its exports map has no path to
 * this module, so programs cannot reach these.
 */
export { forgetRun, resetConfiguration } from "./lifecycle/runtime-config.js";
import { setReadTimeout, setRetryDelay as setRetryDelayOf } from "./lifecycle/runtime-config.js";
export type { BackendStates } from "./ownership/backend-states.js";
import type { BackendReader } from "./ownership/backend-reader.js";
import type { IdentityReader } from "./ownership/stack-identity.js";
export type { BackendReader } from "./ownership/backend-reader.js";
export type { StackIdentity } from "./ownership/stack-identity.js";
import {
  nextPreviewedWait as nextPreviewedWaitOf,
  setPreviewedWait as setPreviewedWaitOf,
} from "./ordering/previewed-wait.js";
import { guardVerdicts as guardVerdictsOf } from "./ordering/order-guard.js";
import { currentRun } from "./engine/run-context.js";
import { toStdout, type LogSink } from "./engine/log.js";
export { beginRun, currentRun, serving, type RunContext } from "./engine/run-context.js";
/** The guard's verdicts in the run this process serves now (the table of cases compares them). */
export const guardVerdicts = () => guardVerdictsOf(currentRun());
/** The read timeout of the provider's clients (the fault matrix's "client timeout"), for the run served now. */
export const setReadTimeoutForTests = (ms: number | undefined) => setReadTimeout(currentRun(), ms);
/** The wait between retries of the clients of the run served now (and of the runs begun after it). */
export const setRetryDelay = (ms: number | undefined) => setRetryDelayOf(currentRun(), ms);
/** How long a create of the run served now (and of the runs begun after it) looks its order up after a lost answer. */
export const setCreateLookupGrace = (ms: number | undefined) => {
  const run = currentRun();
  run.tuning = { ...run.tuning, createLookupGraceMs: ms };
};
/** The guard's longest wait for a previewed shrink, in the run served now (and the runs begun after it). */
export const setPreviewedWait = (ms: number | undefined) => setPreviewedWaitOf(currentRun(), ms);
/** The catalogues read once for the run served now and every run begun after it (on), or per run again (off). */
export const keepCatalogueForAllRuns = (on: boolean) => {
  const run = currentRun();
  run.tuning = { ...run.tuning, keptCatalogues: on ? new Map() : undefined };
};
/** Where the lines of the run served now (and of the runs begun after it) go; none: stdout, the host's output. */
export const setLogSink = (sink?: LogSink) => {
  currentRun().log = sink ?? toStdout;
};
/** What the run served now (and the runs begun after it) read instead of the backend (none: the CLI). */
export const setBackendReader = (read: Partial<BackendReader> | undefined) => {
  const run = currentRun();
  run.tuning = { ...run.tuning, backendReader: read };
};
/** Where the run served now (and the runs begun after it) reads its stack's identity from (none: the CLI). */
export const setStackIdentityReader = (read: IdentityReader | undefined) => {
  const run = currentRun();
  run.tuning = { ...run.tuning, identityReader: read };
};
/** Resolves when the guard of the run served now next starts waiting for a previewed shrink. */
export const nextPreviewedWait = () => nextPreviewedWaitOf(currentRun());
import { configuredAccountKey } from "./lifecycle/runtime-config.js";
import { previewedPlanFile, sharedPlanFile } from "./account/plan-files.js";
/** The shared plan's file (account/shared-plan.ts) of the engine run `command` on the configured account. */
export const sharedPlanFileOf = (command: string) =>
  sharedPlanFile(configuredAccountKey(currentRun(), "A test's shared plan"), command);
/** The previewed plan's file (account/previewed-plan.ts) of the stack `stack` (project/stack) on the configured account. */
export const previewedPlanFileOf = (stack: string) =>
  previewedPlanFile(configuredAccountKey(currentRun(), "A test's previewed plan"), stack);
