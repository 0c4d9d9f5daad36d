/**
 * The one reader of what the backend recorded, for the rules of ownership (take-back.ts, may-cancel.ts): the states of
 * every stack now (backend-states.ts: `pulumi stack ls`, `pulumi stack export`), and the run records of one stack with
 * its finished operations (run-records.ts: `pulumi stack tag ls`, `pulumi stack history`); and the one writer of a
 * run's record. Each is read at most once per run, only when an order must be judged, and a failure is `unread`,
 * never thrown.
 *
 * Where they are read from is the run's (`readBackendThrough`: the killed-orders command reads in the user's
 * directory and environment); by default through the CLI as the engine started the provider, or what a test tuned the
 * run to read (RunTuning.backendReader: in-process tests have no backend).
 */
import { runState, type RunContext } from "../engine/run-context.js";
import { pulumiJson, readBackendStates, readStackTags, type BackendStates } from "./backend-states.js";
import { withMachineLock } from "./machine-lock.js";
import { orderingAccountOf, pruneStackTags } from "./record-pruning.js";
import {
  readFinishedOperations,
  readRunRecords,
  recordThisRun,
  RUN_TAG_PREFIX,
  runsInTags,
  runTagValue,
  stackTagsLock,
  TOOK_TAG_PREFIX,
  writeRunRecord,
  writeStackTag,
  type AfterRecord,
  type FinishedOperations,
  type RunRecord,
  type RunRecords,
  type RunRecordWriter,
} from "./run-records.js";

import {
  identityOfStackTag,
  identityThroughTheCli,
  newStackTagValue,
  projectDir,
  STACK_TAG,
  type StackIdentity,
} from "./stack-identity.js";

export { stackTagsLock };

/** Which stack: its project and name. */
export interface StackScope {
  project: string;
  stack: string;
}

/** Where a run reads the backend's records from, and writes its own. */
export interface BackendReader {
  /** Every stack's state of the backend now. */
  states(): Promise<BackendStates>;
  /** `scope`'s run records and finished operations. */
  runs(scope: StackScope): Promise<RunRecords>;
  /** Writes a run's record into `scope`'s backend. */
  recordRun: RunRecordWriter;
  /** Writes into `scope`'s backend that run `runId` took back order `oid` (run-records.ts, TOOK_TAG_PREFIX). */
  recordTakeBack(scope: StackScope, oid: number, runId: string): Promise<{ written: true } | { why: string }>;
}

/** `context`'s reads through the CLI, as the engine started the provider: outside a deployment it writes nothing. */
const throughTheCli = (context: RunContext): BackendReader => ({
  states: () => readBackendStates(),
  runs: (scope) => readRunRecords(scope),
  recordRun: (scope, id, record, after) =>
    context.engine === undefined
      ? Promise.resolve({ why: "the provider is not running in a Pulumi deployment" })
      : writeRunRecord(
          scope,
          id,
          record,
          stackTagsLock(scope),
          {},
          { after, finishedRead: historyOf(context, scope) },
        ),
  recordTakeBack: (scope, oid, runId) =>
    context.engine === undefined
      ? Promise.resolve({ why: "the provider is not running in a Pulumi deployment" })
      : writeStackTag(scope, { name: `${TOOK_TAG_PREFIX}${oid}`, value: runId }, stackTagsLock(scope)),
});

declare module "../engine/run-context.js" {
  interface RunTuning {
    /** What the run reads instead of the backend, each part left out the CLI's (in-process tests have none). */
    readonly backendReader?: Partial<BackendReader>;
  }
}

const READ = runState("the backend's states and a stack's run records, read once, and where from", () => ({
  through: undefined as Partial<BackendReader> | undefined,
  states: undefined as Promise<BackendStates> | undefined,
  runs: new Map<string, Promise<RunRecords>>(),
  history: new Map<string, Promise<FinishedOperations>>(),
}));

/** `scope`'s finished operations through the CLI, read once in `context`'s run (what its run record counts). */
function historyOf(context: RunContext, scope: StackScope): Promise<FinishedOperations> {
  const held = context.get(READ).history;
  const key = `${scope.project}/${scope.stack}`;
  let read = held.get(key);
  if (read === undefined) {
    read = readFinishedOperations(scope).catch((error: unknown) => ({ why: messageOf(error) }));
    held.set(key, read);
  }
  return read;
}

/** True when `context`'s run writes its record through the CLI, as the engine started the provider. */
const recordsThroughTheCli = (context: RunContext): boolean =>
  context.engine !== undefined &&
  context.tuning.backendReader?.recordRun === undefined &&
  context.get(READ).through?.recordRun === undefined;

