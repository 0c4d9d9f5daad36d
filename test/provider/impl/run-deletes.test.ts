/**
 * The wait of a destroy's sweep for the run's other deletes (provider/impl/ownership/run-deletes.ts): it returns the
 * orders whose delete this run had not begun at the moment it returns, and returns with some only after a pause of
 * `quietMs` with no delete beginning. Deletes begin on generated timings, each waking the wait.
 */
import fc from "fast-check";
import type { AboutOrder } from "../../../contract/index";
import { beginRun } from "../../../provider/impl/engine/run-context";
import { noteDeleting, ordersNotBeingDeleted } from "../../../provider/impl/ownership/run-deletes";

const QUIET_MS = 10;
const never = new Promise<unknown>(() => undefined);

test("the orders left are those with no delete begun when it returns, after a quiet pause unless none is left", async () => {
  const plan = fc.array(
    fc.record({ oid: fc.integer({ min: 1, max: 40 }), at: fc.option(fc.integer({ min: 0, max: 25 })) }),
    { maxLength: 30 },
  );
  await fc.assert(
    fc.asyncProperty(plan, async (deletes) => {
      deletes.unshift({ oid: 41, at: null });
      const run = beginRun("destroy");
      const orders = [...new Set(deletes.map((d) => d.oid))].map((oid) => ({ order_oid: oid }) as AboutOrder);
      // The sweep waits inside a delete of the run (the judging one): it has begun.
      noteDeleting(run, String(orders[0]?.order_oid ?? 0), never);
      const begun = new Set([String(orders[0]?.order_oid ?? 0)]);
      let lastBegun = performance.now();
      const timers = deletes
        .filter((d) => d.at !== null)
        .map((d) =>
          setTimeout(() => {
            noteDeleting(run, String(d.oid), never);
            begun.add(String(d.oid));
            lastBegun = performance.now();
          }, d.at!),
        );
      const left = await ordersNotBeingDeleted(run, orders, QUIET_MS);
      const returnedAt = performance.now();
      timers.forEach(clearTimeout);
      expect(left).toEqual(orders.filter((order) => !begun.has(String(order.order_oid))));
      // A timer may fire up to a millisecond early by performance.now()'s clock.
      if (left.length > 0) expect(returnedAt - lastBegun).toBeGreaterThanOrEqual(QUIET_MS - 1);
    }),
    // Real timers: shrinking would re-run each smaller case with its waits, for minutes; the first failure is shown.
    { seed: 90, numRuns: 60, endOnFailure: true },
  );
});
