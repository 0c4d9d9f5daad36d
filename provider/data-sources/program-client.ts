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

/** Throws a clear error unless `value` is a positive whole number (an order oid). */
export function assertOrderOid(what: string, value: unknown): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(
      `${what}: orderOid must be an order oid (a positive whole number, e.g. a Vps's orderOid).`,
    );
  }
}
