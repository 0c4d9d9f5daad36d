/**
 * The orders the stacks of the project's backend manage, read from their states, so that `import-file` leaves out a
 * VPS another stack adopted (`adoptOrderOid`) or imported (`pulumi import`). Such an order carries no mark of its
 * own: RimuHosting's API cannot change an order's metadata after it is placed, so only a create can mark one (the
 * creation nonce, import-document.ts), and the states are the one record of the rest. Read the way a user reads
 * them: `pulumi stack ls --all --json` lists every stack of the backend (other projects' too), and `pulumi stack
 * export` prints each one's state (no secrets are decrypted: ids and order numbers are plain). A stack of another
 * backend is not seen; docs/native-plugin.md says so.
 */
import { spawnSync } from "node:child_process";
import { orderOfVpsResource, type StateResource } from "../impl/fields/vps-type-tokens.js";
import { failureOf, inPulumiProject } from "./stack-settings.js";

export interface StackOrders {
  /** Order number → the stack whose state holds it. */
  byOrder: Map<number, string>;
  /** Why some or all states could not be read (undefined: every stack was read). */
  unread?: string;
}

/**
 * The order a state's resource holds, if it is a Vps of any front end: the native type, the dynamic `Vps`'s, or
 * the generic dynamic type with a Vps's provider or outputs (impl/fields/vps-type-tokens.ts).
 */
export function orderOfResource(
  resource: StateResource & { id?: string; custom?: boolean },
): number | undefined {
  return orderOfVpsResource(resource);
}

function pulumi(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return spawnSync("pulumi", args, { cwd, env, encoding: "utf8", timeout: 120_000, maxBuffer: 256 << 20 });
}

/** The orders the backend's stacks manage; reads nothing outside a Pulumi project (no backend to ask). */
export function stackOrders(opts: { cwd: string; env: NodeJS.ProcessEnv }): StackOrders {
  const byOrder = new Map<number, string>();
  if (!inPulumiProject(opts.cwd))
    return { byOrder, unread: "there is no Pulumi project (Pulumi.yaml) here, so no stack's state was read" };
  const listed = pulumi(["stack", "ls", "--all", "--json"], opts.cwd, opts.env);
  if (listed.status !== 0)
    return { byOrder, unread: `\`pulumi stack ls --all\` failed (${failureOf(listed)})` };
  let stacks: { name: string; resourceCount?: number }[];
  try {
    stacks = JSON.parse(listed.stdout) as typeof stacks;
  } catch {
    return { byOrder, unread: "`pulumi stack ls --all --json` printed no JSON" };
  }
  const failed: string[] = [];
  for (const { name, resourceCount } of stacks) {
    if (resourceCount === 0) continue;
    const exported = pulumi(["stack", "export", "--stack", name], opts.cwd, opts.env);
    let resources: StateResource[];
    try {
      if (exported.status !== 0) throw new Error(failureOf(exported));
      const state = JSON.parse(exported.stdout) as { deployment?: { resources?: StateResource[] } };
      resources = state.deployment?.resources ?? [];
    } catch (error) {
      failed.push(`${name} (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    for (const resource of resources) {
      const oid = orderOfResource(resource);
      if (oid !== undefined && !byOrder.has(oid)) byOrder.set(oid, name);
    }
  }
  return failed.length === 0
    ? { byOrder }
    : { byOrder, unread: `\`pulumi stack export\` failed for ${failed.join(", ")}` };
}
