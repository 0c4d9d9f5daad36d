/** The data sources' names and invoke tokens: what a unit test's mocks see. */
/**
 * The token of each data source: what a unit test's `pulumi.runtime.setMocks` `call()` receives as
 * `args.token` (with the data source's args as `args.inputs`). The Output forms use the same tokens.
 */
export const DATA_SOURCE_TOKENS = {
  getPricingPlans: "rimuhosting:index:getPricingPlans",
  getDistributions: "rimuhosting:index:getDistributions",
  getBillingMethods: "rimuhosting:index:getBillingMethods",
  getOrders: "rimuhosting:index:getOrders",
  getOrder: "rimuhosting:index:getOrder",
  getVpsStatus: "rimuhosting:index:getVpsStatus",
  getDataTransferUsage: "rimuhosting:index:getDataTransferUsage",
  getDataCenters: "rimuhosting:index:getDataCenters",
  getPriceQuote: "rimuhosting:index:getPriceQuote",
} as const;

/** The name of a data source, e.g. `getPricingPlans`. */
export type DataSourceName = keyof typeof DATA_SOURCE_TOKENS;