/**
 * Before a new order of `scope`'s stack (new-order-marks.ts): when the run writes its record and reads its stack's
 * identity through the CLI and has not written the record yet, starts writing it with the stack's own tag, under one
 * lock and read back once (setOrderTags), and gives the read of the identity to mark that comes of it (for
 * stackIdentity). Otherwise undefined: each is done apart, and the history the record counts is read beside the
 * identity (writeRunRecord), not after it, so the run's first order waits one `pulumi` read less.
 */
export function markBesideRecord(
  context: RunContext,
  scope: StackScope,
): (() => Promise<StackIdentity>) | undefined {
  if (!recordsThroughTheCli(context)) return undefined;
  void historyOf(context, scope);
  if (!identityThroughTheCli(context)) return undefined;
  let identity: Promise<StackIdentity> | undefined;
  // Calls the writer at once when the record is not written yet (recordThisRun), never after.
  void thisRunsRecord(context, scope, (s, id, record, after) => {
    const both = setOrderTags(s, { id, record, after, finishedRead: historyOf(context, s) });
    identity = both.then(
      (b) => b.identity,
      (error: unknown) => ({ unread: messageOf(error) }),
    );
    return both.then((b) => b.record);
  });
  return identity && (() => identity!);
}

/** `context`'s run reads (and writes) the backend through `read` (each part left out: the default's). */
export function readBackendThrough(context: RunContext, read: Partial<BackendReader>): void {
  context.get(READ).through = read;
}

const readerOf = (context: RunContext): BackendReader => ({
  ...throughTheCli(context),
  ...context.tuning.backendReader,
  ...context.get(READ).through,
});

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The backend's states, read once in `context`'s run. */
export function backendStates(context: RunContext): Promise<BackendStates> {
  const held = context.get(READ);
  return (held.states ??= readerOf(context)
    .states()
    .catch((error: unknown) => ({ stacks: [], unread: messageOf(error) })));
}

/** `scope`'s run records, read once in `context`'s run. */
export function stackRunRecords(context: RunContext, scope: StackScope): Promise<RunRecords> {
  const held = context.get(READ).runs;
  const key = `${scope.project}/${scope.stack}`;
  let read = held.get(key);
  if (read === undefined) {
    read = readerOf(context)
      .runs(scope)
      .catch((error: unknown) => ({ unread: messageOf(error) }));
    held.set(key, read);
  }
  return read;
}

/**
 * True when the engine that started a process of `env` keeps no checkpoints: PULUMI_SKIP_CHECKPOINTS as the CLI reads
 * it (its boolean variables: "1", or "true" in any case; "yes" or "on" leave checkpoints on). A run that said it
 * kept none where the engine kept them would have its order cancelled as a killed run's though a state may have let
 * it go on purpose (may-cancel.ts, step 4).
 */
export const skipsCheckpoints = (env: NodeJS.ProcessEnv = process.env): boolean =>
  /^(1|true)$/i.test(env.PULUMI_SKIP_CHECKPOINTS ?? "");

/**
 * This run's id once its record is in `scope`'s backend (written on first ask), or why it is not. A run that said
 * which account it orders on (record-pruning.ts) names it in its record and, once written, removes the stack's tags
 * that can prove nothing any more.
 */
export function thisRunsRecord(
  context: RunContext,
  scope: StackScope,
  /** How it is written if it is not yet (markBesideRecord); else the run's writer. */
  write: RunRecordWriter = readerOf(context).recordRun,
): Promise<{ id: string } | { why: string }> {
  const account = orderingAccountOf(context);
  const ordering =
    account === undefined
      ? undefined
      : {
          account: account.mark,
          after: (
            tags: Readonly<Record<string, string>>,
            finished: number,
            at: { cwd: string; env?: NodeJS.ProcessEnv },
          ) => pruneStackTags(scope, tags, finished, account, at),
        };
  return recordThisRun(context, scope, write, !skipsCheckpoints(), ordering);
}

/** Writes into `scope`'s backend that this run took back order `oid` (its own record first), or says why not. */
export async function recordTakenBack(
  context: RunContext,
  scope: StackScope,
  oid: number,
): Promise<{ written: true } | { why: string }> {
  const mine = await thisRunsRecord(context, scope);
  if ("why" in mine) return mine;
  return readerOf(context)
    .recordTakeBack(scope, oid, mine.id)
    .catch((error: unknown) => ({ why: messageOf(error) }));
}

