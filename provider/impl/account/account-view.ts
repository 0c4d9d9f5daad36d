/**
 * The shared reads of one run: what the provider host knows about the account, read once and served to every
 * resource, instead of one call per resource. The engine checks resources one after another, so a per-resource
 * read costs a fleet's preview N round trips; from here it costs one.
 *
 * - the account's active orders (R1): token look-ups (another state's order, a stray order, a pending create),
 *   the live order of an existing resource (its host, sizes and data centre) and the data centre of every host
 *   the account uses;
 * - the billing methods (R13);
 * - price quotes (R16), once per distinct request;
 * - a host's live figures (R5), once per host;
 * - what this run's checked changes take of each host (host-room.ts), which they are judged by together;
 * - and what they cost a month, which the budget judges together (cost/ledger.ts).
 *
 * Each is kept for LISTING_MAX_AGE_MS (a read older than that is made again), failures included, so a
 * service that is down is asked once, not once per resource. An order this host places is added to the
 * listing at once (notePlaced), so the listing never misses it. What this means for exactly-once creation is
 * in docs/vps.md#exactly-once-creation: the reads that decide whether to order (the client's pre-flight, the
 * look-up before a pending resource is cancelled) are never served from here.
 *
 * What an update, a refresh or a destroy must know of each VPS comes from here too (issue 90): the order as it stands
 * (listedOrder) and its read-back after a change (orderAfterChange, read-backs.ts). A VPS is read by itself only where
 * a listing cannot answer, each named where it is made (docs/benchmarks.md lists them):
 * - an order the active listing does not hold (cancelled or being cancelled), or a listing that could not be read:
 *   its own GET tells a cancelled order from one RimuHosting no longer has (lifecycle/order-of-id.ts's orderNow);
 * - a resize answered "not changed" (a retry of one whose answer was lost), a step that failed, a running-state answer
 *   without the order: the order read to learn what was done (lifecycle/vps-converge.ts), and a delete answered with
 *   an error, read to tell whether it was cancelled (ordering/order-cancel.ts): failures, rare by nature;
 * - a host's free memory and disk (R5) for a preview's room check of a resize: no listing carries them; once per host,
 *   read again after a change on that host lands (host-room.ts);
 * - under a budget, the guard's judgement of each growing change and a new order's read-back, each on the account
 *   read fresh at that moment (ordering/judgement.ts, order-withdrawal.ts): what they promise (docs/cost.md) is
 *   judged on what every other run and person has ordered until then, which a listing read earlier does not show.
 */
import { SharedPlan } from "./shared-plan.js";
import { PreviewedPlans } from "./previewed-plan.js";
import { writerOf } from "./plan-writer.js";
import type {
  AboutOrder,
  BillingMethodData,
  GetNewVmPricingResponse,
  HostServerInfo,
  NewVpsRequestInput,
} from "../../../contract/index.js";
import { creationTokensOf, type OrderRef, type RimuClient } from "../../client/index.js";
import { canonicalJson } from "../inputs/canonical-json.js";
import { HostLedger } from "./host-room.js";
import { FeeLedger, type AccountBilled } from "../cost/ledger.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { ReadBacks } from "./read-backs.js";

/** How long a shared read is served before it is made again. */
export const LISTING_MAX_AGE_MS = 60_000;

interface Kept<T> {
  at: number;
  value: Promise<T>;
}

/** A listing orders are looked up in by number, and the orders it no longer answers (AccountView.listedOrder). */
interface LookupListing extends Kept<AboutOrder[]> {
  settled: Set<number>;
}

