/**
 * The URN the engine will give a resource, known in the program before it is registered: the provider host is
 * never told a resource's URN (docs/dynamic-providers.md §2.1), yet the engine attaches a diagnostic to a
 * resource only by its URN (§10). The Vps class passes it in previews, so the provider's warnings show on the
 * resource. It is the engine's rule: `urn:pulumi:<stack>::<project>::<type chain>::<name>`, where the type
 * chain is the parents' types from the outermost one below the stack, joined with `$`, then the resource's.
 */
import * as pulumi from "@pulumi/pulumi";

/** What the SDK keeps on every resource object (resource.js): its type and its parent. */
interface ResourceInternals {
  __pulumiType?: unknown;
  __parentResource?: unknown;
}

const STACK_TYPE = "pulumi:pulumi:Stack";

/** The URN of a resource `name` of `type` under `parent`, or undefined when a parent's type cannot be read. */
export function expectedUrn(
  name: string,
  type: string,
  parent: pulumi.Resource | undefined,
): string | undefined {
  const chain: string[] = [];
  let at = parent as ResourceInternals | undefined;
  while (at !== undefined && at.__pulumiType !== STACK_TYPE) {
    if (typeof at.__pulumiType !== "string") return undefined;
    chain.unshift(at.__pulumiType);
    at = at.__parentResource as ResourceInternals | undefined;
  }
  return `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${[...chain, type].join("$")}::${name}`;
}
