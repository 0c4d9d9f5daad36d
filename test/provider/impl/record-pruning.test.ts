/**
 * Which of a stack's run records and take-backs can prove nothing any more (provider/impl/ownership/record-pruning.ts),
 * over generated stacks: any run records (ended or live, of this account or another, with or without the operations
 * they counted), take-backs, a history of any length and any active orders. Pruning never changes "may this run
 * cancel this order?" (may-cancel.ts) for an active order, and never removes a live run's record (its history holds
 * exactly the operations it counted). Through the real CLI: test/engine/record-pruning.test.ts.
 */
import fc from "fast-check";
import type { AboutOrder } from "../../../contract/index";
import { RUN_RECORD_KEY, STACK_IDENTITY_KEY } from "../../../provider/client/metadata-keys";
import { mayCancel, type OwnershipRecords } from "../../../provider/impl/ownership/may-cancel";
import { MAX_REMOVED, prunableTags } from "../../../provider/impl/ownership/record-pruning";
import {
  RUN_TAG_PREFIX,
  runsInTags,
  runTagValue,
  TOOK_TAG_PREFIX,
  tookInTags,
} from "../../../provider/impl/ownership/run-records";

const MARK = "id3-0123456789abcdef0123456789abcdef";
const MINE = "0123456789ab";
const OTHER = "ba9876543210";
const scope = { project: "shop", stack: "dev" };

const run = fc.record({
  at: fc.integer({ min: 999_000, max: 1_100_000 }).map((s) => s * 1000),
  checkpoints: fc.boolean(),
  before: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  account: fc.constantFrom(MINE, OTHER, undefined),
});

const stack = fc
  .record({
    runs: fc.array(run, { minLength: 1, maxLength: 6 }),
    spans: fc.array(fc.integer({ min: 999_000, max: 1_100_000 }), { maxLength: 6 }),
    orders: fc.array(fc.record({ oid: fc.integer({ min: 1, max: 9 }), run: fc.nat(7), held: fc.boolean() }), {
      maxLength: 6,
    }),
    took: fc.array(fc.record({ oid: fc.integer({ min: 1, max: 9 }), run: fc.nat(5) }), { maxLength: 4 }),
  })
  .map(({ runs, spans, orders, took }) => {
    const ids = runs.map((_, i) => `${i}`.padStart(16, "0"));
    const tags: Record<string, string> = {};
    runs.forEach((record, i) => {
      const { account, before, ...rest } = record;
      tags[`${RUN_TAG_PREFIX}${ids[i]}`] = runTagValue({
        ...rest,
        ...(before === undefined ? {} : { before }),
        ...(account === undefined ? {} : { account }),
      });
    });
    for (const t of took) tags[`${TOOK_TAG_PREFIX}${t.oid}`] = ids[t.run % ids.length]!;
    const seen = new Set<number>();
    const active = orders
      .filter((o) => !seen.has(o.oid) && seen.add(o.oid))
      .map((o) => ({
        order: {
          order_oid: o.oid,
          domain_name: `vps-${o.oid}.example.com`,
          meta_data: [
            { key_name: STACK_IDENTITY_KEY, value: MARK },
            // Runs past the records: an order of a run this backend has no record of, or none at all.
            ...(o.run < ids.length ? [{ key_name: RUN_RECORD_KEY, value: ids[o.run]! }] : []),
            ...(o.run === ids.length ? [{ key_name: RUN_RECORD_KEY, value: "f".repeat(16) }] : []),
          ],
        } as AboutOrder,
        held: o.held,
      }));
    const finished = [...spans].sort((a, b) => a - b).map((start) => ({ start, end: start + 30 }));
    return { tags, finished, active };
  });

/** What this stack's backend records, from its tags and history, as a sweep reads them. */
const recordsOf = (
  tags: Record<string, string>,
  finished: { start: number; end: number }[],
  held: readonly AboutOrder[],
): OwnershipRecords => ({
  scope,
  identity: { mark: MARK },
  states: {
    stacks: [
      {
        stack: "dev",
        resources: held.map((o) => ({ type: "rimuhosting:index:Vps", outputs: { orderOid: o.order_oid } })),
      },
    ],
  },
  runs: { runs: runsInTags(tags), finished, took: tookInTags(tags) },
});

describe("pruning a stack's run records and take-backs", () => {
  it("never changes a judgement of an active order, and never removes a live run's record", () => {
    fc.assert(
      fc.property(stack, ({ tags, finished, active }) => {
        const orders = active.map((a) => a.order);
        const pruned = prunableTags(tags, finished.length, MINE, orders);
        expect(pruned.length).toBeLessThanOrEqual(MAX_REMOVED);
        const after = { ...tags };
        for (const name of pruned) {
          expect(tags[name]).toBeDefined();
          delete after[name];
        }
        const held = active.filter((a) => a.held).map((a) => a.order);
        for (const order of orders)
          expect(mayCancel(order, recordsOf(after, finished, held))).toEqual(
            mayCancel(order, recordsOf(tags, finished, held)),
          );
        // A live run holds the stack's lock: the history holds exactly the operations its record counted.
        for (const [id, record] of runsInTags(tags))
          if (record.before === undefined || record.before >= finished.length)
            expect(pruned).not.toContain(`${RUN_TAG_PREFIX}${id}`);
        // Only what names this account, and a take-back only of an order gone from it.
        for (const name of pruned) {
          if (name.startsWith(TOOK_TAG_PREFIX))
            expect(orders.map((o) => o.order_oid)).not.toContain(Number(name.slice(TOOK_TAG_PREFIX.length)));
          else expect(runsInTags(tags).get(name.slice(RUN_TAG_PREFIX.length))?.account).toBe(MINE);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("removes an ended run's record once no active order carries it, and a take-back once its order is gone", () => {
    const tags = {
      [`${RUN_TAG_PREFIX}${"1".repeat(16)}`]: runTagValue({
        at: 1_000_000_000,
        checkpoints: true,
        before: 0,
        account: MINE,
      }),
      [`${RUN_TAG_PREFIX}${"2".repeat(16)}`]: runTagValue({
        at: 1_000_100_000,
        checkpoints: true,
        before: 1,
        account: MINE,
      }),
      [`${RUN_TAG_PREFIX}${"3".repeat(16)}`]: runTagValue({
        at: 1_000_200_000,
        checkpoints: true,
        before: 2,
        account: MINE,
      }),
      [`${TOOK_TAG_PREFIX}7`]: "2".repeat(16),
    };
    // Two operations finished: runs 1 and 2 ended, run 3 is live (its history holds the 2 it counted).
    expect(prunableTags(tags, 2, MINE, []).sort()).toEqual(
      [
        `${RUN_TAG_PREFIX}${"1".repeat(16)}`,
        `${RUN_TAG_PREFIX}${"2".repeat(16)}`,
        `${TOOK_TAG_PREFIX}7`,
      ].sort(),
    );
    // Order 7, taken back by run 2, still billed: the take-back and run 2's record stay.
    const seven = { order_oid: 7, domain_name: "web.example.com", meta_data: [] } as unknown as AboutOrder;
    expect(prunableTags(tags, 2, MINE, [seven])).toEqual([`${RUN_TAG_PREFIX}${"1".repeat(16)}`]);
    // Another account's listing proves nothing of these records.
    expect(prunableTags(tags, 2, OTHER, [])).toEqual([]);
  });
});
