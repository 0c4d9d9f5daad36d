/**
 * The client the data sources use. They run in the program process (nothing is serialized), so they
 * read the stack config there: `rimuhosting:apiKey` and `rimuhosting:baseUrl`, then the environment.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import { RimuConfigError } from "../client/errors.js";
import { CONFIG_NAMESPACE, missingApiKeyMessage, resolveConfig } from "../config.js";
import { cachedClient } from "../impl/runtime-config.js";

/** A client for the program's configuration; `what` names the data source in a missing-key error. */
export function programClient(what: string, needsApiKey: boolean): RimuClient {
  const config = new pulumi.Config(CONFIG_NAMESPACE);
  const resolved = resolveConfig({ apiKey: config.get("apiKey"), baseUrl: config.get("baseUrl") });
  if (needsApiKey && resolved.apiKey === undefined) throw new RimuConfigError(missingApiKeyMessage(what));
  return cachedClient(resolved);
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
 * The keyed client of the data sources that read one order (getOrder, getVpsStatus,
 * getDataTransferUsage), after checking their one argument: a clear error unless `args.orderOid` is a
 * positive whole number.
 */
export function orderClient(what: string, args: { orderOid: number } | undefined): RimuClient {
  const value: unknown = args?.orderOid;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(
      `${what}: orderOid must be an order oid (a positive whole number, e.g. a Vps's orderOid), ` +
        `not ${typeof value === "string" ? JSON.stringify(value) : String(value)}.`,
    );
  }
  return programClient(what, true);
}
