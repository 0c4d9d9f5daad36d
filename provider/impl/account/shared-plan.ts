/**
 * The budget's plan shared by the provider processes of one `pulumi` command on one account (docs/cost.md, "Several
 * providers"). The engine starts a process for each provider (the default one and each explicit one), and each
 * keeps its own ledger of the VPSs it checked; a budget covers the account, so a preview judged by each ledger
 * alone passed two providers whose VPSs together go over, and `up` then refused the second one's.
 *
 * So each check also writes its VPS's fee to a small file that the provider processes of the same engine run on the
 * same account share: named after the engine run (the run's `command`: the engine's address, which the engine gives
 * every plugin it starts, the dynamic-provider host under `sh` and the native plugin alike; run-context.ts) and a
 * hash of the account's URL and key (never the key), in this user's plans' directory (plan-files.ts). Each change to it is one
 * line appended in one write (below), so two providers checking at once lose neither's entry, and a reader leaves
 * out a line not yet ended. An entry whose writer process is gone is
 * another run's (the engine's port used again later) and is not counted. Each entry names the run that wrote
 * it (one run per provider process), so a run counts every other run's entries: also where one process hosts
 * several providers' runs, as the in-process table of cases does (test/cost/two-providers.test.ts). A check counts
 * the other runs' entries beside its own ledger. The engine checks resources one after another, so each check sees
 * every check before it, whichever provider made it. A resource's entry is its latest check (the update of
 * `pulumi up` checks each again, in new processes). Files older than a day are removed (plan-files.ts).
 *
 * Each change counted exactly once, by every reader: a reader totals the account as its listing showed it (read at
 * some moment of the run) and the other runs' entries, and another run's change may be made before or after that
 * moment. So an entry stays once its change is made (marked made, with its new order), and each reader reconciles it
 * with the listing it counts (othersOn): a change the listing shows (its new order listed, found by the creation
 * token its check would order with or by the order number marked; an in-place change's order listed at its new fee)
 * counts there and not again, and the order it replaces, listed beside it, counts once, as its replacement; a change
 * the listing does not show counts as its entry, made or not. A change that failed before it changed anything
 * leaves the plan. (The money model found a check that read the listing before another provider's replacement was
 * ordered and the plan after that change had left it: counted nowhere, a passing preview's `up` refused.)
 *
 * The file is a log: each record, forget and replacement is one line appended (O_APPEND, one write of a few hundred
 * bytes), and each SharedPlan reads only the lines added since it last read, so a check costs the same with 500 VPSs
 * as with one (it rewrote the whole plan per check before: 0.9 of 2.9 CPU-s of a 150-VPS preview's provider host,
 * growing with the square of the fleet; docs/benchmarks.md). The latest line of a resource is its entry.
 *
 * Owns: the file, its entries. Of a run's state it uses only the run's name (plan-writer.ts): the file is the state,
 * per command.
 */
import * as path from "node:path";
import type { AboutOrder } from "../../../contract/index.js";
import { creationTokensOf } from "../../client/index.js";
import { cents } from "../cost/money.js";
import type { VpsFee } from "../cost/verdict.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import type { RunContext } from "../engine/run-context.js";
import { CommandOrders } from "./command-orders.js";
import {
  appendPlanLine,
  linesSince,
  PLAN_MAX_AGE_MS,
  sharedPlanFile,
  sweepOldPlanFiles,
} from "./plan-files.js";
import { writerAlive, writerOf } from "./plan-writer.js";

/** The key of an order a run replaced (noteReplaced), beside the resources' keys. */
const REPLACED = "replaced order ";
/** The key of a run of the command failing on the budget (noteFailing). */
const FAILING = "failing on the budget";

/** What a check knows of the change it records, so that any reader finds the change in a listing once made. */
export interface ChangeOrders {
  /** The order the change is made on (a resize, a move) or replaces: the order billed `fee.nowCents` now. */
  order?: number;
  /** Whether the change replaces `order` with a new order. */
  replaces?: boolean;
  /** The creation token a new order of the change carries (a new VPS, a replacement). */
  token?: string;
}

interface Entry extends ChangeOrders {
  /** The run that checked it (one per provider process). */
  writer: string;
  at: number;
  fee: VpsFee;
  /** Made: its new order's number, or true for a change made on `order` itself. */
  made?: number | true;
  /** A replaced order's key: the order that replaces it (REPLACED). */
  by?: number;
  /** A replaced order's key: its replacement is kept (noteKept). */
  kept?: true;
}

/** A line marking an entry: its change made (its new order, or true), its replacement kept. */
type Mark = { made: number | true } | { kept: true };

