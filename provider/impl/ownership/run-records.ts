/**
 * The provider's own record, kept in the stack's backend, that a run of this stack placed an order: the positive proof
 * a run without checkpoints needs (PULUMI_SKIP_CHECKPOINTS: the engine writes no pending create then, and no state at
 * all until the run finishes), and the one that tells a VPS that left the state on purpose (`retainOnDelete`,
 * `pulumi state delete`) from a killed run's order on every backend (docs/troubleshooting.md, "A run was killed").
 *
 * Before its first order a run writes one stack tag, `rimuhosting:run:<16 hex>` (its own random id), whose value is
 * when it was written (epoch ms), whether the engine keeps checkpoints (`cp`) or not (`skip`), how many operations of
 * the stack had finished (the history's length, read before; none when unread) and a hash of the account it orders on
 * (`acct-<12 hex>`); every order it places carries that id (RUN_RECORD_KEY). The run removes, under the same lock,
 * the records and take-backs that can prove nothing any more (record-pruning.ts). One `pulumi stack tag set` per run
 * that orders, not per order, written under the machine's lock of the stack (machine-lock.ts): `tag set` rewrites the
 * stack's whole tags file, and the other providers of the command (one machine: the backend's update lock keeps other
 * machines' commands out) set theirs, and the stack tag, through the same lock. The tag lives only in the backend
 * that ran the command: a copy of the backend made before it (a restored CI cache, a backup) does not hold it, so the
 * copy never takes that run's orders for its own.
 *
 * What a record says with the engine's history (`pulumi stack history --json`, on every backend: file, PostgreSQL,
 * S3, Pulumi Cloud): a self-managed backend adds an entry when an operation finishes (failed or not), never for a
 * killed one, and the finished operation's state holds every create it completed. So an order of a recorded run that
 * no state holds now:
 * - the run finished (the entry after those it counted began before the record: runFinished): its state held the
 *   order, which then left on purpose;
 * - the run never finished and kept no checkpoints: the order was in no state ever, a killed run's;
 * - the run never finished and kept checkpoints: the engine wrote the order into a checkpoint once it was created (or
 *   kept its pending create, the proof of backend-states.ts), so it may have left on purpose: not a killed run's.
 */
import { createHash, randomBytes } from "node:crypto";
import { RUN_RECORD_KEY } from "../../client/metadata-keys.js";
import type { AboutOrder } from "../../../contract/index.js";
import { canonicalJson } from "../inputs/canonical-json.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { pulumiJson, readStackTags } from "./backend-states.js";
import { withMachineLock } from "./machine-lock.js";

export { RUN_RECORD_KEY };

/** The prefix of a run record's stack tag (a tag name is at most 40 characters: this and 16 hex). */
export const RUN_TAG_PREFIX = "rimuhosting:run:";

/**
 * The prefix of the stack tag a run writes when it takes back a killed run's order (take-back.ts): `<prefix><order
 * number>`, whose value is the taking run's id. From then on the order is judged by the taking run's record: the
 * killed run's says it was never in a state, and the taking run's state held it once that run finished.
 */
export const TOOK_TAG_PREFIX = "rimuhosting:took:";

/**
 * One run's record: when it was written, whether its engine kept checkpoints, how many operations of the stack
 * had finished then (`before`: the history's length; absent when it could not be read, or in a record of a release
 * before it), and the account the run orders on (`account`: record-pruning.ts's mark, a hash; absent in a record of a
 * release before it). The last two are what tells a record that can prove
 * nothing any more (record-pruning.ts).
 */
export interface RunRecord {
  at: number;
  checkpoints: boolean;
  before?: number;
  account?: string;
}

/**
 * A stack's run records by run id, and the spans of its finished operations (epoch seconds, the oldest first); or why
 * not read.
 */
export type RunRecords =
  | {
      runs: ReadonlyMap<string, RunRecord>;
      finished: readonly { start: number; end: number }[];
      /** The orders a run took back, by order number: the taking run's id. */
      took?: ReadonlyMap<number, string>;
    }
  | { unread: string };

/** The run id an order carries, if any. */
export const runIdOf = (order: AboutOrder): string | undefined =>
  order.meta_data?.find((m) => m.key_name === RUN_RECORD_KEY)?.value ?? undefined;

/** The value of a run's tag. */
export const runTagValue = (record: RunRecord): string =>
  `${record.at} ${record.checkpoints ? "cp" : "skip"}${record.before === undefined ? "" : ` ${record.before}`}` +
  (record.account === undefined ? "" : ` acct-${record.account}`);

