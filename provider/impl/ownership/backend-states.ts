/**
 * Which stack of the backend holds which order: the one reader of the backend's states, for both jobs that need
 * them. `import-file` (provider/adopt/cli.ts) leaves out a VPS another stack adopted (`adoptOrderOid`) or imported
 * (`pulumi import`): such an order carries no mark of its own (RimuHosting's API cannot change an order's metadata
 * after it is placed, so only a create can mark one), and the states are the one record of it. The provider takes
 * back a run's own order left by a killed run (it carries this resource's creation token, and the killed run's
 * nonce, which reached no state) only when no state holds it, and never one another stack's state holds
 * (take-back.ts; docs/cost.md, I4; docs/troubleshooting.md, "A run was killed").
 *
 * A state records a VPS under any of the types of impl/fields/vps-type-tokens.ts (the native plugin's, the dynamic
 * `Vps`'s, the generic dynamic type), and only such a resource holds an order: its order number, the order it
 * adopts, or (a create of that state, pending or done) the order's creation nonce.
 *
 * Neither caller is told where the states are: the command runs in the user's project, and the engine starts the
 * provider in the program's directory with the CLI's environment. So both ask the `pulumi` CLI as a user would:
 * `pulumi stack ls --all --json` lists the backend's stacks (every project's), and `pulumi stack export` prints each
 * one's state (no secret is decrypted: ids, order numbers and nonces are plain). What this can know: the states of
 * that backend as they are now. What it cannot: a stack of another backend (docs/native-plugin.md says so). When the
 * states cannot be read, `unread` says why: import-file says so, and nothing is taken back.
 */
import { execFile } from "node:child_process";
import {
  BACKEND_PARALLEL_VARIABLE,
  backendReadEnv,
  textWithoutUrlCredentials,
} from "../engine/backend-cli.js";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { AboutOrder } from "../../../contract/index.js";
import { isVpsResource, type StateResource as VpsStateResource } from "../fields/vps-type-tokens.js";
import { creationNonceOf } from "./order-marks.js";

/** One resource of a state, as `pulumi stack export` prints it (only what tells which order it holds). */
export interface StateResource extends VpsStateResource {
  id?: string;
  custom?: boolean;
}

/**
 * The backend's states: each stack's resources and the creates its engine began and never finished (`pending`: the
 * resources of its `pending_operations` of type `creating`, with the inputs check returned, which carry the creation
 * nonce), and why some could not be read (undefined: all were).
 */
export interface BackendStates {
  readonly stacks: readonly {
    stack: string;
    resources: readonly StateResource[];
    pending?: readonly StateResource[];
  }[];
  unread?: string;
}

/** One pending operation of a state, as `pulumi stack export` prints it. */
interface PendingOperation {
  type?: string;
  resource?: StateResource;
}

/** The resources of the creates a state's engine began and never finished (a killed `up`). */
function pendingCreates(operations: readonly PendingOperation[] | undefined): StateResource[] {
  return (operations ?? []).flatMap((op) => (op.type === "creating" && op.resource ? [op.resource] : []));
}

/**
 * The stack whose engine began the create that placed `order` and never finished it: a pending create of its state
 * carries the order's creation nonce. The engine's own record that the order is that stack's killed create.
 */
export function pendingCreateOf(states: BackendStates, order: AboutOrder): string | undefined {
  const nonce = creationNonceOf(order);
  if (nonce === undefined) return undefined;
  return states.stacks.find(({ pending }) =>
    (pending ?? []).some((r) => isVpsResource(r) && r.inputs?.__creationNonce === nonce),
  )?.stack;
}

/** The order numbers a state's resource holds: none unless it is a VPS; its order's, and the one it adopts. */
function ordersOf(resource: StateResource): number[] {
  if (!isVpsResource(resource)) return [];
  const held = [resource.outputs?.orderOid, resource.inputs?.adoptOrderOid, resource.outputs?.adoptOrderOid];
  return held.filter((oid): oid is number => typeof oid === "number");
}

/** Order number → the first stack whose state holds it (import-file names that stack). */
export function ordersByStack(states: BackendStates): Map<number, string> {
  const byOrder = new Map<number, string>();
  for (const { stack, resources } of states.stacks)
    for (const resource of resources)
      for (const oid of ordersOf(resource)) if (!byOrder.has(oid)) byOrder.set(oid, stack);
  return byOrder;
}

