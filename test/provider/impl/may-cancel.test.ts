/**
 * "May this run cancel this order?" (provider/impl/ownership/may-cancel.ts): only on a positive record kept in this
 * stack's backend. Each case names the record; none of "no state holds it" proves anything. Through the sweep, in
 * process: destroy-after-killed-run.test.ts; through the real CLI: test/engine/*.
 */
import type { AboutOrder } from "../../../contract/index";
import {
  CREATION_NONCE_KEY,
  RUN_RECORD_KEY,
  STACK_IDENTITY_KEY,
} from "../../../provider/client/metadata-keys";
import { skipsCheckpoints } from "../../../provider/impl/ownership/backend-reader";
import { mayCancel, type OwnershipRecords } from "../../../provider/impl/ownership/may-cancel";
import { runsInTags, RUN_TAG_PREFIX } from "../../../provider/impl/ownership/run-records";

const MARK = "id3-0123456789abcdef0123456789abcdef";
const scope = { project: "shop", stack: "dev" };
const VPS = "rimuhosting:index:Vps";

const order = (oid: number, marks: { nonce?: string; mark?: string; run?: string }): AboutOrder =>
  ({
    order_oid: oid,
    domain_name: `vps-${oid}.example.com`,
    meta_data: [
      ...(marks.nonce ? [{ key_name: CREATION_NONCE_KEY, value: marks.nonce }] : []),
      ...(marks.mark ? [{ key_name: STACK_IDENTITY_KEY, value: marks.mark }] : []),
      ...(marks.run ? [{ key_name: RUN_RECORD_KEY, value: marks.run }] : []),
    ],
  }) as AboutOrder;

/** A run recorded at 1,000,000 s, with or without checkpoints; `finished`: an operation spans it. */
const records = (over: Partial<OwnershipRecords> & { finished?: boolean; checkpoints?: boolean } = {}) => ({
  scope,
  identity: { mark: MARK },
  states: { stacks: [{ stack: "dev", resources: [] }] },
  runs: {
    runs: runsInTags({ [`${RUN_TAG_PREFIX}r1`]: `1000000000 ${over.checkpoints ? "cp" : "skip"}` }),
    finished: over.finished ? [{ start: 999_990, end: 1_000_010 }] : [],
  },
  ...over,
});

