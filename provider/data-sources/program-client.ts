/**
 * How every data source is called: through the program's mocks in a unit test, else with a client
 * for the program's configuration.
 *
 * The data sources run in the program process (nothing is serialized), so they read the stack config
 * there: `rimuhosting:apiKey` and `rimuhosting:baseUrl`, the retries and pace (`rimuhosting:retryLimit`,
 * `rimuhosting:requestsPerSecond`), each else from its environment variable.
 *
 * Nothing here loads the HTTP client at import time: it is required on the first real call. A mocked
 * unit test then never loads it, and jest, which cannot load got (ESM-only) without a transform, can
 * run a user's test of a program that imports this package.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import { RimuConfigError } from "../client/errors.js";
import { CONFIG_NAMESPACE, missingApiKeyMessage, resolveConfig } from "../config.js";
import { VPS_ERROR_CODES } from "../impl/engine/errors.js";
import { DataSourceError, dataSourceError } from "./errors.js";
import { DATA_SOURCE_TOKENS, type DataSourceName } from "./tokens.js";

/**
 * True under `pulumi.runtime.setMocks`. @pulumi/pulumi (3.x) has no public test for it: setMocks
 * installs a MockMonitor that keeps the user's mocks as `mocks`, and a real monitor is a gRPC client
 * without one. Duck-typed rather than `instanceof` so that it holds even if the program and this
 * package resolve different copies of @pulumi/pulumi.
 */
function isMocked(): boolean {
  const monitor = pulumi.runtime.getMonitor() as { mocks?: { call?: unknown } } | undefined;
  return typeof monitor?.mocks?.call === "function";
}

/**
 * Runs a data source. Under mocks, the program's `call()` answers it (token `rimuhosting:index:<name>`,
 * inputs = the args as given) and nothing reaches the network. Otherwise `fetch` runs with a client for
 * the program's configuration; `needsApiKey` makes a missing key a clear error before any request.
 * A real call's failure is one clean DataSourceError (errors.ts); a mock's error passes as thrown.
 */
export async function callDataSource<A extends object, R>(
  name: DataSourceName,
  args: A,
  needsApiKey: boolean,
  fetch: (client: RimuClient, args: A) => Promise<R>,
): Promise<R> {
  if (isMocked()) return (await pulumi.runtime.invoke(DATA_SOURCE_TOKENS[name], args)) as R;
  try {
    return await fetch((providerClients.getStore() ?? programClient)(name, needsApiKey), args);
  } catch (error) {
    quietLateHandledRejections();
    throw dataSourceError(name, error);
  }
}

/**
 * A data source that fails before any request (no API key, a bad argument) rejects within the turn
 * that loaded the program, before the SDK awaits the program's exports: Node reports the rejection
 * as unhandled (the SDK prints the error's one line then), and when the SDK's await reaches it, Node
 * adds a `PromiseRejectionHandledWarning` per promise of the chain, printed before that line. Node
 * prints that warning only when nothing listens for `rejectionHandled`; once a data source has failed,
 * this package listens (and does nothing): the failure is reported by the SDK, the warning adds only
 * noise. Nothing else changes: unhandled rejections are still reported and still fail the program.
 */
function quietLateHandledRejections(): void {
  // Once per process: the process's own list of listeners says whether it was added (no flag of this module's).
  if (!process.listeners("rejectionHandled").includes(ignoreHandledRejection))
    process.on("rejectionHandled", ignoreHandledRejection);
}

/** The listener quietLateHandledRejections() adds: it does nothing, and its presence quiets Node's warning. */
const ignoreHandledRejection = (): void => undefined;

/**
 * Where a real call gets its client: the program's configuration, or, inside the native provider plugin,
 * which serves these same functions to other languages, the provider's (provider/native/functions.ts).
 */
type ClientSource = (what: string, needsApiKey: boolean) => RimuClient;

/** The source of the calls `withClientSource` runs (the plugin's Invoke); none: the program's configuration. */
const providerClients = new AsyncLocalStorage<ClientSource>();

/** Runs `call` (a data source) with its real calls' clients from `source` (the native plugin's Invoke). */
export function withClientSource<T>(source: ClientSource, call: () => Promise<T>): Promise<T> {
  return providerClients.run(source, call);
}

/** A client for the program's configuration; `what` names the data source in a missing-key error. */
function programClient(what: string, needsApiKey: boolean): RimuClient {
  const config = new pulumi.Config(CONFIG_NAMESPACE);
  const resolved = resolveConfig({ apiKey: config.get("apiKey"), baseUrl: config.get("baseUrl") });
  if (needsApiKey && resolved.apiKey === undefined) throw new RimuConfigError(missingApiKeyMessage(what));
  const runtime =
    require("../impl/lifecycle/runtime-config.js") as typeof import("../impl/lifecycle/runtime-config.js");
  // The retries and pace (`rimuhosting:retryLimit`, RIMUHOSTING_RETRYLIMIT, …), read as the Vps reads them.
  const retry = runtime.programRetrySettings({
    config: { get: (key) => config.get(key.replace(`${CONFIG_NAMESPACE}:`, "")) },
  });
  // A data source only looks: a silent service fails it after one wait (runtime-config.ts, cachedClient).
  return runtime.cachedClient({ ...resolved, silentReads: false }, { retry });
}

/**
 * Runs a data source that reads one order (getOrder, getVpsStatus, getDataTransferUsage): needs the API
 * key, and first checks its one argument, also under mocks, so a unit test sees the same error as a real
 * run: a clear error unless `args.orderOid` is a positive whole number.
 */
export async function callOrderDataSource<R>(
  name: DataSourceName,
  args: { orderOid: number },
  fetch: (client: RimuClient, args: { orderOid: number }) => Promise<R>,
): Promise<R> {
  checkOrderOid(name, args);
  return callDataSource(name, args, true, fetch);
}

function checkOrderOid(what: string, args: { orderOid: number } | undefined): void {
  const value: unknown = args?.orderOid;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    if (!isMocked()) quietLateHandledRejections();
    throw new DataSourceError(
      what,
      VPS_ERROR_CODES.invalidInput,
      `orderOid must be an order oid (a positive whole number, e.g. a Vps's orderOid), ` +
        `not ${typeof value === "string" ? JSON.stringify(value) : String(value)}`,
      undefined,
      "orderOid",
    );
  }
}