/** The run records among a stack's tags (name → value). */
export function runsInTags(tags: Readonly<Record<string, string>>): Map<string, RunRecord> {
  const runs = new Map<string, RunRecord>();
  for (const [name, value] of Object.entries(tags)) {
    if (!name.startsWith(RUN_TAG_PREFIX)) continue;
    const found = /^(\d+) (cp|skip)(?: (\d+))?(?: acct-([0-9a-f]{12}))?$/.exec(value.trim());
    if (found)
      runs.set(name.slice(RUN_TAG_PREFIX.length), {
        at: Number(found[1]),
        checkpoints: found[2] === "cp",
        ...(found[3] === undefined ? {} : { before: Number(found[3]) }),
        ...(found[4] === undefined ? {} : { account: found[4] }),
      });
  }
  return runs;
}

/** The orders taken back among a stack's tags (name → value): the id of the run that took each. */
export function tookInTags(tags: Readonly<Record<string, string>>): Map<number, string> {
  const took = new Map<number, string>();
  for (const [name, value] of Object.entries(tags))
    if (name.startsWith(TOOK_TAG_PREFIX) && /^[0-9a-f]{16}$/.test(value.trim()))
      took.set(Number(name.slice(TOOK_TAG_PREFIX.length)), value.trim());
  return took;
}

/**
 * True when the operation `record`'s run ran in finished: it wrote its state. The backend's lock lets one operation
 * of the stack run at a time, so the run's own is the one after the `before` operations that had finished when it
 * wrote its record: finished if the history has it, and it began before the record (a later one, run after the kill,
 * began after it; the history's times are whole seconds, cut, so one that began in the record's own second is taken
 * as the run's: finished, not cancelled). A record with no `before` is judged by time alone: an operation spanning its
 * second (one written in the second an operation ended is taken as that one's).
 */
export function runFinished(records: Extract<RunRecords, { runs: unknown }>, record: RunRecord): boolean {
  const at = Math.floor(record.at / 1000);
  if (record.before !== undefined) {
    const own = records.finished[record.before];
    return own !== undefined && own.start <= at;
  }
  return records.finished.some(({ start, end }) => start <= at && at <= end);
}

/** A stack's finished operations, the oldest first (finishedOperations), or why they could not be read. */
export type FinishedOperations = { start: number; end: number }[] | { why: string };

