/** Choosing the billing method of a new order, with the recorded setup-message wording (docs/rimuhosting-api.md R4). */
import { emuError } from "../errors.js";
import type { BillingMethodState } from "../state/schema.js";
import type { StateStore } from "../state/store.js";

export function accountBillingMethods(store: StateStore, account: string): BillingMethodState[] {
  return store.state.billingMethods.filter((m) => m.account === account);
}

/**
 * The requested billing method if given (it must be the account's own), otherwise the first wire
 * transfer or "other" method, otherwise the first method on the account.
 */
export function chooseBillingMethod(
  store: StateStore,
  account: string,
  requestedOid: number | null | undefined,
): { method: BillingMethodState; message: string } {
  const methods = accountBillingMethods(store, account);
  if (requestedOid) {
    const method = methods.find((m) => m.billingOid === requestedOid);
    if (!method) {
      throw emuError("EMU_ERR_UNKNOWN_BILLING", {
        fieldName: "billing_oid",
        message: `Billing method ${requestedOid} is not on your account. List yours with GET /r/billing-methods, or omit billing_oid.`,
      });
    }
    return { method, message: `Using user-specified billing data: ${method.description}` };
  }
  for (const [type, label] of [
    ["TS_WIRE", "wire"],
    ["TS_OTHER", "other"],
  ] as const) {
    const method = methods.find((m) => m.type === type);
    if (method) {
      return {
        method,
        message: `Selected billing details as the first '${label}' billing details found for the user: ${method.description}`,
      };
    }
  }
  const first = methods[0];
  if (!first) {
    throw emuError("EMU_ERR_UNKNOWN_BILLING", {
      fieldName: "billing_oid",
      message: "Your account has no billing method. Add one in the control panel before ordering.",
    });
  }
  return {
    method: first,
    message: `Selected billing details as the first billing details found for the user: ${first.description}`,
  };
}
