/**
 * The budget's plan shared by the provider processes of one command (provider/impl/account/shared-plan.ts). The
 * invariant: for any interleaving of records, forgets and replacements by two runs on one plan file, each run sees
 * exactly what a plan rewritten whole at every step would hold (the latest entry of each resource, the other run's
 * fees and replaced orders, never its own, and of those the ones whose replacement is kept; whether any run failed on
 * the budget), and no step rewrites what the file already holds (a check appends; it
 * does not read and write the whole plan, which made a preview's checks cost the square of the fleet). fast-check
 * generates the interleavings; a line torn by a writer not yet done counts once it is whole.
 */
import fc from "fast-check";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { sweepPlanFiles } from "../../../provider/impl/account/plan-files";
import { SharedPlan } from "../../../provider/impl/account/shared-plan";
import { writerOf } from "../../../provider/impl/account/plan-writer";
import { startTimeOf } from "../../../provider/impl/engine/process-start";
import { RunContext } from "../../../provider/impl/engine/run-context";
import type { VpsFee } from "../../../provider/impl/cost/verdict";
import type { AboutOrder } from "../../../contract/index";
import { CREATION_TOKEN_KEY } from "../../../provider/client/metadata-keys";

type Op =
  | { writer: 0 | 1; kind: "record"; resource: string; cents: number; nowCents?: number }
  | { writer: 0 | 1; kind: "forget"; resource: string }
  | { writer: 0 | 1; kind: "replaced" | "unreplaced" | "kept"; oid: number }
  | { writer: 0 | 1; kind: "failing" };

const resource = fc.constantFrom("vps-a", "vps-b", "vps-c", "vps-d");
const writer = fc.constantFrom<0 | 1>(0, 1);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    writer,
    kind: fc.constant("record" as const),
    resource,
    cents: fc.integer({ min: 0, max: 100_000 }),
    nowCents: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
  }),
  fc.record({ writer, kind: fc.constant("forget" as const), resource }),
  fc.record({
    writer,
    kind: fc.constantFrom("replaced" as const, "unreplaced" as const, "kept" as const),
    oid: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ writer, kind: fc.constant("failing" as const) }),
);

interface ModelEntry {
  writer: 0 | 1;
  fee: VpsFee;
}

const feeOf = (o: Extract<Op, { kind: "record" }>, before?: ModelEntry): VpsFee => {
  const nowCents = o.nowCents ?? before?.fee.nowCents;
  return { name: o.resource, after: { cents: o.cents }, ...(nowCents === undefined ? {} : { nowCents }) };
};

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "shared-plan-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("two runs on one plan see what a plan rewritten whole would hold, and each step only appends", () => {
  let round = 0;
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const file = path.join(dir, `plan-${round++}.jsonl`);
      const plans = [new SharedPlan(file, "run-0"), new SharedPlan(file, "run-1")] as const;
      const resources = new Map<string, ModelEntry>();
      const replaced = new Map<number, { by: 0 | 1; kept: boolean }>();
      let failing = false;
      for (const o of ops) {
        const before = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
        const plan = plans[o.writer];
        if (o.kind === "record") {
          plan.record(o.resource, {
            name: o.resource,
            after: { cents: o.cents },
            ...(o.nowCents === undefined ? {} : { nowCents: o.nowCents }),
          });
          // A run keeps only its own earlier check's fee now (a replacement's second check has none).
          const earlier = resources.get(o.resource);
          resources.set(o.resource, {
            writer: o.writer,
            fee: feeOf(o, earlier?.writer === o.writer ? earlier : undefined),
          });
        } else if (o.kind === "forget") {
          plan.forget(o.resource);
          resources.delete(o.resource);
        } else if (o.kind === "replaced") {
          plan.noteReplaced(o.oid);
          replaced.set(o.oid, { by: o.writer, kept: false });
        } else if (o.kind === "kept") {
          plan.noteKept(o.oid);
          const entry = replaced.get(o.oid);
          if (entry) entry.kept = true;
        } else if (o.kind === "failing") {
          plan.noteFailing();
          failing = true;
        } else {
          plan.forgetReplaced(o.oid);
          replaced.delete(o.oid);
        }
        const after = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
        expect(after.subarray(0, before.length).equals(before)).toBe(true);
        for (const w of [0, 1] as const) {
          const others = [...resources].filter(([, e]) => e.writer !== w).map(([, e]) => e.fee);
          const sorted = (fees: VpsFee[]) => [...fees].sort((a, b) => a.name.localeCompare(b.name));
          expect(sorted(plans[w].others(new Set()))).toEqual(sorted(others));
          const othersReplaced = [...replaced].filter(([, e]) => e.by !== w);
          const oids = (entries: typeof othersReplaced) => entries.map(([oid]) => oid).sort();
          expect([...plans[w].replacedByOthers()].sort()).toEqual(oids(othersReplaced));
          // Only a kept replacement's order is another run's to cancel (replaced-orders.ts).
          const kept = othersReplaced.filter(([, e]) => e.kept);
          expect([...plans[w].replacedByOthers(undefined, true)].sort()).toEqual(oids(kept));
          // A run failing on the budget fails the command: every run of it sees so, its own included.
          expect(plans[w].failing()).toBe(failing);
        }
      }
    }),
    { seed: 67, numRuns: 150 },
  );
});