export class AccountView {
  private orders: Kept<AboutOrder[]> | undefined;
  /** The last listing carryingIn() looked in, by creation token. */
  private tokenIndex: { listing: readonly AboutOrder[]; byToken: Map<unknown, AboutOrder[]> } | undefined;
  private billing: Kept<BillingMethodData[]> | undefined;
  private readonly quotes = new Map<string, Kept<GetNewVmPricingResponse>>();
  private readonly hosts = new Map<string, Kept<HostServerInfo | undefined>>();
  /** What this run's checked changes take of each host (host-room.ts). */
  readonly ledger = new HostLedger();
  /** Each checked VPS's fee now and after this run's change, which the budget judges together (cost/ledger.ts). */
  readonly fees = new FeeLedger();
  /** The listing the fee ledger's totals start from (its first read): other providers' changes are reconciled with it. */
  private totalsListing?: readonly AboutOrder[];
  /**
   * The listing orders are looked up in by number (listedOrder), with the orders it may no longer answer: those
   * looked up in it, and those this run changed since it was started (noteChanged). Kept apart from `orders`, so a
   * check asking for the account meanwhile is answered from the listing it would have had, not held until this one is.
   */
  private lookups: LookupListing | undefined;
  /** The last listing an order was looked up in by number (listedOrder), by order number. */
  private oidIndex: { listing: readonly AboutOrder[]; byOid: Map<number, AboutOrder> } | undefined;
  /** The read-backs after this run's changes, served by shared listings read after them (read-backs.ts). */
  readonly readBacks = new ReadBacks(() => this.activeOrders({ fresh: true }));

  constructor(
    readonly client: RimuClient,
    private readonly now: () => number = Date.now,
    /** The fees the other provider processes of this command checked on this account (shared-plan.ts). */
    readonly sharedPlan?: SharedPlan,
    /** A hash of the account's base URL and API key (never the key): what names the account in shared files. */
    readonly accountKey?: string,
    /** What the latest preview of each stack planned on this account, for the guard's wait (previewed-plan.ts). */
    readonly previewed?: PreviewedPlans,
  ) {}

  /**
   * The fee ledger's totals start from `orders`, billed `billed` (the run's first listing; later ones change nothing),
   * and the other providers' changes are counted against the same listing (shared-plan.ts).
   */
  startTotalsFrom(orders: readonly AboutOrder[], billed: AccountBilled): void {
    if (this.fees.billed !== undefined) return;
    this.fees.billedNow(billed);
    this.totalsListing = orders;
  }

  /** The listing the fee ledger's totals start from, once read. */
  get ledgerListing(): readonly AboutOrder[] | undefined {
    return this.totalsListing;
  }

  /** The account's active orders (include_inactive=N); `fresh` reads them again now. */
  activeOrders(opts: { fresh?: boolean } = {}): Promise<AboutOrder[]> {
    if (opts.fresh || !this.isFresh(this.orders)) {
      this.orders = this.keep(
        this.client.listOrders({ includeInactive: false }).then((r) => r.about_orders ?? []),
      );
    }
    return this.orders!.value;
  }

  /** The active orders whose meta_data carries `token`. */
  async ordersCarrying(token: string, opts: { fresh?: boolean } = {}): Promise<AboutOrder[]> {
    return this.carryingIn(await this.activeOrders(opts), token);
  }

  /**
   * The orders of `listing` whose meta_data carries `token` (carriesCreationToken), in the listing's order. Every
   * check looks its token up in the run's listing: the listing is indexed by token once (a listing is never changed
   * in place; notePlaced makes a new one), not scanned whole per VPS (196 ms of a 500-VPS preview's provider host).
   */
  carryingIn(listing: readonly AboutOrder[], token: string): AboutOrder[] {
    if (this.tokenIndex?.listing !== listing) {
      const byToken = new Map<unknown, AboutOrder[]>();
      for (const order of listing)
        for (const carried of new Set(creationTokensOf(order))) {
          const carrying = byToken.get(carried) ?? [];
          carrying.push(order);
          byToken.set(carried, carrying);
        }
      this.tokenIndex = { listing, byToken };
    }
    return [...(this.tokenIndex.byToken.get(token) ?? [])];
  }

