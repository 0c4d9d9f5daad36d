/**
 * The data sources as provider functions (`rimuhosting:index:getPricingPlans`, …): Invoke runs the same
 * functions TypeScript programs call (provider/data-sources), with the provider's configuration instead of
 * the program's, so other languages get the same results and the same errors.
 */
import { RimuConfigError } from "../client/errors.js";
import type { RimuClient } from "../client/index.js";
import * as dataSources from "../data-sources/index.js";
import { withClientSource } from "../data-sources/program-client.js";
import { DATA_SOURCE_TOKENS, type DataSourceName } from "../data-sources/tokens.js";
import { cachedClient, clientFor, configuredBaseUrl, hasApiKey } from "../impl/lifecycle/runtime-config.js";
import { missingApiKey } from "../impl/engine/settings-source.js";
import { currentRun } from "../impl/engine/run-context.js";
import { plainBag, type Bag } from "./protocol.js";

type DataSource = (args: Bag) => Promise<unknown>;

const BY_TOKEN = new Map<string, DataSource>(
  (Object.entries(DATA_SOURCE_TOKENS) as [DataSourceName, string][]).map(([name, token]) => [
    token,
    dataSources[name] as unknown as DataSource,
  ]),
);

/** The function tokens this provider serves. */
const FUNCTION_TOKENS: readonly string[] = [...BY_TOKEN.keys()];

/** A data source's client from the provider's configuration (Configure), for the run this process serves. */
function providerClient(what: string, needsApiKey: boolean): RimuClient {
  // A data source only looks: a silent service fails it after one wait (runtime-config.ts, cachedClient).
  // Invoke is an engine call: its run is the one this process serves, read here and handed down.
  const run = currentRun();
  if (hasApiKey(run)) return clientFor(run, what, undefined, { silentReads: false });
  if (needsApiKey) throw new RimuConfigError(missingApiKey(what));
  return cachedClient(
    { baseUrl: configuredBaseUrl(run), silentReads: false },
    { ...run.settings, tuning: run.tuning },
  );
}

/**
 * Runs the function `token` with `args`; throws its one clean error (a DataSourceError). `configured`: the provider
 * was configured (Configure), and the data source's clients are the provider's; else the program's config is read.
 */
export async function invoke(token: string, args: Bag, configured: boolean): Promise<Bag> {
  const dataSource = BY_TOKEN.get(token);
  if (!dataSource) {
    throw new Error(`rimuhosting has no function ${token}; its functions are ${FUNCTION_TOKENS.join(", ")}.`);
  }
  const call = () => dataSource(plainBag(args));
  return (await (configured ? withClientSource(providerClient, call) : call())) as Bag;
}
