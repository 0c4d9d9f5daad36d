/**
 * The provider's own record, kept in the stack's backend, that a run of this stack placed an order: the positive proof
 * a run without checkpoints needs (PULUMI_SKIP_CHECKPOINTS: the engine writes no pending create then, and no state at
 * all until the run finishes), and the one that tells a VPS that left the state on purpose (`retainOnDelete`,
 * `pulumi state delete`) from a killed run's order on every backend (docs/troubleshooting.md, "A run was killed").
 *
 * Before its first order a run writes one stack tag, `rimuhosting:run:<16 hex>` (its own random id), whose value is
 * when it was written (epoch ms) and whether the engine keeps checkpoints (`cp`) or not (`skip`); every order it
 * places carries that id (RUN_RECORD_KEY). One `pulumi stack tag set` per run that orders, not per order, written
 * under the machine's lock of the stack (machine-lock.ts): `tag set` rewrites the stack's whole tags file, and the
 * other providers of the command (one machine: the backend's update lock keeps other machines' commands out) set
 * theirs, and the stack tag, through the same lock. The tag lives only in the backend that ran the command: a copy of
 * the backend made before it (a restored CI cache, a backup) does not hold it, so the copy never takes that run's
 * orders for its own.
 *
 * What a record says with the engine's history (`pulumi stack history --json`, on every backend: file, PostgreSQL,
 * S3, Pulumi Cloud): a self-managed backend adds an entry when an operation finishes (failed or not), never for a
 * killed one, and the finished operation's state holds every create it completed. So an order of a recorded run that
 * no state holds now:
 * - the run finished (an entry spans the record's time): its state held the order, which then left on purpose;
 * - the run never finished and kept no checkpoints: the order was in no state ever, a killed run's;
 * - the run never finished and kept checkpoints: the engine wrote the order into a checkpoint once it was created (or
 *   kept its pending create, the proof of backend-states.ts), so it may have left on purpose: not a killed run's.
 */
import { randomBytes } from "node:crypto";
import { RUN_RECORD_KEY } from "../../client/metadata-keys.js";
import type { AboutOrder } from "../../../contract/index.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { pulumiJson } from "./backend-states.js";
import { withMachineLock } from "./machine-lock.js";

export { RUN_RECORD_KEY };

/** The prefix of a run record's stack tag (a tag name is at most 40 characters: this and 16 hex). */
export const RUN_TAG_PREFIX = "rimuhosting:run:";

/** One run's record: when it was written, and whether its engine kept checkpoints. */
export interface RunRecord {
  at: number;
  checkpoints: boolean;
}

/** A stack's run records by run id, and the spans of its finished operations (epoch seconds); or why not read. */
export type RunRecords =
  | { runs: ReadonlyMap<string, RunRecord>; finished: readonly { start: number; end: number }[] }
  | { unread: string };

/** The run id an order carries, if any. */
export const runIdOf = (order: AboutOrder): string | undefined =>
  order.meta_data?.find((m) => m.key_name === RUN_RECORD_KEY)?.value ?? undefined;

/** The value of a run's tag. */
export const runTagValue = (record: RunRecord): string =>
  `${record.at} ${record.checkpoints ? "cp" : "skip"}`;

/** The run records among a stack's tags (name → value). */
export function runsInTags(tags: Readonly<Record<string, string>>): Map<string, RunRecord> {
  const runs = new Map<string, RunRecord>();
  for (const [name, value] of Object.entries(tags)) {
    if (!name.startsWith(RUN_TAG_PREFIX)) continue;
    const found = /^(\d+) (cp|skip)$/.exec(value.trim());
    if (found)
      runs.set(name.slice(RUN_TAG_PREFIX.length), { at: Number(found[1]), checkpoints: found[2] === "cp" });
  }
  return runs;
}

/** True when a finished operation of the stack spans `record`'s time: its run finished and wrote its state. */
export function runFinished(records: Extract<RunRecords, { runs: unknown }>, record: RunRecord): boolean {
  const at = Math.floor(record.at / 1000);
  return records.finished.some(({ start, end }) => start <= at && at <= end + 1);
}

/** One entry of `pulumi stack history --json`. */
interface UpdateJson {
  startTime?: string;
  endTime?: string;
}

/** `scope`'s run records and finished operations through the CLI in `where` (the stack's backend). */
export async function readRunRecords(
  scope: { project: string; stack: string },
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunRecords> {
  const at = { cwd: where.cwd ?? process.cwd(), env: where.env };
  const tags = await pulumiJson<Record<string, string>>(
    ["stack", "tag", "ls", "--json", "--stack", scope.stack],
    at,
  );
  if ("why" in tags) return { unread: tags.why };
  const runs = runsInTags(tags.value);
  if (runs.size === 0) return { runs, finished: [] };
  const history = await pulumiJson<UpdateJson[] | null>(
    ["stack", "history", "--json", "--stack", scope.stack],
    at,
  );
  if ("why" in history) return { unread: history.why };
  const finished = (history.value ?? []).flatMap(({ startTime, endTime }) => {
    const start = Date.parse(startTime ?? "");
    const end = Date.parse(endTime ?? "");
    return Number.isNaN(start) || Number.isNaN(end) ? [] : [{ start: start / 1000, end: end / 1000 }];
  });
  return { runs, finished };
}

/** The name of the machine lock under which a stack's tags are set (stack-identity.ts sets its tag under it too). */
export const stackTagsLockName = (hash: string): string => `stack-tag-${hash}`;

/**
 * Sets run `id`'s tag on `scope`'s stack through the CLI, under the machine lock `lockName`; the outcome is what the
 * tags read back say.
 */
export async function writeRunRecord(
  scope: { project: string; stack: string },
  id: string,
  record: RunRecord,
  lockName: string,
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ written: true } | { why: string }> {
  const at = { cwd: where.cwd ?? process.cwd(), env: where.env };
  const locked = await withMachineLock(lockName, async () => {
    const set = await pulumiJson(
      ["stack", "tag", "set", `${RUN_TAG_PREFIX}${id}`, runTagValue(record), "--stack", scope.stack],
      at,
    );
    const after = await pulumiJson<Record<string, string>>(
      ["stack", "tag", "ls", "--json", "--stack", scope.stack],
      at,
    );
    if ("why" in after) return after;
    if (runsInTags(after.value).has(id)) return { written: true as const };
    return { why: "why" in set ? set.why : `\`pulumi stack tag set ${RUN_TAG_PREFIX}${id}\` left no tag` };
  });
  return "why" in locked ? locked : locked.value;
}

/** Where a run writes its record (the CLI; in-process tests: a stand-in), given its id and record. */
export type RunRecordWriter = (
  scope: { project: string; stack: string },
  id: string,
  record: RunRecord,
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
): Promise<{ id: string } | { why: string }> {
  const held = run.get(RECORD);
  const key = `${scope.project}/${scope.stack}`;
  let written = held.written.get(key);
  if (written === undefined) {
    written = write(scope, held.id, { at: Date.now(), checkpoints })
      .then((done) => ("why" in done ? done : { id: held.id }))
      .catch((error: unknown) => ({ why: error instanceof Error ? error.message : String(error) }));
    held.written.set(key, written);
  }
  return written;
}
