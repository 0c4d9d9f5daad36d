/**
 * This run's deletes: each registered as it begins (vps-provider.ts's deleteVps, before anything of it awaits), by the
 * VPS's id, with the promise of its end. What a destroy's sweep (stack-strays.ts) and what it names (still-billed.ts)
 * know of the run's other deletes: the engine deletes only what a state holds, so an order whose delete this run began
 * is held, never one a killed run left in no state.
 *
 * The sweep reads the backend (the states, the identity, the run records: `pulumi` CLI reads, which held the judging
 * delete of a 500-VPS destroy for seconds) only for an order it must judge. With `--parallel` at least the fleet's size
 * the engine sends every delete at once, but one after another, over a second or more: so the sweep first waits while
 * they keep arriving (ordersNotBeingDeleted), and an order whose delete arrives meanwhile is not one to read the
 * backend for. A pause of DELETES_QUIET_MS with none arriving ends the wait: a destroy of `--parallel 8` (the CLI's
 * default on 2 cores) sends its next delete only once one ends, seconds later against the real API.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { runState, type RunContext } from "../engine/run-context.js";

/** How long the sweep waits, after the last of this run's deletes began, for another to begin. */
export const DELETES_QUIET_MS = 200;

interface RunDeletes {
  /** The deletes begun, by VPS id: each settles (never rejects) when its delete ends. */
  byId: Map<string, Promise<unknown>>;
  /** Their ids in the order begun: the wait for more reads only those begun since it last looked. */
  begun: string[];
  /** When the last one began (performance.now()); none yet: -Infinity. */
  lastBegun: number;
  /** Wakes the one wait for more deletes (a run sweeps once), if it waits. */
  wake?: () => void;
}

const DELETES = runState("this run's deletes, by VPS id", (): RunDeletes => ({
  byId: new Map(),
  begun: [],
  lastBegun: -Infinity,
}));

/** Notes that this run began the delete of VPS `id` (`done`: the delete), before anything of it awaits. */
export function noteDeleting(run: RunContext, id: string, done: Promise<unknown>): void {
  const deletes = run.get(DELETES);
  deletes.byId.set(
    id,
    done.catch(() => undefined),
  );
  deletes.begun.push(id);
  deletes.lastBegun = performance.now();
  deletes.wake?.();
}

/** This run's delete of VPS `id` (settles when it ends), or undefined when this run began none. */
export function deleteOf(run: RunContext, id: string): Promise<unknown> | undefined {
  return run.get(DELETES).byId.get(id);
}

/**
 * Of `orders`, those whose delete this run did not begin, once this run's deletes stopped beginning for `quietMs`;
 * none as soon as every one of them has one (a VPS's id is its order's number). Each delete begun wakes the wait,
 * which strikes off only the ids begun since it last looked: looking through all of `orders` at each wake cost a
 * 2,000-VPS destroy 0.38 s of the host's CPU (the bench's profile), growing as the square of the fleet.
 */
export async function ordersNotBeingDeleted(
  run: RunContext,
  orders: readonly AboutOrder[],
  quietMs = DELETES_QUIET_MS,
): Promise<AboutOrder[]> {
  const deletes = run.get(DELETES);
  const waiting = new Set(orders.map((order) => String(order.order_oid)));
  let looked = 0;
  for (;;) {
    for (; looked < deletes.begun.length; looked++) waiting.delete(deletes.begun[looked]!);
    const quietFor = performance.now() - deletes.lastBegun;
    if (waiting.size === 0 || quietFor >= quietMs)
      return orders.filter((order) => waiting.has(String(order.order_oid)));
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (deletes.wake === done) deletes.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, quietMs - quietFor);
      deletes.wake = done;
    });
  }
}
