/** The data sources: one getX / getXOutput pair per file. */
export * from "./get-pricing-plans.js";
export * from "./get-distributions.js";
export * from "./get-billing-methods.js";
export * from "./get-orders.js";
export * from "./get-order.js";
export * from "./get-vps-status.js";
export * from "./get-data-transfer-usage.js";
export * from "./get-data-centers.js";
export * from "./get-price-quote.js";
export type { DataSourceOutputOptions } from "./program-client.js";