/**
 * The stack whose state holds `order`, if any: a VPS that records its order number or adopts it. Held means the order
 * number: a creation nonce names the resource, not the order (a replacement's new order carries the nonce of the VPS
 * it replaces, which records its own number). Only a VPS of the state that records no order yet (a create whose
 * outcome was lost: id `pending-…`) holds the order carrying its nonce: no other order can be that resource's.
 */
export function holderOf(states: BackendStates, order: AboutOrder): string | undefined {
  const { byOrder, byNonce } = holdersIn(states);
  const nonce = creationNonceOf(order);
  const first = Math.min(
    byOrder.get(order.order_oid) ?? Infinity,
    nonce === undefined ? Infinity : (byNonce.get(nonce) ?? Infinity),
  );
  return states.stacks[first]?.stack;
}

/** The index of the first stack holding each order number, and each creation nonce of a VPS that records no order. */
interface Holders {
  byOrder: Map<number, number>;
  byNonce: Map<unknown, number>;
}

/**
 * holderOf's index of `states`, made once per states read: a destroy's sweep and the checks of its deletes ask it of
 * every order of the account, and a scan of every state's resources per order grew as the square of the fleet (2,000
 * VPSs: 0.17 s of the host's CPU). The states are not changed once read (BackendStates is read-only).
 */
function holdersIn(states: BackendStates): Holders {
  let holders = HOLDERS.get(states);
  if (holders !== undefined) return holders;
  holders = { byOrder: new Map(), byNonce: new Map() };
  states.stacks.forEach(({ resources }, index) => {
    for (const r of resources) {
      const numbers = ordersOf(r);
      for (const oid of numbers) if (!holders.byOrder.has(oid)) holders.byOrder.set(oid, index);
      if (numbers.length > 0 || !isVpsResource(r)) continue;
      for (const nonce of [r.outputs?.__creationNonce, r.inputs?.__creationNonce])
        if (nonce !== undefined && !holders.byNonce.has(nonce)) holders.byNonce.set(nonce, index);
    }
  });
  HOLDERS.set(states, holders);
  return holders;
}

const HOLDERS = new WeakMap<BackendStates, Holders>();

/** True when `dir` or a directory above it holds a Pulumi project (where the CLI looks for one). */
export function inPulumiProject(dir: string): boolean {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (["Pulumi.yaml", "Pulumi.yml"].some((name) => existsSync(join(at, name)))) return true;
    if (dirname(at) === at) return false;
  }
}

const firstLine = (text: string): string => text.trim().split("\n")[0]?.slice(0, 300) ?? "";

/** How long one `pulumi` read may take: a backend's listing of 1,000 stacks takes seconds, one that hangs forever. */
const READ_LIMIT_MS = 60_000;

/**
 * What the CLI says when its read of a file backend met a file's `.attrs` sidecar emptied: Go's io.EOF from decoding
 * it (`error: EOF`, `failed to load checkpoint: EOF`). The engine of a running command rewrites a sidecar in place
 * (truncated, then written) before each save of the file, so a read at that moment fails so (a destroy's sweep
 * failed once in ~18 on a file backend, issue 92); read again a moment later, it succeeds. A save torn by a kill
 * leaves the sidecar empty for good: every reading fails, and the last one's why is said (troubleshooting.md, "A run
 * killed while saving").
 */
const TORN_READ = /\bEOF\b/;

/** The pauses before each reading again of a read that met a sidecar being written (3 readings in all, ≤ 0.8 s). */
const TORN_READ_PAUSES_MS = [200, 600];

/**
 * The JSON `pulumi <args>` prints in `cwd`, or why there is none (a string: the host loads no bare Error). Run with
 * one reader of a self-managed backend at a time unless the user chose (engine/backend-cli.ts: on PostgreSQL the
 * CLI's listing of 4 or more stacks never finishes otherwise), and ended after READ_LIMIT_MS, saying so. A read
 * that met the engine's own write of a sidecar (TORN_READ) is read again, at most twice.
 */
export async function pulumiJson<T>(
  args: string[],
  where: { cwd: string; env?: NodeJS.ProcessEnv },
  tornIf?: TornValue,
): Promise<{ value: T } | { why: string }> {
  for (const pause of TORN_READ_PAUSES_MS) {
    const read = await pulumiJsonOnce<T>(args, where, tornIf);
    if (!("torn" in read)) return read;
    await new Promise((resumed) => setTimeout(resumed, pause));
  }
  const last = await pulumiJsonOnce<T>(args, where, tornIf);
  return "torn" in last ? { why: last.why } : last;
}

/** Why a value a command printed is a torn read (read again, like TORN_READ), or undefined when it is whole. */
type TornValue = (value: unknown) => string | undefined;

