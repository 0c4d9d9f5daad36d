/**
 * Renders R1 listings as bytes, fast. A listing of 900 orders is about 1 MB of JSON; stringifying it
 * per request is most of the CPU a request costs. So:
 *
 * - each order's JSON is cached until that order changes (StateStore.revisionOf), so a listing
 *   after a change re-renders only what changed;
 * - each listing's bytes (after the envelope) are cached per account and filter until ANY change
 *   to the state (StateStore.version) or until an order's cancellation date passes, so an unchanged
 *   listing costs a lookup and a small envelope.
 *
 * The bytes are exactly those of JSON.stringify on the whole response record (envelope fields, then
 * about_orders, then order_filter); test/emulator/listing-cache.test.ts checks it.
 */
import { ENDPOINTS } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import type { EmulatorContext } from "../domain/context.js";
import { type ListingFilter, selectOrders } from "../domain/listing.js";
import { toAboutOrder } from "./records.js";
import type { OrderState } from "../state/schema.js";
import { renderAround } from "./render.js";
import type { Random } from "../random.js";

/** Fisher–Yates, in place. */
function shuffled<T>(items: T[], random: Random): void {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

interface CachedListing {
  version: number;
  validUntilMs: number;
  count: number;
  /** `,"about_orders":[...],"order_filter":{...}}}`: everything after the envelope fields. */
  tail: Buffer;
}

const ABOUT_ORDERS_OPEN = Buffer.from(',"about_orders":[');
const ABOUT_ORDER = Buffer.from(',"about_order":');
const COMMA = Buffer.from(",");
const CLOSE_TWO = Buffer.from("}}");

/** Listings kept at once; more distinct filters than this start the cache afresh. */
const MAX_LISTINGS = 64;

export class ListingRenderer {
  private readonly orderJson = new WeakMap<OrderState, { revision: number; json: Buffer }>();
  private readonly listings = new Map<string, CachedListing>();

  /**
   * `shuffle`: list the orders, and each order's secondary addresses, in a new order every time (the
   * shuffleListings option), never from the cache.
   */
  constructor(
    private readonly ctx: EmulatorContext,
    private readonly shuffle?: Random,
  ) {}

  /** The whole `{"get_orders_response": ...}` body, in parts. */
  render(account: DemoAccount, filter: ListingFilter): Buffer[] {
    const now = this.ctx.clock.now();
    const listing = this.listing(account, filter, now);
    return renderAround(ENDPOINTS.listOrders.rootKey, now, `Found ${listing.count} orders`, listing.tail);
  }

  /** The whole `{"get_order_response": ...}` body of one order, from its cached JSON. */
  renderOrder(order: OrderState): Buffer[] {
    const tail = Buffer.concat([ABOUT_ORDER, this.aboutOrderJson(order), CLOSE_TWO]);
    return renderAround(
      ENDPOINTS.getOrder.rootKey,
      this.ctx.clock.now(),
      `Information about ${order.domainName}`,
      tail,
    );
  }

  private listing(account: DemoAccount, filter: ListingFilter, now: number): CachedListing {
    const key = `${account.name}\u0000${JSON.stringify(filter.echo)}`;
    const cached = this.listings.get(key);
    if (cached && !this.shuffle && cached.version === this.ctx.store.version && now < cached.validUntilMs)
      return cached;
    const { orders, validUntilMs } = selectOrders(this.ctx, account, filter);
    if (this.shuffle) shuffled(orders, this.shuffle);
    const parts: Buffer[] = [ABOUT_ORDERS_OPEN];
    orders.forEach((order, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(this.aboutOrderJson(order));
    });
    parts.push(Buffer.from(`],"order_filter":${JSON.stringify(filter.echo)}}}`));
    // Taken after selecting: settling an expired cancellation is itself a change.
    const fresh = {
      version: this.ctx.store.version,
      validUntilMs,
      count: orders.length,
      tail: Buffer.concat(parts),
    };
    if (this.listings.size >= MAX_LISTINGS) this.listings.clear();
    this.listings.set(key, fresh);
    return fresh;
  }

  private aboutOrderJson(order: OrderState): Buffer {
    if (this.shuffle) {
      // A list inside the order, too: its secondary addresses in a new order.
      const about = toAboutOrder(order);
      if (about.allocated_ips?.secondary_ips) shuffled(about.allocated_ips.secondary_ips, this.shuffle);
      return Buffer.from(JSON.stringify(about));
    }
    const revision = this.ctx.store.revisionOf(order);
    const cached = this.orderJson.get(order);
    if (cached && cached.revision === revision) return cached.json;
    const json = Buffer.from(JSON.stringify(toAboutOrder(order)));
    this.orderJson.set(order, { revision, json });
    return json;
  }
}
