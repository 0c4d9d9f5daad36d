/** Shared route helpers: the authenticated account and the order id from the `{order}` segment. */
import type { FastifyRequest } from "fastify";
import { parseOrderSegment } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { emuError } from "../errors.js";

export function accountOf(request: FastifyRequest): DemoAccount {
  const account = request.emu.account;
  // The auth hook rejects keyless requests to these routes; reaching here without one is a bug.
  if (!account) throw emuError("EMU_ERR_LOGIN_REQUIRED");
  return account;
}

export function orderOidOf(request: FastifyRequest): number {
  const segment = (request.params as { order?: string }).order ?? "";
  const oid = parseOrderSegment(segment);
  if (oid === undefined) {
    throw emuError("EMU_ERR_ORDER_NOT_FOUND", {
      message: `'${segment}' is not an order path segment; use order-<order_oid>-<domain>, e.g. order-123456-web1-example-com.`,
    });
  }
  return oid;
}
