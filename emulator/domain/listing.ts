/**
 * R1 GET /r/orders[;filters]: which of the account's orders a listing holds, from the matrix
 * parameters. Rendering the listing is wire/listing.ts's job.
 */
import type { DemoAccount } from "../accounts.js";
import type { OrderState } from "../state/schema.js";
import type { EmulatorContext } from "./context.js";
import { isActive, settleExpiredCancellation } from "./lifecycle.js";
import {
  type Matrix,
  matrixValue,
  parseDcFilter,
  parseOrderOids,
  parseServerType,
  parseYesNo,
} from "./matrix-filters.js";
import { orderDescription } from "../wire/records.js";

/** The filter a listing applies, parsed once; `echo` is what `order_filter` reports. */
export interface ListingFilter {
  includeInactive: boolean;
  serverType: string | undefined;
  wantedOids: ReadonlySet<number> | undefined;
  dc: string | undefined;
  metaSearch: readonly string[];
  /** Lower-case search text. */
  needle: string | undefined;
  echo: {
    include_inactive: "Y" | "N";
    server_type: string | null;
    order_oids: number[] | null;
    search: string | null;
    meta_search: string | null;
    dc_location: string | null;
  };
}

export function parseListingFilter(matrix: Matrix): ListingFilter {
  const includeInactive = parseYesNo(matrix, "include_inactive") ?? false;
  const serverType = parseServerType(matrix);
  const orderOids = parseOrderOids(matrix);
  const search = matrixValue(matrix, "search")?.value || undefined;
  const metaSearch = (matrixValue(matrix, "meta_search")?.value ?? "").split(" ").filter((p) => p !== "");
  const dc = parseDcFilter(matrix);
  return {
    includeInactive,
    serverType,
    wantedOids: orderOids && new Set(orderOids),
    dc,
    metaSearch,
    needle: search?.toLowerCase(),
    echo: {
      include_inactive: includeInactive ? "Y" : "N",
      server_type: serverType ?? null,
      order_oids: orderOids ?? null,
      search: search ?? null,
      meta_search: metaSearch.length > 0 ? metaSearch.join(" ") : null,
      dc_location: dc ?? null,
    },
  };
}

/**
 * `meta_search` pairs are `key:value`, space separated, and all must match. A key may itself contain
 * ':' (the client's creation-token key does), so a pair matches an entry when it equals
 * `key_name + ":" + value` exactly; a bare key matches an entry with that key.
 */
function matchesMetaSearch(order: OrderState, pairs: readonly string[]): boolean {
  return pairs.every((pair) =>
    order.metaData.some((m) => pair === `${m.key_name}:${m.value ?? ""}` || pair === m.key_name),
  );
}

/** `needle` is lower-case. The description is built only when the cheap fields do not match. */
function matchesSearch(order: OrderState, needle: string): boolean {
  return (
    order.domainName.toLowerCase().includes(needle) ||
    String(order.orderOid).includes(needle) ||
    (order.primaryIp ?? "").includes(needle) ||
    orderDescription(order).toLowerCase().includes(needle)
  );
}

function matches(order: OrderState, filter: ListingFilter, now: number): boolean {
  if (!filter.includeInactive && !isActive(order, now)) return false;
  if (filter.serverType && order.serverType !== filter.serverType) return false;
  if (filter.wantedOids && !filter.wantedOids.has(order.orderOid)) return false;
  if (filter.dc && order.dc !== filter.dc) return false;
  if (filter.metaSearch.length > 0 && !matchesMetaSearch(order, filter.metaSearch)) return false;
  if (filter.needle && !matchesSearch(order, filter.needle)) return false;
  return true;
}

export interface Listing {
  orders: OrderState[];
  /**
   * Until when the selection holds without any change to the state: the next moment an order of
   * the account passes its cancellation date and stops being active.
   */
  validUntilMs: number;
}

/** The account's orders that pass the filter, in the order they were created. */
export function selectOrders(ctx: EmulatorContext, account: DemoAccount, filter: ListingFilter): Listing {
  const now = ctx.clock.now();
  const orders: OrderState[] = [];
  let validUntilMs = Number.POSITIVE_INFINITY;
  for (const order of ctx.store.state.orders) {
    if (order.account !== account.name) continue;
    if (settleExpiredCancellation(order, now)) ctx.store.changed(order);
    if (order.removedAtMs === null && order.cancellationDateMs !== null) {
      validUntilMs = Math.min(validUntilMs, order.cancellationDateMs);
    }
    if (matches(order, filter, now)) orders.push(order);
  }
  return { orders, validUntilMs };
}