/**
 * `stack`'s tags (`pulumi stack tag ls --json`). The CLI prints `null`, and exits 0, when the stack's tags file
 * `<stack>.pulumi-tags` has an empty sidecar (a stack with no tags prints `{}`): a `tag set` being saved at that
 * instant (read again, like a torn checkpoint), or one a kill tore, which stays so and is named with its repair.
 */
export function readStackTags(
  stack: string,
  where: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ value: Record<string, string> } | { why: string }> {
  return pulumiJson<Record<string, string>>(
    ["stack", "tag", "ls", "--json", "--stack", stack],
    where,
    (value) =>
      value === null
        ? `\`pulumi stack tag ls --stack ${stack}\` printed null: the stack's tags file was torn by a killed run (its ` +
          `sidecar <stack>.pulumi-tags.attrs is empty); on a file backend remove it (\`find <backend directory>/.pulumi ` +
          `-name '*.attrs' -empty -delete\`, docs/troubleshooting.md: "A run killed while saving")`
        : undefined,
  );
}

const pulumiJsonOnce = <T>(
  args: string[],
  where: { cwd: string; env?: NodeJS.ProcessEnv },
  tornIf?: TornValue,
): Promise<{ value: T } | { why: string; torn?: true }> =>
  new Promise((done) =>
    execFile(
      "pulumi",
      args,
      {
        cwd: where.cwd,
        env: backendReadEnv(where.env ?? process.env),
        timeout: READ_LIMIT_MS,
        maxBuffer: 256 << 20,
      },
      (error, stdout, stderr) => {
        if (error && (error as { killed?: boolean }).killed)
          return done({
            why:
              `\`pulumi ${args.join(" ")}\` did not finish within ${READ_LIMIT_MS / 1000} s (on a PostgreSQL ` +
              `backend, with ${BACKEND_PARALLEL_VARIABLE} at ${backendReadEnv(where.env ?? process.env)[BACKEND_PARALLEL_VARIABLE]}: ` +
              `set it to 1)`,
          });
        // The CLI's errors quote the backend's URL with its password: masked (engine/backend-cli.ts).
        if (error) {
          const why = textWithoutUrlCredentials(
            `\`pulumi ${args.join(" ")}\` failed: ${firstLine(stderr) || error.message}`,
          );
          return done(TORN_READ.test(firstLine(stderr)) ? { why, torn: true } : { why });
        }
        let value: unknown;
        try {
          value = JSON.parse(stdout);
        } catch {
          return done({ why: `\`pulumi ${args.join(" ")}\` printed no JSON` });
        }
        const torn = tornIf?.(value);
        done(torn === undefined ? { value: value as T } : { why: torn, torn: true });
      },
    ),
  );

/**
 * The states of the backend of the project in `cwd` (or above), read through the `pulumi` CLI with `env` (default:
 * this process's); reads nothing outside a Pulumi project (no backend to ask). A stack the listing counts no resource
 * of is not exported, unless it is `always`: a destroyed stack keeps the pending creates of a killed run (the engine
 * carries them into every later state), the one record that proves their orders its own.
 */
export async function readBackendStates(
  where: { cwd?: string; env?: NodeJS.ProcessEnv; always?: string } = {},
): Promise<BackendStates> {
  const cwd = where.cwd ?? process.cwd();
  if (!inPulumiProject(cwd))
    return {
      stacks: [],
      unread: "there is no Pulumi project (Pulumi.yaml) here, so no stack's state was read",
    };
  const listed = await pulumiJson<{ name: string; resourceCount?: number }[]>(
    ["stack", "ls", "--all", "--json"],
    {
      cwd,
      env: where.env,
    },
  );
  if ("why" in listed) return { stacks: [], unread: listed.why };
  const stacks: BackendStates["stacks"][number][] = [];
  const failed: string[] = [];
  for (const { name, resourceCount } of listed.value) {
    const always = where.always !== undefined && (name === where.always || name.endsWith(`/${where.always}`));
    if (resourceCount === 0 && !always) continue;
    const state = await pulumiJson<{
      deployment?: { resources?: StateResource[]; pending_operations?: PendingOperation[] };
    }>(["stack", "export", "--stack", name], { cwd, env: where.env });
    if ("why" in state) failed.push(`${name} (${state.why})`);
    else
      stacks.push({
        stack: name,
        resources: state.value.deployment?.resources ?? [],
        pending: pendingCreates(state.value.deployment?.pending_operations),
      });
  }
  return failed.length === 0
    ? { stacks }
    : { stacks, unread: `the state of ${failed.join(", ")} could not be read` };
}
