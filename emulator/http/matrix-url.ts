/**
 * Matrix parameters sit inside path segments (`/r/orders;include_inactive=Y`,
 * `/r/orders/order-1-x/ptr;ip=1.2.3.4`), which fastify's router cannot match. `rewriteMatrixUrl` runs
 * as fastify's `rewriteUrl`: it strips them from every segment before routing and keeps them, parsed
 * with the contract's parseMatrix, for the handler.
 */
import type { IncomingMessage } from "node:http";
import { parseMatrix } from "../../contract/index.js";
import type { Matrix } from "../domain/matrix-filters.js";

const EMPTY: Matrix = new Map();
const stash = new WeakMap<IncomingMessage, Matrix>();

export function rewriteMatrixUrl(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (!path.includes(";")) return url;
  const merged = new Map<string, string[]>();
  const segments = path.split("/").map((segment) => {
    const cut = segment.indexOf(";");
    if (cut < 0) return segment;
    for (const [name, values] of parseMatrix(segment).params) {
      merged.set(name, [...(merged.get(name) ?? []), ...values]);
    }
    return segment.slice(0, cut);
  });
  stash.set(req, merged);
  return segments.join("/") + (queryAt < 0 ? "" : url.slice(queryAt));
}

/** The matrix parameters of a request, all segments merged. */
export function matrixOf(req: IncomingMessage): Matrix {
  return stash.get(req) ?? EMPTY;
}
