/**
 * The scheduler's turns in the model test (commands.ts): before each provider call a run makes (engine.ts's gate),
 * before each request the emulator serves while a command's runs are under way (the emulator's `turn` hook), and
 * before the answer of each order or change made (its `answerTurn` hook), so fast-check's scheduler interleaves
 * concurrent runs, and the concurrent calls of one run, inside their calls too. An order by hand placed during an
 * update waits here for the update's order it lands just before.
 */
import type { Real } from "./commands";
import type { Gate } from "./engine";

/** The scheduler's gate: each provider call of every run waits for its turn there. */
export const gateOf =
  (real: Real): Gate =>
  (label) =>
    real.scheduler.schedule(Promise.resolve(label), label).then(() => undefined);

/**
 * Waits for `task`, a command's runs, under the scheduler: meanwhile every request the emulator serves also waits
 * for its turn there (its `turn` hook, set by the test's world), so the scheduler interleaves the runs inside their
 * provider calls too: between a create's listing of the account, its order and its read-back.
 */
export async function drive<T>(real: Real, task: Promise<T>): Promise<T> {
  real.driving = true;
  try {
    return await real.scheduler.waitFor(task);
  } finally {
    real.driving = false;
  }
}

/** The emulator's `turn` for `real`: a request served while a command's runs are under way waits for its turn. */
export const turnOf =
  (real: Real) =>
  async (endpoint: string): Promise<void> => {
    const pending = real.beforeOrder;
    if (pending && endpoint === "createVps" && pending.left-- === 0) {
      real.beforeOrder = undefined;
      await pending.place();
    }
    if (real.driving) await real.scheduler.schedule(Promise.resolve(endpoint), `serve ${endpoint}`);
  };

/** The requests whose answer, once what they do is done, waits for its turn too (answerTurnOf). */
const ANSWERED = new Set(["createVps", "changeParameters", "moveVps"]);

/**
 * The emulator's `answerTurn` for `real`: the answer of an order, a resize or a move, once made, waits for its turn
 * while a command's runs are under way, so the scheduler serves another call's listing between a call's change and
 * its answer too: the listing then shows an order or a fee whose call has not returned (the guard's changes in flight).
 */
export const answerTurnOf =
  (real: Real) =>
  async (endpoint: string): Promise<void> => {
    if (real.driving && ANSWERED.has(endpoint))
      await real.scheduler.schedule(Promise.resolve(endpoint), `answer ${endpoint}`);
  };