describe("may this run cancel this order?", () => {
  it("held means the order number: a VPS of the state recording its number holds it, not one carrying its nonce", () => {
    // A killed replacement: its order carries the nonce of the VPS it replaces, which records its own number.
    const replaced = { type: VPS, id: "100", inputs: { __creationNonce: "n1" }, outputs: { orderOid: 100 } };
    const states = { stacks: [{ stack: "dev", resources: [replaced] }] };
    expect(mayCancel(order(100, { nonce: "n1", mark: MARK, run: "r1" }), records({ states }))).toEqual({
      answer: "held",
      stack: "dev",
    });
    expect(mayCancel(order(101, { nonce: "n1", mark: MARK, run: "r1" }), records({ states }))).toEqual({
      answer: "cancel",
      proof: "run record",
      lostRace: false,
    });
  });

  it("a pending create of this stack carrying its nonce proves it a killed run's, whatever its mark", () => {
    const pending = [{ type: VPS, inputs: { __creationNonce: "n2" } }];
    const states = { stacks: [{ stack: "dev", resources: [], pending }] };
    expect(
      mayCancel(order(102, { nonce: "n2", mark: "id3-other" }), records({ states, runs: undefined })),
    ).toEqual({
      answer: "cancel",
      proof: "pending create",
      lostRace: true,
    });
  });

  // Only this stack's own state can prove an order of another mark its own (a pending create): another stack's state
  // that cannot be read could only hold it, which makes it another stack's all the same.
  it("another stack's state unread: an order of another mark is another stack's, one of this stack's mark unread", () => {
    const states = {
      stacks: [{ stack: "dev", resources: [] }],
      unread: "the state of colleague could not be read",
    };
    expect(mayCancel(order(105, { mark: "id3-other", run: "r9" }), records({ states })).answer).toBe(
      "another mark",
    );
    expect(mayCancel(order(106, { mark: MARK, run: "r1" }), records({ states })).answer).toBe("unread");
    const ownUnread = { stacks: [], unread: "the state of dev could not be read" };
    expect(mayCancel(order(107, { mark: "id3-other" }), records({ states: ownUnread })).answer).toBe(
      "unread",
    );
  });

  it("a run record of this backend, the run unfinished and without checkpoints: cancelled", () => {
    expect(mayCancel(order(103, { mark: MARK, run: "r1" }), records())).toMatchObject({ answer: "cancel" });
  });

  it.each([
    ["its run finished (it left the state on purpose)", { finished: true }, "left the state"],
    ["its run kept checkpoints (a state held it once)", { checkpoints: true }, "unproven"],
  ] as const)("a run record, %s: not cancelled", (_title, over, answer) => {
    expect(mayCancel(order(104, { mark: MARK, run: "r1" }), records(over)).answer).toBe(answer);
  });

  // The history's times are whole seconds, cut: the operation that ended in second 1,000,000 ended before 1,000,001.
  // A run recorded 1.2 s after it (a replacement's `up` killed right after the `up` before it) is not that one's.
  it("a run recorded in the second after the last operation ended: unfinished, cancelled", () => {
    const runs = {
      runs: runsInTags({ [`${RUN_TAG_PREFIX}r1`]: "1000001235 skip" }),
      finished: [{ start: 999_999, end: 1_000_000 }],
    };
    expect(mayCancel(order(110, { mark: MARK, run: "r1" }), records({ runs })).answer).toBe("cancel");
    const own = { ...runs, runs: runsInTags({ [`${RUN_TAG_PREFIX}r1`]: "1000000999 skip" }) };
    expect(mayCancel(order(110, { mark: MARK, run: "r1" }), records({ runs: own })).answer).toBe(
      "left the state",
    );
  });

  // The record says how many operations had finished when it was written: the run's own is the next one.
  it.each([
    ["the next operation began before the record: the run's own, finished", [1_000_000], "left the state"],
    [
      "the next began in the record's second: taken as the run's own",
      [1_000_000, 1_000_001],
      "left the state",
    ],
    ["the next began after the record: a later one, the run killed", [1_000_000, 1_000_002], "cancel"],
    ["no operation after the ones before it: the run killed", [1_000_000], "cancel"],
  ] as const)("a run record counting the operations before it, %s", (title, starts, answer) => {
    const before = title.startsWith("no operation") ? 1 : starts.length - 1;
    const runs = {
      runs: runsInTags({ [`${RUN_TAG_PREFIX}r1`]: `1000001235 skip ${before}` }),
      finished: starts.map((start) => ({ start, end: start })),
    };
    expect(mayCancel(order(111, { mark: MARK, run: "r1" }), records({ runs })).answer).toBe(answer);
  });

  it.each([
    [
      "no run record (a copy of the backend made before the run wrote it)",
      { mark: MARK, run: "r-of-the-original" },
    ],
    ["no run id at all", { mark: MARK }],
  ])("this stack's mark and %s: unproven, never cancelled", (_title, marks) => {
    expect(mayCancel(order(105, marks), records()).answer).toBe("unproven");
  });

  it.each([
    ["the states", { states: { stacks: [], unread: "no backend" } }],
    ["the run records", { runs: { unread: "`pulumi stack history` failed" } }],
    ["this stack's identity", { identity: { unread: "the CLI failed" } }],
  ] as [string, Partial<OwnershipRecords>][])("%s unread: unread, never cancelled", (_title, over) => {
    expect(mayCancel(order(106, { mark: MARK, run: "r1" }), records(over)).answer).toBe("unread");
  });

  it("no identity and the states unread: named, not a failure (only a pending create could prove it)", () => {
    const states = { stacks: [], unread: "no backend" };
    expect(mayCancel(order(109, { run: "r1" }), records({ states })).answer).toBe("no identity");
  });

  it("another mark, or none: not this stack's to cancel", () => {
    expect(mayCancel(order(107, { mark: "id3-another", run: "r1" }), records()).answer).toBe("another mark");
    expect(mayCancel(order(108, { run: "r1" }), records()).answer).toBe("no identity");
  });
});

// A run's record says whether its engine kept checkpoints, and a record without them lets a destroy cancel its order
// (step 4): it must read PULUMI_SKIP_CHECKPOINTS as the CLI does (its boolean variables: "1" or "true", any case).
describe("whether a run's engine keeps checkpoints (its record's word)", () => {
  it.each([
    ["1", true],
    ["true", true],
    ["TRUE", true],
    ["yes", false],
    ["on", false],
    ["0", false],
    ["false", false],
    [undefined, false],
  ] as const)("PULUMI_SKIP_CHECKPOINTS=%s: skips them %s", (value, skips) => {
    expect(skipsCheckpoints({ PULUMI_SKIP_CHECKPOINTS: value })).toBe(skips);
  });
});