/** What a reader counts of the other runs' changes, against the listing its totals start from (othersOn). */
export interface OthersCounted {
  /** Changes not made yet and not in the listing. */
  planned: VpsFee[];
  /** Changes made that the listing does not show (it was read before they were made). */
  made: VpsFee[];
  /** Listed orders their replacement, listed too, counts for: left out of the listing's total. */
  leftOut: ReadonlySet<number>;
  /** What the listing bills for them, in cents. */
  leftOutCents: number;
  /** Cents to add to the listing's total: an order cancelled first for a replacement not listed yet still counts. */
  addCents: number;
}

/** A listing's orders by number (their fee, in cents) and by creation token. */
interface Listed {
  fees: Map<number, number | undefined>;
  byToken: Map<unknown, number[]>;
}
function listedOf(listing: readonly AboutOrder[]): Listed {
  const listed: Listed = { fees: new Map(), byToken: new Map() };
  for (const order of listing) {
    const usd = orderFields(order).monthlyFeeUsd;
    listed.fees.set(order.order_oid, usd === undefined ? undefined : cents(usd));
    for (const token of new Set(creationTokensOf(order)))
      listed.byToken.set(token, [...(listed.byToken.get(token) ?? []), order.order_oid]);
  }
  return listed;
}

/** The order of `e`'s change that `listed` shows as made (its new order), or undefined. */
function newOrderListed(e: Entry, listed: Listed): number | undefined {
  const carrying = e.token === undefined ? undefined : listed.byToken.get(e.token);
  const byToken = carrying?.find((oid) => oid !== e.order);
  if (byToken !== undefined) return byToken;
  return typeof e.made === "number" && listed.fees.has(e.made) ? e.made : undefined;
}

export class SharedPlan {
  /** The entries as of the last line read, by resource (or replaced order) key. */
  private readonly entries = new Map<string, Entry>();
  /** The plan directory's old files were swept (sweepOldPlanFiles): once per plan, at its first record. */
  private swept = false;
  /** How far the file has been read; a trailing line not yet ended is read again with the rest of it. */
  private offset = 0;
  /**
   * The last listing reconciled with, indexed: a check's totals start from the run's one listing, so a preview of N
   * VPSs indexes it once, not N times.
   */
  private lastListed?: { listing: readonly AboutOrder[]; listed: Listed };

  /**
   * `orders`: the nonces of the orders every provider of the command places, whatever its key (command-orders.ts); by
   * default a file beside this plan's (tests).
   */
  constructor(
    private readonly file: string,
    private readonly writer: string,
    private readonly orders: CommandOrders = new CommandOrders(`${file}.orders`, writer),
  ) {}

  /** The plan of the command `run` serves, on the account `accountKey` (a hash of its URL and key). */
  static forAccount(accountKey: string, run: RunContext): SharedPlan {
    return new SharedPlan(
      sharedPlanFile(accountKey, run.command),
      writerOf(run),
      CommandOrders.forCommand(run),
    );
  }

  /**
   * Records `resource`'s fee as this process checked it. Its latest check replaces an earlier one and keeps the fee
   * it is billed now, as the ledger does (cost/ledger.ts): the engine checks a replacement's create a second time,
   * with no old inputs, and the replacement counts once.
   */
  record(resource: string, fee: VpsFee, change: ChangeOrders = {}): void {
    if (!this.swept) sweepOldPlanFiles(path.dirname(this.file));
    this.swept = true;
    // Only this run's own earlier check: a later command can get the engine's address (the file's name) again, and
    // a finished one's entry is no check of this change (seed 83009: a create took its fee now, a shrink).
    const latest = this.read().get(resource);
    const earlier = latest?.writer === this.writer ? latest : undefined;
    const nowCents = fee.nowCents ?? earlier?.fee.nowCents;
    // The replacement's second check has no old inputs: the order it replaces is the first check's.
    const order = change.order ?? earlier?.order;
    this.append(resource, {
      fee: { ...fee, ...(nowCents === undefined ? {} : { nowCents }) },
      ...(order === undefined ? {} : { order }),
      ...(change.replaces || (earlier?.replaces && change.order === undefined) ? { replaces: true } : {}),
      ...(change.token === undefined ? {} : { token: change.token }),
    });
  }

  /**
   * `resource`'s change was made: `oid`, its new order (a create, a replacement), or none (a change made on its own
   * order). Its entry stays: a reader whose listing was read before it still counts it (othersOn).
   */
  made(resource: string, oid?: number): void {
    const entry = this.read().get(resource);
    if (entry && entry.made === undefined) this.append(resource, { made: oid ?? true });
  }

