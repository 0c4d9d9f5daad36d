/**
 * R12 PUT .../ptr;ip=<ip>: sets (or, with an empty name, clears) the reverse DNS name of one of the
 * order's addresses; without `ip` the primary address is used (§R12).
 */
import type { JaxrsResponse } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { emuError } from "../errors.js";
import { okEnvelope } from "../wire/envelope.js";
import type { EmulatorContext } from "./context.js";
import { DURATIONS_MS } from "./durations.js";
import { changeOwnOrder, requireVpsToChange } from "./lookup.js";
import { requireFqdn } from "./validate.js";

export async function setReverseDns(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
  ip: string | undefined,
  domainName: string,
): Promise<JaxrsResponse> {
  const { store, clock } = ctx;
  return changeOwnOrder(ctx, account.name, orderOid, requireVpsToChange, async (order) => {
    const target = ip || order.primaryIp;
    const owned = [order.primaryIp, ...order.secondaryIps];
    if (!target || !owned.includes(target)) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: "ip",
        message: `ip '${ip}' is not an address of order ${order.orderOid}; it has ${owned.filter(Boolean).join(", ")}.`,
      });
    }
    const name = domainName.trim();
    if (name !== "") requireFqdn(name, "domain_name");
    await clock.work(DURATIONS_MS.ptr);
    if (name === "") delete order.ptr[target];
    else order.ptr[target] = name;
    store.changed();
    return okEnvelope(
      clock.now(),
      name === ""
        ? `Removed the reverse DNS name of ${target}.`
        : `Reverse DNS for ${target} set to ${name}.`,
    );
  });
}
