/**
 * Budget verdicts a check leaves to the step the engine says is a preview's (docs/cost.md, "What a budget limits,
 * and when").
 *
 * Why: the native plugin's Check is not told whether it is the preview's or the update's, and the update checks each
 * VPS as its registration arrives, in an order that can differ from the preview's. A create that is over at its check
 * only for a shrink the stack's latest preview planned and this run has not checked yet (budget.ts) is then not
 * refused there: the update's guard waits for that check (ordering/previewed-wait.ts). The engine says which phase it
 * is at the step: a Create or Update with `preview` set refuses with the check's verdict (vps-check.ts's
 * previewRefusal), one with `preview` unset is judged by the guard when ordering.
 *
 * Owns: the verdicts left by this run's checks, by resource.
 */
import type { CheckFailure } from "../engine/check-failure.js";
import { runState, type RunContext } from "../engine/run-context.js";

const LEFT = runState(
  "the budget's verdicts a check left to its preview's create or update",
  () => new Map<string, CheckFailure>(),
);

/** `resource`'s check left `failure` to its preview step (undefined: its latest check left none). */
export function leaveToPreviewStep(
  run: RunContext,
  resource: string,
  failure: CheckFailure | undefined,
): void {
  const left = run.get(LEFT);
  if (failure === undefined) left.delete(resource);
  else left.set(resource, failure);
}

/** The verdict `resource`'s check left to its preview step, if any. */
export const leftToPreviewStep = (run: RunContext, resource: string): CheckFailure | undefined =>
  run.get(LEFT).get(resource);