/*
 * Before a run's first order: the stack tags it sets (setOrderTags), all under the one machine lock of the stack's tags
 * (machine-lock.ts) and read back once: the stack's own tag when it has none yet (stack-identity.ts: the identity every
 * new order carries) and the run's record (run-records.ts); then, under the same lock, the tags that can prove nothing
 * any more are removed (record-pruning.ts: `after`), which runs no `pulumi` when there are none. Apart, the identity
 * and the record each took the lock, set and read back: a stack's first order waited for six `pulumi` runs one after
 * another. Here: the tags read, the stack's tag set (only when absent), the record set, the tags read back; the
 * history the record counts is read beside them (markBesideRecord), awaited only before the record is set.
 *
 * What each kept stays: the tags are read only under the lock, so of two providers of one command (one machine: the
 * backend's update lock keeps other machines' out) the second finds the first's tag and sets none, and both mark with
 * one value; every `pulumi stack tag set` rewrites the whole tags file, and each runs under the lock, so neither
 * loses the other's record (test/engine/stack-tag-race.test.ts). Each outcome is what the tags read back say: the
 * identity from the stack's tag there, the record written only when it is there, before any order carries either.
 * When the tags cannot be read first, nothing is set.
 */

/** The stack's identity to mark with, and whether the run's record is in the backend (or why not). */
export interface OrderTags {
  identity: StackIdentity;
  record: { written: true } | { why: string };
}

/** The run whose record is set: its id, its record, the finished operations it counts, and what runs once written. */
export interface RecordToSet {
  id: string;
  record: RunRecord;
  /** The stack's finished operations (any time in the run counts them alike: the run holds the backend's lock). */
  finishedRead: Promise<FinishedOperations>;
  after?: AfterRecord;
}

/**
 * Sets, through the CLI in `where`, `scope`'s own tag when it has none and `run`'s record, under the stack tags' lock,
 * and reads them back once (see above). `beforeTagSet`: what runs between reading no tag and setting one (a test
 * holds that window open).
 */
export async function setOrderTags(
  scope: { project: string; stack: string },
  run: RecordToSet,
  where: { cwd?: string; env?: NodeJS.ProcessEnv; beforeTagSet?: () => Promise<void> } = {},
): Promise<OrderTags> {
  const at = { cwd: where.cwd ?? process.cwd(), env: where.env };
  if (projectDir(at.cwd) === undefined) {
    const why = "there is no Pulumi project (Pulumi.yaml) here";
    return { identity: { unread: why }, record: { why } };
  }
  const tagsNow = () => readStackTags(scope.stack, at);
  // `tag set` prints no JSON: its outcome is what the tags read back say.
  const setTag = (name: string, value: string) =>
    pulumiJson(["stack", "tag", "set", name, value, "--stack", scope.stack], at);
  const runTag = `${RUN_TAG_PREFIX}${run.id}`;
  const locked = await withMachineLock(stackTagsLock(scope), async (): Promise<OrderTags> => {
    const before = await tagsNow();
    if ("why" in before) return { identity: identityOfStackTag(scope, before), record: before };
    let stackTagSet: { why: string } | undefined;
    if (!before.value[STACK_TAG]) {
      await where.beforeTagSet?.();
      const set = await setTag(STACK_TAG, newStackTagValue());
      stackTagSet = "why" in set ? set : undefined;
    }
    const finished = await run.finishedRead;
    const counted = "why" in finished ? run.record : { ...run.record, before: finished.length };
    const recordSet = await setTag(runTag, runTagValue(counted));
    const back = await tagsNow();
    if ("why" in back) return { identity: identityOfStackTag(scope, back), record: back };
    const stackTag = back.value[STACK_TAG] || undefined;
    const identity = identityOfStackTag(
      scope,
      stackTag !== undefined
        ? { value: stackTag }
        : { why: stackTagSet?.why ?? `\`pulumi stack tag set ${STACK_TAG}\` left the stack without it` },
    );
    if (!runsInTags(back.value).has(run.id))
      return {
        identity,
        record: {
          why: "why" in recordSet ? recordSet.why : `\`pulumi stack tag set ${runTag}\` left no tag`,
        },
      };
    if (run.after !== undefined && !("why" in finished))
      await run.after(back.value, finished.length, at).catch(() => undefined);
    return { identity, record: { written: true } };
  });
  return "why" in locked ? { identity: identityOfStackTag(scope, locked), record: locked } : locked.value;
}