  /**
   * Order `oid` as the account's listing shows it: undefined when the listing does not hold it (not an active order,
   * or the listing could not be read), and only then is it worth a read of its own. What update() and read() start
   * from, so a fleet's update or refresh reads the account once, not each VPS (issue 90).
   *
   * The rule: a listing answers each order once. The engine asks for each resource once per operation: a refresh reads
   * every resource once, --parallel at a time (default 8), each worker taking the next as its Read and Diff return; an
   * update looks up each VPS it changes once; `pulumi import` reads one. So one operation's look-ups share one listing,
   * read when its first look-up came (and again once LISTING_MAX_AGE_MS old), however its Reads arrive. A second
   * look-up of an order, or one of an order this run changed since the listing was started (noteChanged), is a later
   * operation on it: `up --refresh`'s update after its refresh, or the user's next command, which a new provider
   * process serves in a deployment and this one in the tests (host.test.ts, native/server.test.ts). It is answered
   * from a listing read now, which shows what was changed by hand since. Not a rule of time or of calls in flight:
   * a refresh's second wave of Reads arrives after its first has returned, as a test's next command does. What a
   * listing may miss: a change by hand, after it was read, to an order not looked up in it yet; in a deployment that
   * is a change made while the operation runs, which the operation may see or not.
   */
  async listedOrder(oid: number): Promise<AboutOrder | undefined> {
    let kept = this.lookups;
    if (!this.isFresh(kept) || kept.settled.has(oid)) {
      const listing = this.keep(
        this.client.listOrders({ includeInactive: false }).then((r) => r.about_orders ?? []),
      );
      kept = this.lookups = { ...listing, settled: new Set() };
    }
    kept.settled.add(oid);
    const listing = await kept.value.catch(() => undefined);
    return listing && this.inListing(listing, oid);
  }

  /**
   * This run changed order `oid` (a change returned, an order placed or cancelled): its next look-up (listedOrder)
   * is from a listing read after now, not the one it may have been read in before the change.
   */
  noteChanged(oid: number): void {
    this.lookups?.settled.add(oid);
  }

  /**
   * A change of an order begins: the read-backs' next listing waits for it, so that one listing serves the fleet's
   * read-backs (read-backs.ts). What it returns says the change is over: give it to orderAfterChange, and call it
   * when the change ends without a read-back.
   */
  changeBegins(): () => void {
    return this.readBacks.begin();
  }

  /**
   * Order `oid` read back after a change of it returned: from a listing read after that (shared by every read-back
   * waiting for it, read-backs.ts), or, when that listing does not hold it or could not be read, by `read` (the
   * order's own GET).
   */
  async orderAfterChange(
    oid: number,
    read: () => Promise<AboutOrder>,
    changeOver?: () => void,
  ): Promise<AboutOrder> {
    const listing = await this.readBacks.after(changeOver).catch(() => undefined);
    return (listing && this.inListing(listing, oid)) ?? read();
  }

  /** Order `oid` of `listing`, indexed by number once per listing (a fleet looks each of its VPSs up in it). */
  private inListing(listing: readonly AboutOrder[], oid: number): AboutOrder | undefined {
    if (this.oidIndex?.listing !== listing)
      this.oidIndex = { listing, byOid: new Map(listing.map((order) => [order.order_oid, order])) };
    return this.oidIndex.byOid.get(oid);
  }

  /** An order this host just placed (or found): added to a kept listing, which is then never behind it. */
  notePlaced(order: AboutOrder): void {
    this.noteChanged(order.order_oid);
    const kept = this.orders;
    if (!kept) return;
    this.orders = {
      at: kept.at,
      value: kept.value.then(
        (orders) => {
          const next = [...orders.filter((o) => o.order_oid !== order.order_oid), order];
          this.carryIndexes(orders, next, order);
          return next;
        },
        () => [order],
      ),
    };
  }

  /**
   * The indexes of `before` carried to `after`, the same listing with `placed` (re)placed at its end: changed for that
   * one order, not made again. Made again per order placed, they cost an up of N VPSs N indexings of up to N orders
   * (0.5 CPU-s of a 2,000-VPS up's provider host, docs/benchmarks.md).
   */
  private carryIndexes(
    before: readonly AboutOrder[],
    after: readonly AboutOrder[],
    placed: AboutOrder,
  ): void {
    const oid = placed.order_oid;
    if (this.tokenIndex?.listing === before) {
      const { byToken } = this.tokenIndex;
      const earlier = before.find((o) => o.order_oid === oid);
      for (const token of new Set(earlier ? creationTokensOf(earlier) : [])) {
        const left = (byToken.get(token) ?? []).filter((o) => o.order_oid !== oid);
        if (left.length > 0) byToken.set(token, left);
        else byToken.delete(token);
      }
      for (const token of new Set(creationTokensOf(placed))) {
        const carrying = byToken.get(token);
        if (carrying)
          carrying.push(placed); // carryingIn hands out copies: the arrays are this index's own
        else byToken.set(token, [placed]);
      }
      this.tokenIndex = { listing: after, byToken };
    }
    if (this.oidIndex?.listing === before) {
      this.oidIndex.byOid.set(oid, placed);
      this.oidIndex = { listing: after, byOid: this.oidIndex.byOid };
    }
  }

