/** getBillingMethods / getBillingMethodsOutput: the account's billing methods. */
import type * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import { outputForm, type DataSourceOutputOptions } from "./output-form.js";
import { callDataSource } from "./program-client.js";

/** A billing method on the account. */
export interface BillingMethod {
  /**
   * The id, for Vps `billingOid`.
   * @default always set
   * @integer
   */
  billingOid: number;
  /**
   * `TS_CC` (card), `TS_PAYPAL`, `TS_BANK`, `TS_WIRE`, `TS_OTHER` or `TS_INVOICE`.
   * @default undefined when the service does not say
   */
  type?: string;
  /**
   * Label; for cards it includes the masked number and expiry.
   * @default "" when the service gives none
   */
  description: string;
  /**
   * Active orders billed to it.
   * @default []
   * @integer
   */
  orderOids: number[];
}

/** getBillingMethods's result. */
export interface GetBillingMethodsResult {
  /**
   * The account's billing methods.
   * @default [] when the account has none
   */
  billingMethods: BillingMethod[];
}

/**
 * Lists the billing methods on the account, with the orders billed to each. Needs the API key.
 * Mock token: `rimuhosting:index:getBillingMethods` (inputs `{}`).
 */
export async function getBillingMethods(): Promise<GetBillingMethodsResult> {
  return callDataSource("getBillingMethods", {}, true, fetchBillingMethods);
}

/** getBillingMethods as an Output. */
export function getBillingMethodsOutput(
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetBillingMethodsResult> {
  return outputForm<Record<string, never>, GetBillingMethodsResult>(undefined, opts, () =>
    getBillingMethods(),
  );
}

async function fetchBillingMethods(client: RimuClient): Promise<GetBillingMethodsResult> {
  const response = await client.listBillingMethods();
  return {
    billingMethods: (response.billing_methods ?? []).map((method) => {
      const mapped: BillingMethod = {
        billingOid: method.billing_oid,
        description: method.description ?? "",
        orderOids: (method.orders_on_this_billing_method ?? []).map((order) => order.order_oid),
      };
      if (method.billing_method_type) mapped.type = method.billing_method_type;
      return mapped;
    }),
  };
}
