/** The Output form every data source has besides its direct form. */
import * as pulumi from "@pulumi/pulumi";

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