  /** An order this host cancelled: dropped from a kept listing. */
  noteGone(orderOid: number): void {
    this.noteChanged(orderOid);
    const kept = this.orders;
    if (!kept) return;
    const value = kept.value.then((orders) => orders.filter((o) => o.order_oid !== orderOid));
    // A failed listing stays failed, reported where it is read: never an unhandled rejection (it ends the process).
    value.catch(() => undefined);
    this.orders = { at: kept.at, value };
  }

  /** The account's billing methods (R13). */
  billingMethods(): Promise<BillingMethodData[]> {
    if (!this.isFresh(this.billing)) {
      this.billing = this.keep(this.client.listBillingMethods().then((r) => r.billing_methods ?? []));
    }
    return this.billing!.value;
  }

  /** RimuHosting's answer to this quote request (R16), asked once per distinct request. */
  quote(request: NewVpsRequestInput): Promise<GetNewVmPricingResponse> {
    const key = canonicalJson(request);
    let kept = this.quotes.get(key);
    if (!this.isFresh(kept)) {
      kept = this.keep(this.client.quoteNewVm(request));
      this.quotes.set(key, kept);
    }
    return kept!.value;
  }

  /** The live figures of the host an order runs on (R5 of that order), read once per host. */
  hostOf(order: OrderRef, hostOid: string): Promise<HostServerInfo | undefined> {
    let kept = this.hosts.get(hostOid);
    if (!this.isFresh(kept)) {
      kept = this.keep(this.client.getVpsStatus(order).then((r) => r.host_server_info ?? undefined));
      this.hosts.set(hostOid, kept);
    }
    return kept!.value;
  }

  /**
   * A change of `resource` this host applied (a create, an update): its claims on hosts are given up, and those
   * hosts' figures are read again when next needed, since they now hold the change.
   */
  noteApplied(resource: string): void {
    for (const host of this.ledger.settle(resource)) this.hosts.delete(host);
  }

  private isFresh<T>(kept: Kept<T> | undefined): kept is Kept<T> {
    return kept !== undefined && this.now() - kept.at < LISTING_MAX_AGE_MS;
  }

  private keep<T>(value: Promise<T>): Kept<T> {
    value.catch(() => undefined); // kept failures are reported where they are read, never as unhandled
    return { at: this.now(), value };
  }
}

/** The views of this run (run-context.ts), one per account. */
const VIEWS = runState("the shared reads of each account", () => new Map<string, AccountView>());
const views = (run: RunContext): Map<string, AccountView> => run.get(VIEWS);

/** `run`'s view of the account behind `key` (a hash of base URL and API key), made with `client` on first use. */
export function accountViewFor(run: RunContext, key: string, client: () => RimuClient): AccountView {
  let view = views(run).get(key);
  if (!view) {
    view = new AccountView(
      client(),
      Date.now,
      SharedPlan.forAccount(key, run),
      key,
      new PreviewedPlans(key, run.command, writerOf(run)),
    );
    views(run).set(key, view);
  }
  return view;
}

/** A change of `resource` starts (a create, an update): every view's ledger of `run` knows it applies changes. */
export function noteStartingEverywhere(run: RunContext, resource: string): void {
  for (const view of views(run).values()) view.ledger.start(resource);
}

/**
 * A change of `resource` ran: every view of `run` gives up its claims (AccountView.noteApplied), and the shared plan
 * marks it made (`made`) or, when it failed before changing anything, leaves it out (shared-plan.ts).
 */
export function noteAppliedEverywhere(run: RunContext, resource: string, made: boolean): void {
  for (const view of views(run).values()) {
    view.noteApplied(resource);
    if (made) view.sharedPlan?.made(resource);
    else view.sharedPlan?.settle(resource);
  }
}

/** Forgets every view of `run`, with the clients they hold (a new read timeout). */
export function resetAccountViews(run: RunContext): void {
  views(run).clear();
}
