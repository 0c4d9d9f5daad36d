/**
 * What every data source shares: how it is called (through the program's mocks in a unit test, else
 * with a client for the program's configuration) and its Output form.
 *
 * The data sources run in the program process (nothing is serialized), so they read the stack config
 * there: `rimuhosting:apiKey` and `rimuhosting:baseUrl`, then the environment.
 *
 * Nothing here loads the HTTP client at import time: it is required on the first real call. A mocked
 * unit test then never loads it, and jest, which cannot load got (ESM-only) without a transform, can
 * run a user's test of a program that imports this package.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import { RimuConfigError } from "../client/errors.js";
import { CONFIG_NAMESPACE, missingApiKeyMessage, resolveConfig } from "../config.js";

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

/**
 * True under `pulumi.runtime.setMocks`. @pulumi/pulumi (3.x) has no public test for it: setMocks
 * installs a MockMonitor that keeps the user's mocks as `mocks`, and a real monitor is a gRPC client
 * without one. Duck-typed rather than `instanceof` so that it holds even if the program and this
 * package resolve different copies of @pulumi/pulumi.
 */
export function isMocked(): boolean {
  const monitor = pulumi.runtime.getMonitor() as { mocks?: { call?: unknown } } | undefined;
  return typeof monitor?.mocks?.call === "function";
}

/**
 * Runs a data source. Under mocks, the program's `call()` answers it (token `rimuhosting:index:<name>`,
 * inputs = the args as given) and nothing reaches the network. Otherwise `fetch` runs with a client for
 * the program's configuration; `needsApiKey` makes a missing key a clear error before any request.
 */
export async function callDataSource<A extends object, R>(
  name: DataSourceName,
  args: A,
  needsApiKey: boolean,
  fetch: (client: RimuClient, args: A) => Promise<R>,
): Promise<R> {
  if (isMocked()) return (await pulumi.runtime.invoke(DATA_SOURCE_TOKENS[name], args)) as R;
  return fetch(programClient(name, needsApiKey), args);
}

/** A client for the program's configuration; `what` names the data source in a missing-key error. */
function programClient(what: string, needsApiKey: boolean): RimuClient {
  const config = new pulumi.Config(CONFIG_NAMESPACE);
  const resolved = resolveConfig({ apiKey: config.get("apiKey"), baseUrl: config.get("baseUrl") });
  if (needsApiKey && resolved.apiKey === undefined) throw new RimuConfigError(missingApiKeyMessage(what));
  const runtime = require("../impl/runtime-config.js") as typeof import("../impl/runtime-config.js");
  return runtime.cachedClient(resolved);
}

/**
 * The provider's wire-to-camelCase helpers (an order's fields, `compact`), shared with the Vps outputs.
 * Required on the first real call rather than imported: they load the HTTP client (see the top).
 */
export function wireMapping(): typeof import("../impl/vps-outputs.js") {
  return require("../impl/vps-outputs.js") as typeof import("../impl/vps-outputs.js");
}

/** Options of the Output forms: like Pulumi's invokes, they can wait for other resources. */
export type DataSourceOutputOptions = Pick<pulumi.InvokeOutputOptions, "dependsOn">;

/** Every field of `T` as a pulumi.Input, for the Output forms' args. */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/**
 * The Output form of a data source: resolves the args (and any `dependsOn`), then calls the direct
 * form. Secretness and dependencies of the args carry over to the result.
 */
export function outputForm<A, R>(
  args: Inputs<A> | undefined,
  opts: DataSourceOutputOptions | undefined,
  direct: (args: A) => Promise<R>,
): pulumi.Output<R> {
  const ready = pulumi.output(opts?.dependsOn ?? []).apply((deps) => {
    const list = (Array.isArray(deps) ? deps : [deps]) as pulumi.Resource[];
    return pulumi.all(list.map((dep) => (pulumi.CustomResource.isInstance(dep) ? dep.id : dep.urn)));
  });
  return pulumi
    .all([pulumi.output(args ?? {}), ready])
    .apply(([resolved]) => direct(resolved as unknown as A)) as pulumi.Output<R>;
}

/**
 * Checks the one argument of the data sources that read one order (getOrder, getVpsStatus,
 * getDataTransferUsage): a clear error unless `args.orderOid` is a positive whole number. Runs under
 * mocks too, so a unit test sees the same error as a real run.
 */
export function checkOrderOid(what: string, args: { orderOid: number } | undefined): void {
  const value: unknown = args?.orderOid;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(
      `${what}: orderOid must be an order oid (a positive whole number, e.g. a Vps's orderOid), ` +
        `not ${typeof value === "string" ? JSON.stringify(value) : String(value)}.`,
    );
  }
}