/** One change of another provider's run, and how far it went when the reader listed the account and read the plan. */
interface Change {
  kind: "new" | "replace" | "replace-dbr" | "resize";
  /** Its fee after, and the fee now of the order it replaces or resizes. */
  after: number;
  now: number;
  /** The stage the reader's listing saw, and the (later or same) stage its read of the plan saw (STAGES). */
  listed: number;
  read: number;
}

/**
 * What each change has done at each stage: its order on the account (R: the order it replaces or resizes, at its fee;
 * N: its new order), and the plan's lines written, as vps-check.ts, order-guard.ts and vps-provider.ts write them.
 */
const STAGES: Record<Change["kind"], ("record" | "ordered" | "made" | "resized" | "cancelled")[]> = {
  new: ["record", "ordered", "made"],
  replace: ["record", "ordered", "made", "cancelled"],
  "replace-dbr": ["record", "cancelled", "ordered", "made"],
  resize: ["record", "resized", "made"],
};

const changeArb: fc.Arbitrary<Change> = fc
  .record({
    kind: fc.constantFrom<Change["kind"]>("new", "replace", "replace-dbr", "resize"),
    after: fc.integer({ min: 0, max: 5_000 }),
    now: fc.integer({ min: 0, max: 5_000 }),
    a: fc.nat(),
    b: fc.nat(),
  })
  .map(({ kind, after, now, a, b }) => {
    const stages = STAGES[kind].length;
    const [listed, read] = [a % stages, b % stages].sort((x, y) => x - y) as [number, number];
    return { kind, after, now: kind === "new" ? 0 : now, listed, read };
  });

const order = (oid: number, cents: number, token?: string): AboutOrder =>
  ({
    order_oid: oid,
    billing_info: { monthly_recurring_fee: cents / 100 },
    meta_data: token === undefined ? [] : [{ key_name: CREATION_TOKEN_KEY, value: token }],
  }) as unknown as AboutOrder;

