/**
 * R12 PUT .../ptr;ip=<ip>: sets (or, with an empty name, clears) the reverse DNS name of one of the
 * order's addresses; without `ip` the primary address is used (docs/rimuhosting-api.md R12).
 */
import type { DemoAccount } from "../accounts.js";
import { emuError } from "../errors.js";
import type { Outcome } from "./outcome.js";
import type { EmulatorContext } from "./context.js";
import { DURATIONS_MS } from "./durations.js";
import { changeOwnOrder, requireVpsToChange } from "./lookup.js";
import { requireFqdn } from "./validate.js";

/**
 * An empty name clears the reverse DNS. So does `None`: RimuHosting's own rdns.py form-encodes
 * Python's None when --domain_name is left out, which its help text says clears the record (a
 * guess about the real service, listed in docs/emulator.md; `None` is no FQDN either way).
 */
function clearsName(domainName: string): boolean {
  const name = domainName.trim();
  return name === "" || name === "None";
}

export async function setReverseDns(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
  ip: string | undefined,
  domainName: string,
): Promise<Outcome<"setReverseDns">> {
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
    const name = clearsName(domainName) ? "" : domainName.trim();
    if (name !== "") requireFqdn(name, "domain_name");
    await clock.work(DURATIONS_MS.ptr, order.orderOid);
    if (name === "") delete order.ptr[target];
    else order.ptr[target] = name;
    store.changed(order);
    return {
      message:
        name === ""
          ? `Removed the reverse DNS name of ${target}.`
          : `Reverse DNS for ${target} set to ${name}.`,
    };
  });
}
