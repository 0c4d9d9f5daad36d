/**
 * The scheduler's turns in the model test (commands.ts): before each provider call a run makes (engine.ts's gate),
 * before each request the emulator serves while a command's runs are under way (the emulator's `turn` hook), and
 * before the answer of each order or change made (its `answerTurn` hook), so fast-check's scheduler interleaves
 * concurrent runs, and the concurrent calls of one run, inside their calls too. An order by hand placed during an
 * update waits here for the update's order it lands just before.
 */
import * as diagnostics from "node:diagnostics_channel";
import fc from "fast-check";
import type { Real } from "./commands";
import type { FastifyRequest } from "fastify";
import type { Gate } from "./engine";
import { landed, serving } from "./landings";

// ------------------------------------------------------------------------------------ a replayable interleaving

/**
 * What the runs are doing, for a replayable interleaving (issue 81). fast-check's scheduler picks the next task among
 * those scheduled when it picks; a request still on its way over loopback (or an answer on its way back) is not
 * scheduled yet, so which tasks were there, and so the interleaving, depended on the machine's timing, and a printed
 * seed and path did not replay it. So the scheduler picks only once every exchange of this process over HTTP (Node's
 * diagnostics channels count them: the provider's client, and the hand's) is parked at one of the emulator's turns
 * or finished, and the runs have had a few turns of the event loop to reach their next gate; and it picks among the
 * tasks sorted by label, whatever order they arrived in. What stays timing's: a run asleep on a timer (a retry's 1 ms
 * wait, a lost order looked up again), which a fault starts.
 */
const exchanges = new Set<unknown>();
let parked = 0;
/** Bumped at every change of what the runs are doing: a pick waits until it stops changing. */
let version = 0;
let wake: (() => void) | undefined;
const changed = () => {
  version++;
  wake?.();
};
const requestOf = (message: unknown) => (message as { request: unknown }).request;
diagnostics.subscribe("http.client.request.start", (message) => {
  exchanges.add(requestOf(message));
  changed();
});
for (const name of ["http.client.response.finish", "http.client.request.error"])
  diagnostics.subscribe(name, (message) => {
    exchanges.delete(requestOf(message));
    changed();
  });

/** Resolves at the next change, or after `ms` (an exchange that never ends must not hang the case). */
const nextChange = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      wake = undefined;
      resolve();
    };
  });
const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Until every exchange is parked at a turn or done, and nothing changed for three turns of the event loop. */
async function quiet(): Promise<void> {
  for (let waits = 0; waits < 200; waits++) {
    if (exchanges.size > parked) {
      await nextChange(250);
      continue;
    }
    const seen = version;
    for (let i = 0; i < 3; i++) await immediate();
    if (seen === version && exchanges.size <= parked) return;
  }
}

/** A task as fast-check's scheduler keeps it (its internals: the tasks it picks among, in their arrival order). */
type Scheduled = { label: string; taskId: number };
let picking: fc.Scheduler | undefined;

/**
 * The model's generated scheduler: fast-check's, its random picks from the case's seed (so a seed and a path replay
 * it), each made once the runs are quiet (above), among the tasks sorted by label.
 */
export const replayableScheduler = (): fc.Arbitrary<fc.Scheduler> => fc.scheduler({ act: quietAct });

/** How the model's schedulers pick: once the runs are quiet, among the tasks sorted by label. */
export async function quietAct<T>(pick: () => T | Promise<T>): Promise<T> {
  await quiet();
  const tasks = (picking as unknown as { scheduledTasks?: Scheduled[] } | undefined)?.scheduledTasks;
  tasks?.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : a.taskId - b.taskId));
  return pick();
}

/** The scheduler of the case now running (one at a time): the one whose tasks `act` sorts. */
export const nowPicking = (scheduler: fc.Scheduler): void => {
  picking = scheduler;
};

/** The scheduler's gate: each provider call of every run waits for its turn there. */
export const gateOf =
  (real: Real): Gate =>
  (label) => {
    changed();
    return real.scheduler.schedule(Promise.resolve(label), label).then(() => undefined);
  };

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
  async (endpoint: string, request?: FastifyRequest): Promise<void> => {
    const pending = real.beforeOrder;
    if (pending && endpoint === "createVps" && pending.left-- === 0) {
      real.beforeOrder = undefined;
      // Parked while the order by hand (an exchange of its own) is placed.
      parked++;
      try {
        await pending.place();
      } finally {
        parked--;
      }
    }
    if (!real.driving) return;
    await parkedAt(real, `serve ${endpoint}`);
    serving(real, endpoint, request);
  };

/** A request parked at one of the emulator's turns until the scheduler lets it through. */
async function parkedAt(real: Real, label: string): Promise<void> {
  parked++;
  changed();
  try {
    await real.scheduler.schedule(Promise.resolve(label), label);
  } finally {
    parked--;
    changed();
  }
}

/** The requests whose answer, once what they do is done, waits for its turn too (answerTurnOf). */
const ANSWERED = new Set(["createVps", "changeParameters", "moveVps"]);

/**
 * The emulator's `answerTurn` for `real`: the answer of an order, a resize or a move, once made, waits for its turn
 * while a command's runs are under way, so the scheduler serves another call's listing between a call's change and
 * its answer too: the listing then shows an order or a fee whose call has not returned (the guard's changes in flight).
 */
export const answerTurnOf =
  (real: Real) =>
  async (endpoint: string, request?: FastifyRequest): Promise<void> => {
    if (!real.driving || !ANSWERED.has(endpoint)) return;
    landed(real, endpoint, request);
    await parkedAt(real, `answer ${endpoint}`);
  };