  /** Appends one line: `key`'s new entry, that it has none (`gone`), or a mark on it (made, kept). */
  private append(
    key: string,
    line: ({ fee: VpsFee } & ChangeOrders & { by?: number }) | { gone: true } | Mark,
  ): void {
    try {
      appendPlanLine(this.file, `${JSON.stringify({ key, writer: this.writer, at: Date.now(), ...line })}\n`);
    } catch {
      // A plan that cannot be shared leaves each provider judging its own VPSs, as before: never a failed check.
    }
  }

  /**
   * This run is about to order a VPS carrying `nonce` (noted before its POST, for every provider of this command
   * whatever its key: command-orders.ts), so no run of the command takes this order for a killed run's
   * (ownership/stack-strays.ts).
   */
  noteOrdering(nonce: string): void {
    this.orders.note(nonce);
  }

  /** True when this run failed to note an order it placed: "not noted" then proves nothing. */
  orderingIncomplete(): boolean {
    return this.orders.incomplete();
  }

  /** The creation nonces of the orders this command's runs (every provider's, whatever its key) placed or were placing. */
  orderedByThisCommand(): ReadonlySet<string> {
    return this.orders.all();
  }

  /** `resource`'s change is undone or never happened (its order withdrawn): it leaves the plan. */
  forget(resource: string): void {
    if (this.read().has(resource)) this.append(resource, { gone: true });
  }

  /** `resource`'s create or update ended: a change not made (it failed before changing anything) leaves the plan. */
  settle(resource: string): void {
    if (this.read().get(resource)?.made === undefined) this.forget(resource);
  }

  /** The other runs' entries (provider processes) of this command, leaving out the resources in `own`. */
  private othersEntries(own: ReadonlySet<string>): Entry[] {
    const now = Date.now();
    return [...this.read()]
      .filter(([resource, e]) => !own.has(resource) && this.isOthers(resource, e, now))
      .map(([, e]) => e);
  }

  /** `listing` indexed (listedOf), kept for the next reader of the same listing. */
  private indexed(listing: readonly AboutOrder[]): Listed {
    if (this.lastListed?.listing !== listing) this.lastListed = { listing, listed: listedOf(listing) };
    return this.lastListed.listed;
  }

  /** Whether `e` is a resource's entry of another live run of this command. */
  private isOthers(key: string, e: Entry, now: number): boolean {
    return (
      !key.startsWith(REPLACED) &&
      key !== FAILING &&
      e.writer !== this.writer &&
      now - e.at < PLAN_MAX_AGE_MS &&
      writerAlive(e.writer)
    );
  }

  /**
   * Whether another run of this command (another provider's process) checked `resource`: its change is in that run's
   * entries, which every reader counts (othersOn), so a guard waiting for its check (previewed-wait.ts) has it.
   */
  checkedByOthers(resource: string): boolean {
    const entry = this.read().get(resource);
    return entry !== undefined && this.isOthers(resource, entry, Date.now());
  }

  /** The fees other runs of this command checked, leaving out the resources in `own`, as no listing shows them. */
  others(own: ReadonlySet<string>): VpsFee[] {
    return this.othersEntries(own).map((e) => e.fee);
  }

  /**
   * The other runs' changes (leaving out the resources in `own`) reconciled with `listing`, the orders the reader's
   * totals start from, so each counts exactly once (the file's comment): none in the listing, all as entries (as
   * others()), when the account could not be read.
   */
  othersOn(own: ReadonlySet<string>, listing: readonly AboutOrder[] | undefined): OthersCounted {
    const counted = {
      planned: [] as VpsFee[],
      made: [] as VpsFee[],
      leftOut: new Set<number>(),
      leftOutCents: 0,
      addCents: 0,
    };
    const entries = this.othersEntries(own);
    const listed = listing && entries.length > 0 ? this.indexed(listing) : undefined;
    for (const e of entries) {
      const unlisted = () => (e.made === undefined ? counted.planned : counted.made).push(e.fee);
      if (!listed) {
        unlisted();
        continue;
      }
      const newOrder = newOrderListed(e, listed);
      if (newOrder !== undefined) {
        // Listed: counted there; the order it replaces, still billed beside it until cancelled, counts once.
        if (
          e.replaces &&
          e.order !== undefined &&
          listed.fees.has(e.order) &&
          !counted.leftOut.has(e.order)
        ) {
          counted.leftOut.add(e.order);
          counted.leftOutCents += listed.fees.get(e.order) ?? 0;
        }
        continue;
      }
      if (e.order !== undefined && !listed.fees.has(e.order)) {
        // Cancelled first for its replacement (deleteBeforeReplace), which is not listed yet: it counts until then.
        if (e.replaces && e.fee.nowCents !== undefined) counted.addCents += e.fee.nowCents;
      } else if (e.order !== undefined && !e.replaces && "cents" in e.fee.after) {
        // A change on the order itself, listed at its new fee: counted there.
        const fee = listed.fees.get(e.order);
        if (fee === e.fee.after.cents && fee !== e.fee.nowCents) continue;
      }
      unlisted();
    }
    return counted;
  }

