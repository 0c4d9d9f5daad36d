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
import { createHash } from "node:crypto";
import { canonicalJson } from "../inputs/canonical-json.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { readBackendStates, type BackendStates } from "./backend-states.js";
import { orderingAccountOf, pruneStackTags } from "./record-pruning.js";
import {
  readFinishedOperations,
  readRunRecords,
  recordThisRun,
  stackTagsLockName,
  TOOK_TAG_PREFIX,
  writeRunRecord,
  writeStackTag,
  type FinishedOperations,
  type RunRecords,
  type RunRecordWriter,
} from "./run-records.js";

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

/** The machine lock under which `scope`'s stack tags are set (its project and stack, hashed). */
export const stackTagsLock = (scope: StackScope): string =>
  stackTagsLockName(createHash("sha256").update(canonicalJson(scope)).digest("hex").slice(0, 32));

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

/**
 * Starts reading what this run's record in `scope`'s backend will count (its finished operations: writeRunRecord),
 * when the record is written through the CLI: a new order's marks (new-order-marks.ts) then read it beside the stack's
 * identity, not after it, and the run's first order waits one `pulumi` read less.
 */
export function readRunHistoryAhead(context: RunContext, scope: StackScope): void {
  const through = context.get(READ).through;
  if (context.engine === undefined || context.tuning.backendReader?.recordRun || through?.recordRun) return;
  void historyOf(context, scope);
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

/** True when the engine that started this process keeps no checkpoints (PULUMI_SKIP_CHECKPOINTS, as the CLI reads it). */
const skipsCheckpoints = (): boolean => /^(1|true|yes|on)$/i.test(process.env.PULUMI_SKIP_CHECKPOINTS ?? "");

/**
 * This run's id once its record is in `scope`'s backend (written on first ask), or why it is not. A run that said
 * which account it orders on (record-pruning.ts) names it in its record and, once written, removes the stack's tags
 * that can prove nothing any more.
 */
export function thisRunsRecord(
  context: RunContext,
  scope: StackScope,
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
  return recordThisRun(context, scope, readerOf(context).recordRun, !skipsCheckpoints(), ordering);
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
