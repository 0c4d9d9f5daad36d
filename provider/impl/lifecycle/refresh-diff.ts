/**
 * Which Diff is a refresh's. A refresh calls the provider's Diff right after its Read, to show the drift: the state
 * it just read as the old side, the recorded inputs as the new side, the diff inverted for display
 * (docs/dynamic-providers.md §11). That Diff plans nothing, so it must not say what a change would do or cost. Its
 * request says nothing of this, but the order of the calls does: a Diff that plans a change always follows the Check
 * of the program's inputs (in `up --refresh` too: that resource's refresh comes before its Check), while a refresh's
 * Diff follows a Read with no Check between. So read() marks the resource, check() clears the mark, and diff() takes
 * it. Per resource (its key, notes.ts), for one run (run-context.ts): both front ends serve a whole run from one.
 *
 * A resource's key is its creationScope when the values carry one, else its domain name, and its recorded inputs and
 * outputs need not agree: after `pulumi import` (or the `import` resource option, or a state older than
 * creationScope) the outputs come from a read without it, while the next up records the program's checked inputs,
 * with it. read() knows only the outputs, so check() clears and diff() takes the mark under the keys of both sides.
 */

import { runState, type RunContext } from "../engine/run-context.js";

/** Resources read since their last check (kept by the run, run-context.ts): their next diff is a refresh's. */
const READ_SINCE_CHECK = runState("resources read since their last check", () => new Set<string>());
const readSinceCheck = (run: RunContext): Set<string> => run.get(READ_SINCE_CHECK);

/** read() of `run` read this resource (a refresh, or an `up --refresh` before the program's check). */
export function noteRead(run: RunContext, resource: string): void {
  readSinceCheck(run).add(resource);
}

/** check() checked the program's inputs of this resource (known by these keys): its next diff plans a change. */
export function noteChecked(run: RunContext, ...keys: string[]): void {
  for (const key of keys) readSinceCheck(run).delete(key);
}

/** True for the diff that follows a read with no check between (a refresh's), once; under any of its keys. */
export function takeRefreshDiff(run: RunContext, ...keys: string[]): boolean {
  let marked = false;
  for (const key of keys) marked = readSinceCheck(run).delete(key) || marked;
  return marked;
}
