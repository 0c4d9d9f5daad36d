/** R1 GET /r/orders[;filters]: the account's orders, filtered by the matrix parameters. */
import type { GetOrdersResponse } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import type { OrderState } from "../state/schema.js";
import { okEnvelope } from "../wire/envelope.js";
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
import { orderDescription, toAboutOrder } from "./render.js";

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

export function listOrders(ctx: EmulatorContext, account: DemoAccount, matrix: Matrix): GetOrdersResponse {
  const now = ctx.clock.now();
  const includeInactive = parseYesNo(matrix, "include_inactive") ?? false;
  const serverType = parseServerType(matrix);
  const orderOids = parseOrderOids(matrix);
  const search = matrixValue(matrix, "search")?.value || undefined;
  const metaSearch = (matrixValue(matrix, "meta_search")?.value ?? "").split(" ").filter((p) => p !== "");
  const dc = parseDcFilter(matrix);
  const wantedOids = orderOids && new Set(orderOids);
  const needle = search?.toLowerCase();

  const found: OrderState[] = [];
  for (const order of ctx.store.state.orders) {
    if (order.account !== account.name) continue;
    if (settleExpiredCancellation(order, now)) ctx.store.changed();
    if (!includeInactive && !isActive(order, now)) continue;
    if (serverType && order.serverType !== serverType) continue;
    if (wantedOids && !wantedOids.has(order.orderOid)) continue;
    if (dc && order.dc !== dc) continue;
    if (metaSearch.length > 0 && !matchesMetaSearch(order, metaSearch)) continue;
    if (needle && !matchesSearch(order, needle)) continue;
    found.push(order);
  }
  return {
    ...okEnvelope(now, `Found ${found.length} orders`),
    about_orders: found.map(toAboutOrder),
    order_filter: {
      include_inactive: includeInactive ? "Y" : "N",
      server_type: serverType ?? null,
      order_oids: orderOids ?? null,
      search: search ?? null,
      meta_search: metaSearch.length > 0 ? metaSearch.join(" ") : null,
      dc_location: dc ?? null,
    },
  };
}