/** `scope`'s finished operations through the CLI in `where` (what writeRunRecord counts). */
export function readFinishedOperations(
  scope: { stack: string },
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<FinishedOperations> {
  return finishedOperations(scope, { cwd: where.cwd ?? process.cwd(), env: where.env });
}

/** One entry of `pulumi stack history --json`. */
interface UpdateJson {
  startTime?: string;
  endTime?: string;
  result?: string;
}

/**
 * `scope`'s finished operations, the oldest first (the CLI lists the newest first), each its start and end in epoch
 * seconds. Every one: `--page-size 0` (the CLI's default page is the newest 10); not one still running (a service
 * backend lists it, `in-progress`).
 */
async function finishedOperations(
  scope: { stack: string },
  at: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<FinishedOperations> {
  const history = await pulumiJson<UpdateJson[] | null>(
    ["stack", "history", "--json", "--page-size", "0", "--stack", scope.stack],
    at,
  );
  if ("why" in history) return history;
  const spans = (history.value ?? []).flatMap(({ startTime, endTime, result }) => {
    const start = Date.parse(startTime ?? "");
    const end = Date.parse(endTime ?? "");
    if (result === "in-progress" || result === "not-started") return [];
    return Number.isNaN(start) || Number.isNaN(end) ? [] : [{ start: start / 1000, end: end / 1000 }];
  });
  return spans.reverse().sort((a, b) => a.start - b.start);
}

/** `scope`'s run records and finished operations through the CLI in `where` (the stack's backend). */
export async function readRunRecords(
  scope: { project: string; stack: string },
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunRecords> {
  const at = { cwd: where.cwd ?? process.cwd(), env: where.env };
  const tags = await readStackTags(scope.stack, at);
  if ("why" in tags) return { unread: tags.why };
  const runs = runsInTags(tags.value);
  const took = tookInTags(tags.value);
  if (runs.size === 0) return { runs, finished: [], took };
  const finished = await finishedOperations(scope, at);
  if ("why" in finished) return { unread: finished.why };
  return { runs, finished, took };
}

/** The name of the machine lock under which a stack's tags are set (stack-identity.ts sets its tag under it too). */
export const stackTagsLockName = (hash: string): string => `stack-tag-${hash}`;

/** The machine lock under which `scope`'s stack tags are set (its project and stack, hashed). */
export const stackTagsLock = (scope: { project: string; stack: string }): string =>
  stackTagsLockName(createHash("sha256").update(canonicalJson(scope)).digest("hex").slice(0, 32));

/**
 * What a run does under the stack tags' lock once its record is written: given the tags read back and how many
 * operations of the stack's history had finished (record-pruning.ts removes what can prove nothing any more).
 */
export type AfterRecord = (
  tags: Readonly<Record<string, string>>,
  finished: number,
  at: { cwd: string; env?: NodeJS.ProcessEnv },
) => Promise<unknown>;

/**
 * Sets run `id`'s tag on `scope`'s stack through the CLI, under the machine lock `lockName`, with how many operations
 * of the stack had finished (when the history can be read: runFinished); the outcome is what the tags read back say.
 * `finishedRead`: those operations, read already (any time in the run counts them alike); else read now. Once it is
 * written, and the history was read, `after` runs under the same lock.
 */
export async function writeRunRecord(
  scope: { project: string; stack: string },
  id: string,
  record: RunRecord,
  lockName: string,
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  { after, finishedRead }: { after?: AfterRecord; finishedRead?: Promise<FinishedOperations> } = {},
): Promise<{ written: true } | { why: string }> {
  const at = { cwd: where.cwd ?? process.cwd(), env: where.env };
  // This run's operation holds the backend's lock: none finishes meanwhile.
  const finished = await (finishedRead ?? finishedOperations(scope, at));
  const counted = "why" in finished ? record : { ...record, before: finished.length };
  const locked = await withMachineLock(lockName, async () => {
    const set = await pulumiJson(
      ["stack", "tag", "set", `${RUN_TAG_PREFIX}${id}`, runTagValue(counted), "--stack", scope.stack],
      at,
    );
    const tags = await readStackTags(scope.stack, at);
    if ("why" in tags) return tags;
    if (!runsInTags(tags.value).has(id))
      return { why: "why" in set ? set.why : `\`pulumi stack tag set ${RUN_TAG_PREFIX}${id}\` left no tag` };
    if (after !== undefined && !("why" in finished))
      await after(tags.value, finished.length, at).catch(() => undefined);
    return { written: true as const };
  });
  return "why" in locked ? locked : locked.value;
}

/** Sets tag `name` to `value` on `scope`'s stack through the CLI, under the machine lock `lockName`, read back. */
export async function writeStackTag(
  scope: { stack: string },
  tag: { name: string; value: string },
  lockName: string,
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ written: true } | { why: string }> {
  const at = { cwd: where.cwd ?? process.cwd(), env: where.env };
  const locked = await withMachineLock(lockName, async () => {
    const set = await pulumiJson(["stack", "tag", "set", tag.name, tag.value, "--stack", scope.stack], at);
    const after = await readStackTags(scope.stack, at);
    if ("why" in after) return after;
    if (after.value[tag.name] === tag.value) return { written: true as const };
    return { why: "why" in set ? set.why : `\`pulumi stack tag set ${tag.name}\` left no tag` };
  });
  return "why" in locked ? locked : locked.value;
}

/**
 * Where a run writes its record (the CLI; in-process tests: a stand-in), given its id and record, and what it does
 * under the same lock once written (`after`: record-pruning.ts).
 */
export type RunRecordWriter = (
  scope: { project: string; stack: string },
  id: string,
  record: RunRecord,
  after?: AfterRecord,
) => Promise<{ written: true } | { why: string }>;

const RECORD = runState("this run's record in its stack's backend, written once", () => ({
  id: randomBytes(8).toString("hex"),
  written: new Map<string, Promise<{ id: string } | { why: string }>>(),
}));

/**
 * This run's id once its record is in `scope`'s backend (written on first ask, with `write`), or why it is not:
 * the orders then carry no run id, and only a pending create can prove them this stack's.
 */
export function recordThisRun(
  run: RunContext,
  scope: { project: string; stack: string },
  write: RunRecordWriter,
  checkpoints: boolean,
  ordering?: { account: string; after: AfterRecord },
): Promise<{ id: string } | { why: string }> {
  const held = run.get(RECORD);
  const key = `${scope.project}/${scope.stack}`;
  let written = held.written.get(key);
  if (written === undefined) {
    const record = {
      at: Date.now(),
      checkpoints,
      ...(ordering === undefined ? {} : { account: ordering.account }),
    };
    written = write(scope, held.id, record, ordering?.after)
      .then((done) => ("why" in done ? done : { id: held.id }))
      .catch((error: unknown) => ({ why: error instanceof Error ? error.message : String(error) }));
    held.written.set(key, written);
  }
  return written;
}
