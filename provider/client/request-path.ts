/**
 * Builds the path of a request from the contract's route template: the `{order}` segment comes
 * from the contract's orderSlug (domain part made path-safe), filters from formatMatrix (values
 * percent-encoded, so `;`, `=` and `/` in a value cannot break the path).
 */
import { formatMatrix, orderSlug, type Endpoint, type MatrixParams } from "../../contract/index.js";
import { RimuValidationError } from "./errors.js";

/** An order: its oid, optionally with its domain name (used only to make the URL readable). */
export type OrderRef = number | { orderOid: number; domainName?: string | null };

export function orderSegment(order: OrderRef): string {
  const oid = typeof order === "number" ? order : order?.orderOid;
  if (typeof oid !== "number" || !Number.isSafeInteger(oid) || oid <= 0) {
    throw new RimuValidationError(`order: expected a positive whole order_oid, got ${describe(oid)}`, {
      fieldName: "order",
    });
  }
  return orderSlug(oid, typeof order === "number" ? undefined : order.domainName);
}

/** The path relative to the base URL, with a leading slash: `/orders/order-12-web1-example-com/vps`. */
export function buildPath(
  endpoint: Endpoint,
  options: { order?: OrderRef; matrix?: MatrixParams } = {},
): string {
  let path = endpoint.path;
  if (path.includes("{order}")) {
    if (options.order === undefined) {
      throw new RimuValidationError(`order: ${endpoint.path} needs an order`, {
        fieldName: "order",
      });
    }
    path = path.replace("{order}", orderSegment(options.order));
  }
  return path + (options.matrix ? formatMatrix(options.matrix) : "");
}

/** "GET /orders/{order}": how errors and logs name an endpoint. */
export function endpointLabel(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path}`;
}

function describe(value: unknown): string {
  if (typeof value === "number") return String(value);
  return value === undefined ? "nothing" : typeof value;
}
