/**
 * The names the resources of the stack the VPSs will be imported into already have, so that `import-file` run again
 * on a grown account (adoption in batches) gives no new VPS one of them (`pulumi import` would refuse the name, or
 * its program would declare it twice). Read with `pulumi stack export` (the selected stack, or `--stack`'s) in the
 * user's project, as the backend's states are (impl/ownership/backend-states.ts).
 */
import { orderOfVpsResource } from "../impl/fields/vps-type-tokens.js";
import { inPulumiProject, pulumiJson, type StateResource } from "../impl/ownership/backend-states.js";

/** The names of a stack's resources, and the name of each VPS it holds, by order number. */
export interface StackNames {
  names: ReadonlySet<string>;
  byOrder: ReadonlyMap<number, string>;
}

/** A URN's last part, the resource's name (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export const nameOfUrn = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * The names of the stack's resources; none outside a project or without a stack (nothing to import into yet), and
 * `why` when the stack's state could not be read.
 */
export async function stackResourceNames(where: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stack?: string;
}): Promise<StackNames & { why?: string }> {
  const none = { names: new Set<string>(), byOrder: new Map<number, string>() };
  if (!inPulumiProject(where.cwd)) return none;
  const exported = await pulumiJson<{ deployment?: { resources?: (StateResource & { urn?: string })[] } }>(
    ["stack", "export", ...(where.stack !== undefined ? ["--stack", where.stack] : [])],
    { cwd: where.cwd, env: where.env },
  );
  if ("why" in exported) return { ...none, why: exported.why };
  const names = new Set<string>();
  const byOrder = new Map<number, string>();
  for (const resource of exported.value.deployment?.resources ?? []) {
    if (!resource.urn?.includes("::")) continue;
    const name = nameOfUrn(resource.urn);
    names.add(name);
    const oid = orderOfVpsResource(resource);
    if (oid !== undefined) byOrder.set(oid, name);
  }
  return { names, byOrder };
}