test("another run's change counts exactly once against a listing read before, during or after it is made", () => {
  let round = 0;
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 3 }),
      fc.array(changeArb, { minLength: 1, maxLength: 4 }),
      (untouched, changes) => {
        const file = path.join(dir, `reconcile-${round++}.jsonl`);
        const writer = new SharedPlan(file, "other");
        const reader = new SharedPlan(file, "reader");
        const listing: AboutOrder[] = untouched.map((cents, i) => order(1 + i, cents));
        changes.forEach((c, i) => {
          const [old, fresh, token, resource] = [100 + i, 200 + i, `token-${i}`, `vps-${i}`];
          const done = new Set(STAGES[c.kind].slice(0, c.listed + 1));
          const resize = c.kind === "resize";
          // The listing as it was at its stage: the order replaced or resized, and the new order.
          if (resize) listing.push(order(old, done.has("resized") ? c.after : c.now, token));
          else if (c.kind !== "new" && !done.has("cancelled")) listing.push(order(old, c.now, "old-token"));
          if (done.has("ordered")) listing.push(order(fresh, c.after, token));
          // The plan as it was at its (later) stage.
          for (const stage of STAGES[c.kind].slice(0, c.read + 1)) {
            if (stage === "record")
              writer.record(
                resource,
                {
                  name: resource,
                  after: { cents: c.after },
                  ...(c.kind === "new" ? {} : { nowCents: c.now }),
                },
                { ...(c.kind === "new" ? {} : { order: old }), replaces: !resize && c.kind !== "new", token },
              );
            if (stage === "made") {
              writer.made(resource, resize ? undefined : fresh);
              if (c.kind === "replace") writer.noteReplaced(old, fresh);
            }
          }
        });
        const others = reader.othersOn(new Set(), listing);
        const fees = [...others.planned, ...others.made];
        const moves = fees.reduce(
          (sum, f) => sum + ("cents" in f.after ? f.after.cents : 0) - (f.nowCents ?? 0),
          0,
        );
        const listed = (orders: readonly AboutOrder[]) =>
          orders.reduce((sum, o) => sum + (o.billing_info!.monthly_recurring_fee ?? 0) * 100, 0);
        // The preview's figure: the orders the changes leave alone, each change at its fee after.
        const expected = untouched.reduce((a, b) => a + b, 0) + changes.reduce((sum, c) => sum + c.after, 0);
        // As a check counts (budget.ts): the listing's total moved.
        expect(Math.round(listed(listing) + others.addCents - others.leftOutCents + moves)).toBe(expected);
        // As the guard counts (guard-run.ts): the orders left out, also those replaced by another run.
        const replaced = reader.replacedByOthers(listing);
        const counted = listing.filter((o) => !others.leftOut.has(o.order_oid) && !replaced.has(o.order_oid));
        expect(Math.round(listed(counted) + others.addCents + moves)).toBe(expected);
      },
    ),
    { seed: 64, numRuns: 300 },
  );
});

test("a line not yet whole counts once its writer ends it; a foreign line counts for nothing", () => {
  const file = path.join(dir, "plan.jsonl");
  const reader = new SharedPlan(file, "reader");
  const whole = JSON.stringify({
    key: "vps-a",
    writer: "other",
    at: Date.now(),
    fee: { name: "vps-a", after: { cents: 500 } },
  });
  fs.writeFileSync(file, `not json\n{"key":1}\n${whole.slice(0, 20)}`);
  expect(reader.others(new Set())).toEqual([]);
  fs.appendFileSync(file, `${whole.slice(20)}\n`);
  expect(reader.others(new Set())).toEqual([{ name: "vps-a", after: { cents: 500 } }]);
  expect(reader.others(new Set(["vps-a"]))).toEqual([]);
});