  /**
   * Order `oid` was replaced by this run's new order `by`, and is cancelled once the run's changes are made: until
   * then every provider of the command counts it once, as its replacement (order-guard.ts), never beside it.
   */
  noteReplaced(oid: number, by?: number): void {
    this.append(`${REPLACED}${oid}`, {
      fee: { name: "", after: { cents: 0 } },
      ...(by === undefined ? {} : { by }),
    });
  }

  /**
   * Order `oid`'s replacement passed its read-back (withdrawIfOver) and is kept: only now may another provider's
   * failing run cancel `oid`. Withdrawn, its create fails and the engine keeps `oid` in the state as live.
   */
  noteKept(oid: number): void {
    if (this.read().has(`${REPLACED}${oid}`)) this.append(`${REPLACED}${oid}`, { kept: true });
  }

  /** Its replacement withdrawn, order `oid` counts again. */
  forgetReplaced(oid: number): void {
    this.forget(`${REPLACED}${oid}`);
  }

  /**
   * The orders other runs of this command replaced and have not cancelled yet; with `listing`, those whose
   * replacement it shows (one read before the replacement was ordered counts the replaced order in its place);
   * `keptOnly`: those whose replacement is kept (noteKept), the ones a failing run may cancel (replaced-orders.ts).
   */
  replacedByOthers(listing?: readonly AboutOrder[], keptOnly = false): Set<number> {
    const shown = (by: number) => listing === undefined || this.indexed(listing).fees.has(by);
    return new Set(
      [...this.read()]
        .filter(([key, e]) => key.startsWith(REPLACED) && e.writer !== this.writer && writerAlive(e.writer))
        .filter(([, e]) => (e.by === undefined || shown(e.by)) && (!keptOnly || e.kept))
        .map(([key]) => Number(key.slice(REPLACED.length))),
    );
  }

  /**
   * A run of this command failed on the budget (replaced-orders.ts): the engine fails the whole command, so it
   * cancels no replaced order of any provider; each provider judges the orders it replaced so (failing()).
   */
  noteFailing(): void {
    if (!this.read().has(FAILING)) this.append(FAILING, { fee: { name: "", after: { cents: 0 } } });
  }

  /** Whether a run of this command (this one or another provider's) failed on the budget. */
  failing(): boolean {
    const entry = this.read().get(FAILING);
    return entry !== undefined && Date.now() - entry.at < PLAN_MAX_AGE_MS && writerAlive(entry.writer);
  }

  /** The entries, with the lines appended (by any process) since the last read applied in order. */
  private read(): ReadonlyMap<string, Entry> {
    try {
      const read = linesSince(this.file, this.offset);
      if (read.restart) this.entries.clear();
      this.offset = read.offset;
      for (const line of read.lines) this.apply(line);
    } catch {
      // No plan yet (or none readable): the entries read so far.
    }
    return this.entries;
  }

  /** One line of the file applied to the entries; a line that is not one of ours is left out. */
  private apply(line: string): void {
    try {
      const parsed = JSON.parse(line) as Partial<Entry> & {
        key?: unknown;
        gone?: unknown;
        kept?: unknown;
      };
      if (typeof parsed.key !== "string") return;
      const { key, writer, at, fee, made } = parsed;
      if (parsed.gone === true) this.entries.delete(key);
      else if (typeof made === "number" || made === true || parsed.kept === true) {
        const entry = this.entries.get(key);
        if (entry)
          this.entries.set(key, parsed.kept === true ? { ...entry, kept: true } : { ...entry, made });
      } else if (typeof writer === "string" && typeof at === "number" && fee) {
        const number = (value: unknown) => (typeof value === "number" ? value : undefined);
        const [order, by] = [number(parsed.order), number(parsed.by)];
        this.entries.set(key, {
          writer,
          at,
          fee,
          ...(order === undefined ? {} : { order }),
          ...(parsed.replaces === true ? { replaces: true } : {}),
          ...(typeof parsed.token === "string" ? { token: parsed.token } : {}),
          ...(by === undefined ? {} : { by }),
        });
      }
    } catch {
      // A torn or foreign line counts for nothing.
    }
  }
}
