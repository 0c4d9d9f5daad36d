/**
 * The harness's own deadlines (how long it waits for a process, a log line, a condition), scaled by the same factor
 * as jest's time limits: how much slower than the reference machine this one is right now (test/helpers/time-scale.js,
 * put on the test's global by test/helpers/load-scaled-environment.js). A deadline is written for the reference
 * machine; `scaledMs` gives it on this one. Outside a jest test (a tool running test/helpers from dist/) the factor is 1.
 * No jest globals: test/helpers is also compiled into dist/.
 */

/** The key the test environment sets (load-scaled-environment.js, TIME_SCALE_KEY). */
const TIME_SCALE_KEY = Symbol.for("pulumi-rimuhosting.test.timeScale");

/** The factor now: 1 or more, and 1 outside the test environment. */
export function timeScale(): number {
  const current = (globalThis as Record<symbol, unknown>)[TIME_SCALE_KEY];
  return typeof current === "function" ? (current as () => number)() : 1;
}

/** `ms`, a deadline written for the reference machine, on this machine now. */
export function scaledMs(ms: number): number {
  return Math.round(ms * timeScale());
}