describe("old plan files are swept at most once an hour per directory", () => {
  const HOUR = 60 * 60 * 1000;
  const at = (file: string, msAgo: number, now: number) =>
    fs.utimesSync(file, new Date(now - msAgo), new Date(now - msAgo));

  /** A directory with a plan file of two days ago, one of a minute ago, another program's file, and the mark. */
  function directory(markMsAgo: number | undefined, now: number): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plan-sweep-"));
    for (const [name, msAgo] of [
      ["pulumi-rimuhosting-plan-old.jsonl", 48 * HOUR],
      ["pulumi-rimuhosting-plan-new.jsonl", 60_000],
      ["someone-elses.jsonl", 48 * HOUR],
    ] as const) {
      fs.writeFileSync(path.join(dir, name), "");
      at(path.join(dir, name), msAgo, now);
    }
    if (markMsAgo !== undefined) {
      fs.writeFileSync(path.join(dir, "pulumi-rimuhosting-plan-swept"), "");
      at(path.join(dir, "pulumi-rimuhosting-plan-swept"), markMsAgo, now);
    }
    return dir;
  }

  test.each([
    ["never swept: the old plan goes", undefined, false],
    ["swept two hours ago: the old plan goes", 2 * HOUR, false],
    ["swept ten minutes ago: nothing is read or removed", 10 * 60_000, true],
  ])("%s", (_title, markMsAgo, oldKept) => {
    const now = Date.now();
    const dir = directory(markMsAgo, now);
    try {
      sweepPlanFiles(dir, now);
      expect(fs.readdirSync(dir).sort()).toEqual(
        [
          ...(oldKept ? ["pulumi-rimuhosting-plan-old.jsonl"] : []),
          "pulumi-rimuhosting-plan-new.jsonl",
          "pulumi-rimuhosting-plan-swept",
          "someone-elses.jsonl",
        ].sort(),
      );
      // A sweep marks the time; a skipped one leaves the mark as it was.
      const markAge = now - fs.statSync(path.join(dir, "pulumi-rimuhosting-plan-swept")).mtimeMs;
      expect(markAge < 5 * 60_000).toBe(!oldKept);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A process's start time is read from /proc (Linux); elsewhere a writer is its process id alone (plan-writer.ts).
const onLinux = process.platform === "linux" ? test : test.skip;
onLinux("an entry whose writer's process id another process got since counts for nothing", () => {
  // A real process holding a process id (this test's own), and an entry written under that id by a process that
  // started a tick before it: the writer the id belonged to once.
  const pid = process.pid;
  const start = startTimeOf(pid);
  expect(start).toMatch(/^\d+$/);
  const file = path.join(dir, "reused-pid.jsonl");
  const entry = (writer: string, key: string) =>
    JSON.stringify({ key, writer, at: Date.now(), fee: { name: key, after: { cents: 500 } } });
  fs.writeFileSync(
    file,
    [
      entry(`${pid}:${Number(start) - 1}/finished`, "finished"),
      entry(`${pid}:${start}/running`, "running"),
      // An earlier release's writer names no start time: its process id alone says it runs (plan-writer.ts).
      entry(`${pid}/earlier-release`, "earlier release"),
    ].join("\n") + "\n",
  );
  const names = new SharedPlan(file, "reader").others(new Set()).map((f) => f.name);
  expect(names).toEqual(["running", "earlier release"]);
  // This process's runs write under their process id and its start time.
  expect(writerOf(new RunContext("a command"))).toMatch(new RegExp(`^${pid}:${start}/`));
});

describe("the orders of one command, whatever the key (account/command-orders.ts)", () => {
  it("a provider with another API key of the same command knows the order a sibling is about to place", () => {
    // Two provider processes of one engine run, each configured with its own key (their plans are per key).
    const command = `127.0.0.1:${40_000 + Math.floor(Math.random() * 20_000)}-${process.pid}-${Date.now()}`;
    const first = SharedPlan.forAccount("key-hash-of-the-first-key", new RunContext(command));
    const second = SharedPlan.forAccount("key-hash-of-the-second-key", new RunContext(command));
    first.noteOrdering("nonce-of-the-first");
    expect(second.orderedByThisCommand().has("nonce-of-the-first")).toBe(true);
    // Another command's providers never take it for theirs.
    const later = SharedPlan.forAccount("key-hash-of-the-first-key", new RunContext(`${command}-later`));
    expect(later.orderedByThisCommand().has("nonce-of-the-first")).toBe(false);
  });
});
