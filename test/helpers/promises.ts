/**
 * What tests wait for: the error a promise rejects with, and a condition that comes true. One copy for every
 * test (and the tools that share test code). No jest globals: test/helpers is also compiled into dist/ for the
 * child processes tests start.
 */
import { inspect } from "node:util";
import { scaledMs } from "./deadlines.js";

type Class<T> = abstract new (...args: never[]) => T;

/**
 * The error `promise` rejects with. Throws (failing the test) if it resolves, or, given `expected`, if the
 * error is not an instance of that class.
 */
export async function rejectionOf<E = Error>(promise: Promise<unknown>, expected?: Class<E>): Promise<E> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    if (expected && !(error instanceof expected))
      throw new Error(`expected a ${expected.name}, but the promise rejected with ${inspect(error)}`, {
        cause: error,
      });
    return error as E;
  }
  throw new Error(`expected the promise to reject, but it resolved with ${inspect(value, { depth: 2 })}`);
}

/**
 * Resolves once `condition` holds, checking it every `intervalMs`; throws naming `what` after `timeoutMs` (written for
 * the reference machine, scaled to this one: test/helpers/deadlines.ts). For what has no event to wait on (another
 * process's state, a request log).
 */
export async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 60_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const waitMs = scaledMs(timeoutMs);
  const deadline = Date.now() + waitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${waitMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
