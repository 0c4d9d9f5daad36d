/**
 * Which of a stack's own tags (run-records.ts: a run's record `rimuhosting:run:<id>`, a take-back
 * `rimuhosting:took:<order>`) can no longer prove anything, and their removal. Without it a stack whose CI runs
 * `pulumi up` daily gains a tag per run that orders, for ever, and every `pulumi stack tag set` rewrites them all.
 *
 * A run's record proves something only of an active order that carries its run's id, or that a take-back tag gives
 * to it (may-cancel.ts, rule 4): nothing else asks for it. So a run's record is removed only when all of these hold:
 * - **it names the account this run lists** (`acct`: a hash of the account's address and API key, written with the
 *   record): a stack's VPSs may be on several accounts, and one listing shows one. A record with none (a release
 *   before it) is kept.
 * - **its run has ended**: the stack's history holds more operations than the record counted before it (`before`).
 *   A run writes its record during its operation, which holds the stack's lock from before the record until it ends,
 *   so no other operation enters the history meanwhile: the history holds more only once the run's operation ended
 *   (finished, or killed and a later one ran). **A live run's record is never removed**, whatever the account shows
 *   (it is written before its first order, so none carries it yet): its history still holds exactly `before`. A
 *   record without `before` (the history was unread when it was written) is kept.
 * - **no active order of the account carries its id** (its orders are cancelled), and no take-back tag kept names
 *   it. An ended run places no more orders, and its orders were placed before this run's operation began (the lock),
 *   so any listing of this run shows those not cancelled. A killed run's record stays while its order is billed.
 *
 * A take-back tag is removed only when its order is no longer on the account its taking run's record names (this
 * one): cancelled. Not while a state holds it: should it leave the state on purpose later (`retainOnDelete`,
 * `pulumi state delete`), the taking run's record, not the killed run's, tells it left on purpose.
 *
 * Done by the run that writes its record, under the same machine lock as the tags' setters (run-records.ts), once,
 * and at most MAX_REMOVED tags (each `pulumi stack tag rm` rewrites the tags): a later run removes the rest. Never
 * by the killed-orders command, which holds no lock of the stack. Best effort: a failure removes less, never more.
 */
import { createHash } from "node:crypto";
import type { AboutOrder } from "../../../contract/index.js";
import type { AccountView } from "../account/account-view.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { pulumiJson } from "./backend-states.js";
import { RUN_TAG_PREFIX, runIdOf, runsInTags, TOOK_TAG_PREFIX, tookInTags } from "./run-records.js";

/** At most this many tags are removed by one run (each removal is one `pulumi stack tag rm`). */
export const MAX_REMOVED = 20;

/** The account a run orders on, as its record names it, and how to list that account's active orders. */
export interface OrderingAccount {
  /** A hash of the account's address and API key (accountMark). */
  mark: string;
  activeOrders(): Promise<readonly AboutOrder[]>;
}

/** The mark a run record gives its account: a hash of `accountKey` (itself a hash of the address and API key). */
export const accountMark = (accountKey: string): string =>
  createHash("sha256").update(`rimuhosting run record account\n${accountKey}`).digest("hex").slice(0, 12);

const ORDERING = runState("the account this run orders on", () => ({
  account: undefined as OrderingAccount | undefined,
}));

/** This run orders on `view`'s account: its record names it, and the run prunes by that account's listing. */
export function noteOrderingOn(run: RunContext, view: AccountView): void {
  if (view.accountKey === undefined) return;
  run.get(ORDERING).account = { mark: accountMark(view.accountKey), activeOrders: () => view.activeOrders() };
}

/** The account this run orders on, if it said (noteOrderingAccount). */
export const orderingAccountOf = (run: RunContext): OrderingAccount | undefined => run.get(ORDERING).account;

/**
 * The tags among `tags` (a stack's, name → value) that can no longer prove anything (the rule above), given how many
 * operations of the stack's history finished (`finished`), the account the pruning run lists (`mark`) and its active
 * orders (`active`). At most MAX_REMOVED, the take-backs first.
 */
export function prunableTags(
  tags: Readonly<Record<string, string>>,
  finished: number,
  mark: string,
  active: readonly AboutOrder[],
): string[] {
  const runs = runsInTags(tags);
  const onAccount = new Set(active.map((order) => order.order_oid));
  const ofThisAccount = (id: string) => runs.get(id)?.account === mark;
  const took = [...tookInTags(tags)].filter(([oid, id]) => ofThisAccount(id) && !onAccount.has(oid));
  const tookGone = new Set(took.map(([oid]) => oid));
  const needed = new Set(active.map(runIdOf).filter((id) => id !== undefined));
  for (const [oid, id] of tookInTags(tags)) if (!tookGone.has(oid)) needed.add(id);
  const ended = [...runs].filter(
    ([id, record]) =>
      record.account === mark && record.before !== undefined && finished > record.before && !needed.has(id),
  );
  return [
    ...took.map(([oid]) => `${TOOK_TAG_PREFIX}${oid}`),
    ...ended.map(([id]) => `${RUN_TAG_PREFIX}${id}`),
  ].slice(0, MAX_REMOVED);
}

/**
 * Removes from `scope`'s stack the tags of `tags` (read under the stack tags' machine lock, which the caller holds)
 * that can prove nothing any more (prunableTags), through the CLI in `at`; the names removed. The account is listed
 * after the history and the tags were read.
 */
export async function pruneStackTags(
  scope: { stack: string },
  tags: Readonly<Record<string, string>>,
  finished: number,
  account: OrderingAccount,
  at: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string[]> {
  let active: readonly AboutOrder[];
  try {
    active = await account.activeOrders();
  } catch {
    return []; // the account unread: nothing is known to be gone
  }
  const removed: string[] = [];
  for (const name of prunableTags(tags, finished, account.mark, active)) {
    const done = await pulumiJson(["stack", "tag", "rm", name, "--stack", scope.stack], at);
    // `tag rm` prints nothing: "no JSON" is its success; any other failure stops the batch.
    if ("why" in done && !done.why.endsWith("printed no JSON")) break;
    removed.push(name);
  }
  return removed;
}
