/**
 * Which state of the stack's backend holds an order, read from inside the provider, so that a run's own order left
 * by a killed run (it carries this resource's creation token, and the killed run's nonce, which reached no state) is
 * taken back by the next `pulumi up` of the stack, and an order another stack's state holds never is (docs/cost.md,
 * I4; docs/troubleshooting.md, "A run was killed").
 *
 * The provider is not told where the states are: the engine starts it in the program's directory with the CLI's
 * environment, so it asks the `pulumi` CLI as a user would, in that directory: `pulumi stack ls --all --json` lists
 * the backend's stacks (every project's), and `pulumi stack export` prints each one's state (no secret is decrypted:
 * ids, order numbers and nonces are plain). What this can know: the states of that backend as they are now. What it
 * cannot: a stack of another backend. When the states cannot be read, nothing is taken back (the caller refuses as it
 * did before, saying why). Read once per run, and only when an order of another state carries a resource's token.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AboutOrder } from "../../../contract/index.js";
import { creationNonceOf } from "./creation-token.js";
import { runState, type RunContext } from "../engine/run-context.js";

/** One resource of a state, as `pulumi stack export` prints it (only what tells which order it holds). */
export interface StateResource {
  type?: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The backend's states: each stack's resources, and why some could not be read (undefined: all were). */
export interface BackendStates {
  stacks: { stack: string; resources: readonly StateResource[] }[];
  unread?: string;
}

/**
 * The stack whose state holds `order`, if any: a resource that records its order number, adopted it, or carries its
 * creation nonce (a create of that state, pending or done).
 */
export function holderOf(states: BackendStates, order: AboutOrder): string | undefined {
  const oid = order.order_oid;
  const nonce = creationNonceOf(order);
  const holds = (r: StateResource): boolean => {
    const outputs = r.outputs ?? {};
    const inputs = r.inputs ?? {};
    if (outputs.orderOid === oid || inputs.adoptOrderOid === oid || outputs.adoptOrderOid === oid)
      return true;
    return nonce !== undefined && (outputs.__creationNonce === nonce || inputs.__creationNonce === nonce);
  };
  return states.stacks.find(({ resources }) => resources.some(holds))?.stack;
}

/** `pulumi <args>` in `cwd`: its output, or why it failed (a string: the host loads no bare Error). */
const run = (args: string[], cwd: string): Promise<{ stdout: string } | { why: string }> =>
  new Promise((resolve) =>
    execFile("pulumi", args, { cwd, timeout: 120_000, maxBuffer: 256 << 20 }, (error, stdout, stderr) =>
      resolve(
        error
          ? { why: `\`pulumi ${args.join(" ")}\` failed: ${firstLine(stderr) || error.message}` }
          : { stdout },
      ),
    ),
  );

/** The JSON `pulumi <args>` prints, or why there is none. */
async function pulumiJson<T>(args: string[], cwd: string): Promise<{ value: T } | { why: string }> {
  const ran = await run(args, cwd);
  if ("why" in ran) return ran;
  try {
    return { value: JSON.parse(ran.stdout) as T };
  } catch {
    return { why: `\`pulumi ${args.join(" ")}\` printed no JSON` };
  }
}

const firstLine = (text: string): string => text.trim().split("\n")[0]?.slice(0, 300) ?? "";

/** The states of the backend of the project in `cwd`, read through the `pulumi` CLI. */
export async function readBackendStates(cwd: string = process.cwd()): Promise<BackendStates> {
  if (!existsSync(join(cwd, "Pulumi.yaml")) && !existsSync(join(cwd, "Pulumi.yml")))
    return {
      stacks: [],
      unread: `the provider runs outside a Pulumi project (${cwd}), so no state was read`,
    };
  const listed = await pulumiJson<{ name: string; resourceCount?: number }[]>(
    ["stack", "ls", "--all", "--json"],
    cwd,
  );
  if ("why" in listed) return { stacks: [], unread: listed.why };
  const stacks: BackendStates["stacks"] = [];
  const failed: string[] = [];
  for (const { name, resourceCount } of listed.value) {
    if (resourceCount === 0) continue;
    const state = await pulumiJson<{ deployment?: { resources?: StateResource[] } }>(
      ["stack", "export", "--stack", name],
      cwd,
    );
    if ("why" in state) failed.push(`${name} (${state.why})`);
    else stacks.push({ stack: name, resources: state.value.deployment?.resources ?? [] });
  }
  return failed.length === 0
    ? { stacks }
    : { stacks, unread: `the state of ${failed.join(", ")} could not be read` };
}

/** Test seam: where the backend's states come from (in-process tests have no backend). */
let reader: () => Promise<BackendStates> = () => readBackendStates();
export function setBackendStatesReader(read: (() => Promise<BackendStates>) | undefined): void {
  reader = read ?? (() => readBackendStates());
}

const STATES = runState("the backend's states, read once", () => ({
  read: undefined as Promise<BackendStates> | undefined,
}));

/** The backend's states, read once in `context`'s run. */
export function backendStates(context: RunContext): Promise<BackendStates> {
  const held = context.get(STATES);
  return (held.read ??= reader().catch((error: unknown) => ({
    stacks: [],
    unread: error instanceof Error ? error.message : String(error),
  })));
}
