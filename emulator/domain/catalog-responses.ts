/** R13 billing methods, R14 distributions, R15 pricing plans, R17 data centres. */
import type { DemoAccount } from "../accounts.js";
import { DATA_CENTERS, toDataLocationInfo } from "../catalog/data-centers.js";
import { DISTRIBUTIONS, toDistroInfo } from "../catalog/distributions.js";
import {
  PRICING_PLANS,
  planDataCenters,
  planMonthlyFeeUsd,
  toPricingPlanInfo,
} from "../catalog/pricing-plans.js";
import type { Outcome } from "./outcome.js";
import { accountBillingMethods } from "./billing.js";
import type { EmulatorContext } from "./context.js";
import { isActive, settleExpiredCancellation } from "./lifecycle.js";
import { type Matrix, parseDcFilter, parseNumber, parseServerType } from "./matrix-filters.js";
import { toBillingInfo } from "../wire/records.js";
import { orderSlug, type Currency } from "../../contract/index.js";

export function listBillingMethods(
  ctx: EmulatorContext,
  account: DemoAccount,
): Outcome<"listBillingMethods"> {
  const now = ctx.clock.now();
  const orders = ctx.store.state.orders.filter((o) => {
    if (o.account !== account.name) return false;
    if (settleExpiredCancellation(o, now)) ctx.store.changed(o);
    return isActive(o, now);
  });
  const methods = accountBillingMethods(ctx.store, account.name);
  return {
    message: `Found ${methods.length} billing methods`,
    billing_methods: methods.map((m) => ({
      billing_oid: m.billingOid,
      billing_method_type: m.type,
      description: m.description,
      orders_on_this_billing_method: orders
        .filter((o) => o.billingOid === m.billingOid)
        .map((o) => ({
          order_oid: o.orderOid,
          domain_name: o.domainName,
          slug: orderSlug(o.orderOid, o.domainName),
          about_billing: toBillingInfo(o),
        })),
    })),
  };
}

export function listDistributions(): Outcome<"listDistributions"> {
  return {
    message: "Here are the distros we are offering on new orders.",
    distro_infos: DISTRIBUTIONS.filter((d) => d.listed).map(toDistroInfo),
  };
}

/**
 * `price_under` of 0 (the PHP client's default) means no upper bound. `currencies`: the plans priced in another
 * currency only (the planCurrencies option); having no USD price, they pass no price bound (inferred).
 */
export function listPricingPlans(
  matrix: Matrix,
  currencies: Readonly<Record<string, Currency>> = {},
): Outcome<"listPricingPlans"> {
  const serverType = parseServerType(matrix);
  const dc = parseDcFilter(matrix);
  const priceUnder = parseNumber(matrix, "price_under");
  const priceOver = parseNumber(matrix, "price_over");
  const infos = PRICING_PLANS.flatMap((plan) => {
    if (serverType && plan.serverType !== serverType) return [];
    return planDataCenters(plan)
      .filter((d) => !dc || d.code === dc)
      .filter((d) => !priceUnder || (!currencies[plan.code] && planMonthlyFeeUsd(plan, d) < priceUnder))
      .filter((d) => !priceOver || (!currencies[plan.code] && planMonthlyFeeUsd(plan, d) > priceOver))
      .map((d) => toPricingPlanInfo(plan, d, currencies[plan.code]));
  });
  return {
    message:
      "These plans are examples only.&nbsp; Most memory and disk sizes are offered and the pricing adjusts to match.&nbsp; Prices are in USD; NZ customers add GST.",
    plan_filter: {
      server_type: serverType ?? null,
      dc_location: dc ?? null,
      price_under: priceUnder ?? null,
      price_over: priceOver ?? null,
    },
    pricing_plan_infos: infos,
  };
}

export function listDataCenters(): Outcome<"listDataCenters"> {
  const enabled = DATA_CENTERS.filter((d) => d.enabled);
  return {
    message: `${enabled.length} data centers take new VPS orders.`,
    data_center_infos: enabled.map(toDataLocationInfo),
  };
}
