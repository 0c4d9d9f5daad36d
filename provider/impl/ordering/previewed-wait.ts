/**
 * The guard's wait for a shrink the preview planned and this update has not checked yet (docs/cost.md, "What a
 * budget limits, and when"; the record: account/previewed-plan.ts).
 *
 * The update of `pulumi up` checks each VPS as its registration reaches the engine and runs a create just after its
 * check, so a create can be judged before the check of a shrink its preview counted. The guard counts only the
 * shrinks this run has checked (I3), so such a create is over. Before refusing it, the guard asks whether the latest
 * preview of the stack planned shrinks this run has neither checked nor made that would make it pass; if so it waits
 * for their checks (the engine goes on checking while a create runs), polling this run's ledger, bounded, then judges
 * once more on the account read again. What the preview planned is only a reason to wait: never counted.
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { AccountView } from "../account/account-view.js";
import { previewedShrinksNotSeen } from "../account/previewed-plan.js";
import { judgementOf, type Limits, type VpsFee } from "../cost/verdict.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { runTotals, type Guard } from "./guard-run.js";

/** How often the ledger is looked at while waiting. */
const POLL_MS = 50;
/**
 * The longest wait: the engine checks the VPSs of a program in well under this once their inputs are known. A change
 * whose time limit ends sooner waits only until then; a longer one (the default hour) does not lengthen it, so a
 * shrink that is never checked (a `--target`ed run, a program changed since its preview) holds `up` this long at most.
 */
const WAIT_MS = 30_000;

/** Tests: the longest wait of `run`'s guard (undefined: WAIT_MS). */
export function setPreviewedWait(run: RunContext, ms: number | undefined): void {
  run.tuning = { ...run.tuning, previewedWaitMs: ms };
}

/** Who waits for the guard's next wait in a run (tests: nextPreviewedWait()). */
const WAIT_WATCHERS = runState("the tests waiting for the guard's next wait", () => [] as (() => void)[]);

/**
 * Tests: resolves when `run`'s guard next starts waiting. Nothing else marks it: the guard's verdict comes only
 * after the wait, so a test that must check the shrink during the wait has no other signal to wait on.
 */
export function nextPreviewedWait(run: RunContext): Promise<void> {
  return new Promise((resolve) => run.get(WAIT_WATCHERS).push(resolve));
}

/**
 * Waits, when the latest preview planned shrinks not checked in this run that would make `judging` pass, until this
 * run has checked (or made) them all. True when they were all checked in time: the caller judges again.
 */
export async function waitForPreviewedShrinks(
  run: Guard,
  view: AccountView,
  settings: Limits,
  orders: readonly AboutOrder[],
  judging: { resource: string; fee: VpsFee },
  /** When the change must be done (its create's or update's time limit): the wait never outlasts it. */
  deadlineMs = Infinity,
): Promise<boolean> {
  // Checked by this run, or by another provider's of the command, whose shared plan runTotals counts.
  const seen = (key: string) =>
    view.fees.checked().has(key) ||
    run.settled.has(key) ||
    run.applied.has(key) ||
    view.sharedPlan?.checkedByOthers(key) === true;
  const missing = previewedShrinksNotSeen(view.previewed, judging.resource, seen);
  if (missing.length === 0) return false;
  const supposed = runTotals(
    run,
    view,
    orders,
    judging,
    missing.map(([, fee]) => fee),
  );
  if (judgementOf(settings, supposed.totals, judging.fee) === "over") return false;
  // The engine's customTimeouts (or the Vps `timeouts` input) bounds the whole change: a shorter one bounds the wait.
  const until = Math.min(Date.now() + (run.context.tuning.previewedWaitMs ?? WAIT_MS), deadlineMs);
  if (until <= Date.now()) return false;
  for (const started of run.context.get(WAIT_WATCHERS).splice(0)) started();
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (missing.every(([key]) => seen(key))) return true;
  }
  return false;
}
