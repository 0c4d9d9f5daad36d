/**
 * The data sources: one getX / getXOutput pair per file, each with its types and its mapping from the
 * wire. Under `pulumi.runtime.setMocks` each is an invoke with the token `rimuhosting:index:getX`.
 */
export * from "./get-pricing-plans.js";
export * from "./get-distributions.js";
export * from "./get-billing-methods.js";
export * from "./get-orders.js";
export {
  getOrder,
  getOrderOutput,
  type Order,
  type GetOrderArgs,
  type GetOrderResult,
  type GetOrderOutputArgs,
} from "./get-order.js";
export * from "./get-vps-status.js";
export * from "./get-data-transfer-usage.js";
export * from "./get-data-centers.js";
export * from "./get-price-quote.js";
export { DATA_SOURCE_TOKENS, type DataSourceName } from "./tokens.js";
export { DataSourceError } from "./errors.js";
export type { DataSourceOutputOptions, Inputs } from "./output-form.js";
