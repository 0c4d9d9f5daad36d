/**
 * From the wire (snake_case) to the data sources' documented camelCase results: what several data
 * sources share. Kept out of the public declarations (it names the wire types).
 */
import type { AboutOrder, Timestamp } from "../../contract/index.js";
import type { Order } from "./get-order.js";

/**
 * The provider's wire-to-camelCase helpers (an order's fields, `compact`), shared with the Vps outputs.
 * Required on the first real call rather than imported: they load the HTTP client, which a mocked unit
 * test never needs (see program-client.ts).
 */
export function wireMapping(): typeof import("../impl/vps-outputs.js") {
  return require("../impl/vps-outputs.js") as typeof import("../impl/vps-outputs.js");
}

/** A wire timestamp as ISO-8601. */
export function isoTime(timestamp: Timestamp | null | undefined): string | undefined {
  return timestamp?.iso_format ?? undefined;
}

/** An order from the wire (snake_case) to the documented camelCase shape. */
export function toOrder(order: AboutOrder, now: number = Date.now()): Order {
  const { compact, isOrderGone, orderFields } = wireMapping();
  return compact({
    ...orderFields(order),
    serverType: order.server_type ?? undefined,
    cancelled: isOrderGone(order, now),
    cancellationDate: isoTime(order.billing_info?.cancellation_date),
  });
}
