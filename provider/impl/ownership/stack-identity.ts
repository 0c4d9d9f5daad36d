/**
 * The stack identity: the mark every new order carries (STACK_IDENTITY_KEY) that no other stack can carry, so that the
 * provider cancels or takes back an order only when it is provably its own stack's (take-back.ts, stack-strays.ts;
 * docs/troubleshooting.md, "A run was killed").
 *
 * The project and stack names are not enough: every team has a `dev`, and two colleagues with a backend each (a
 * `file://~` each, two buckets) have two stacks of the same names on one account. So the mark hashes five things:
 *
 * - the backend, as `pulumi whoami --json` prints its URL (the one source the engine and the CLI agree on; the engine
 *   tells a provider the project and stack, never the backend), credentials stripped before hashing (a PostgreSQL
 *   URL may hold a password) and never printed; a file backend's path resolved (`~`, relative paths), since two
 *   users' `file://~` are two backends;
 * - the project and the stack;
 * - the stack instance's own random key material, made at `pulumi stack init`: the passphrase provider's
 *   `encryptionsalt`, or a key service's (KMS, Vault, Azure Key Vault) `encryptedkey`. A stack re-created after
 *   `pulumi stack rm` gets new material, so its orders are not the removed stack's. It is read from the stack's
 *   settings file (`Pulumi.<stack>.yaml` beside Pulumi.yaml: a file read, present from `stack init` on, before any
 *   state exists, even on a first `up` with PULUMI_SKIP_CHECKPOINTS), else from the state's secrets provider
 *   (`pulumi stack export`, which holds the same value once an operation wrote the state). Both are the same on the
 *   file, PostgreSQL and S3 backends (one implementation serves them). Pulumi Cloud's own key (secrets provider
 *   `service`) has no such material, and `whoami`'s URL there names no organization: such a stack has no identity
 *   (identityOfParts), so its orders carry no mark and nothing is taken back or cancelled by proof of one;
 * - the stack's own tag (STACK_TAG, `rimuhosting:instance`): 128 random bits the provider sets with
 *   `pulumi stack tag set` when it is about to mark an order of a stack that has none, and reads with
 *   `pulumi stack tag ls --json`. The three parts above do not tell every two stacks apart: a committed
 *   `Pulumi.<stack>.yaml` gives its `encryptionsalt` to every `pulumi stack init` of that name (tried with CLI
 *   v3.276.0: the second init reuses it), and one path names two backends on two machines (`file:///srv/pulumi`,
 *   or `/root` in two CI containers). The tag lives only where the stack does: in its backend, beside its state,
 *   never in the project's files; `pulumi stack rm` removes it, so a stack made again gets a new one; the engine's
 *   own updates keep it.
 *
 * Who sets the tag. Only a read to mark (IdentityPurpose: create, which the engine calls in `pulumi up` only) sets
 * it; a read to judge whose an order is (a check, a preview's too; a destroy's sweep; `killed-orders`) never does: a
 * stack without the tag never marked an order, so it proves none its own (`none`). So the runs that may set it at
 * once hold the backend's update lock (CLI v3.276.0: `up`, `refresh` and `destroy` take it and fail on it;
 * `preview` and `pulumi stack tag set` do not): they are the providers of one command, on one machine (two
 * explicit providers; a dynamic provider and the native plugin). Their "read; if absent set; read back" runs under
 * a lock of this machine (machine-lock.ts) named by the backend (credential-free), the project and the stack, and
 * reads the tags again inside it: the second finds the first's tag and sets none, so both mark with one value
 * (test/engine/stack-tag-race.test.ts: two processes, the window between reading no tag and setting one held open).
 * A lock not taken within its limit leaves the identity unread: the order is placed without a mark. An order whose
 * mark the stack's tag does not give (the tag removed by hand; an `id1-` mark, made before this part existed:
 * order-marks.ts) is named, never cancelled or taken back (the safe failure).
 *
 * When any part cannot be read, there is no identity: the order is placed without a mark (the provider never acts
 * on it later) and the read's failure says why. Read once per run and purpose (`stackIdentity`), and only when
 * needed: before a new order, or when an order of a killed run is to be judged. Not outside an engine's run (tests,
 * a program): there is no stack to ask about then.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { STACK_IDENTITY_KEY } from "../../client/metadata-keys.js";
import { canonicalJson } from "../inputs/canonical-json.js";
import { deploymentOfThisProcess } from "../engine/deployment.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { pulumiJson } from "./backend-states.js";
import { backendUrlWithoutCredentials } from "../engine/backend-cli.js";
import { IDENTITY_FORM } from "./order-marks.js";
import { withMachineLock } from "./machine-lock.js";
import { stackTagsLock } from "./backend-reader.js";

export { identityOf } from "./order-marks.js";

export { STACK_IDENTITY_KEY };

/** The stack tag that holds the stack's own random value (see above). */
export const STACK_TAG = "rimuhosting:instance";

/**
 * A stack's identity mark (`id2-<32 hex>`), or why it could not be read. `none`: the stack has no identity by nature
 * (no key material, identityOfParts), so no read will ever give one and it never marked an order: an order carrying
 * a mark is not its own. Without `none` the read failed (the CLI, a timeout) and may succeed later.
 */
export type StackIdentity = { mark: string } | { unread: string; none?: true };

/**
 * What the mark hashes (see above). `instance`: the stack's key material, undefined on Pulumi Cloud's own key;
 * `stackTag`: the value of its STACK_TAG.
 */
export interface StackIdentityParts {
  backendUrl: string;
  project: string;
  stack: string;
  instance: string | undefined;
  stackTag: string;
}

/** The identity mark of these parts: `id2-` and 128 bits of their sha256 (the URL must be credential-free). */
export function stackIdentityMark(parts: StackIdentityParts): string {
  const digest = createHash("sha256").update(canonicalJson(parts)).digest("hex");
  return `${IDENTITY_FORM}${digest.slice(0, 32)}`;
}

type CliRead<T> = { value: T } | { why: string };

/** Test seam: runs in the window between reading no tag and setting one (a test holds it open: two processes). */
let beforeTagSet: (() => Promise<void>) | undefined;
export function setBeforeStackTagSet(hook: (() => Promise<void>) | undefined): void {
  beforeTagSet = hook;
}

/**
 * The stack's own tag as the backend holds it, or why it could not be read. `held`: the tags read first. None set:
 * undefined when judging; before marking (`toMark`), a random value set, under the machine's lock of this backend's
 * stack (`lockName`) and after the tags are read again in it, so a run of this machine that set it meanwhile is
 * seen. Run only for a stack that otherwise has an identity: a stack that can have none gets no tag.
 */
async function stackTagOf(
  stack: string,
  where: { cwd: string; env?: NodeJS.ProcessEnv },
  held: CliRead<Record<string, string>>,
  toMark: { lockName: string } | undefined,
): Promise<CliRead<string | undefined>> {
  const read = (tags: CliRead<Record<string, string>>): CliRead<string | undefined> =>
    "why" in tags ? tags : { value: tags.value[STACK_TAG] || undefined };
  const readNow = async () =>
    read(await pulumiJson<Record<string, string>>(["stack", "tag", "ls", "--json", "--stack", stack], where));
  const now = read(held);
  if ("why" in now || now.value !== undefined || toMark === undefined) return now;
  const locked = await withMachineLock(toMark.lockName, async (): Promise<CliRead<string | undefined>> => {
    const again = await readNow();
    if ("why" in again || again.value !== undefined) return again;
    await beforeTagSet?.();
    // `tag set` prints no JSON: its outcome is what the tags read back say.
    const set = await pulumiJson(
      ["stack", "tag", "set", STACK_TAG, randomBytes(16).toString("hex"), "--stack", stack],
      where,
    );
    const after = await readNow();
    if ("why" in after || after.value !== undefined) return after;
    return {
      why: "why" in set ? set.why : `\`pulumi stack tag set ${STACK_TAG}\` left the stack without it`,
    };
  });
  return "why" in locked ? locked : locked.value;
}

/** The settings file's top-level `encryptionsalt` or `encryptedkey` (as Pulumi writes them: plain scalars). */
function materialInSettings(text: string): string | undefined {
  const found = /^(?:encryptionsalt|encryptedkey):[ \t]*["']?([^"'\s]+)["']?[ \t]*$/m.exec(text);
  return found?.[1];
}

/** The project's directory (where Pulumi.yaml is), from `cwd` up, or undefined. */
function projectDir(cwd: string): string | undefined {
  for (let at = resolve(cwd); ; at = dirname(at)) {
    if (["Pulumi.yaml", "Pulumi.yml"].some((name) => existsSync(join(at, name)))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** The key material the state's secrets provider holds (`salt` or `encryptedkey`), if any. */
function materialInState(state: {
  deployment?: { secrets_providers?: { type?: string; state?: Record<string, unknown> } };
}): string | undefined {
  const held = state.deployment?.secrets_providers?.state;
  const value = held?.salt ?? held?.encryptedkey;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * What a read of the identity is for. `mark`: a new order is about to carry it (create, in `pulumi up` only), so a
 * stack with no tag gets one. `judge`: whose an order is (a check, a preview's too; a destroy's sweep; the
 * `killed-orders` command), which never sets the tag: a stack without one never marked an order.
 */
export type IdentityPurpose = "mark" | "judge";

/**
 * Reads the identity of `scope`'s stack through the CLI in `cwd` (the provider's: the engine starts it in the
 * program's directory with the CLI's environment), for `purpose`.
 */
export async function readStackIdentity(
  scope: { project: string; stack: string },
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  purpose: IdentityPurpose = "judge",
): Promise<StackIdentity> {
  const cwd = where.cwd ?? process.cwd();
  const dir = projectDir(cwd);
  if (dir === undefined) return { unread: "there is no Pulumi project (Pulumi.yaml) here" };
  const settings = join(dir, `Pulumi.${scope.stack}.yaml`);
  const fromSettings = existsSync(settings) ? materialInSettings(readFileSync(settings, "utf8")) : undefined;
  const [who, state, tags] = await Promise.all([
    pulumiJson<{ url?: string }>(["whoami", "--json"], { cwd, env: where.env }),
    fromSettings === undefined
      ? pulumiJson<Parameters<typeof materialInState>[0]>(["stack", "export", "--stack", scope.stack], {
          cwd,
          env: where.env,
        })
      : undefined,
    pulumiJson<Record<string, string>>(["stack", "tag", "ls", "--json", "--stack", scope.stack], {
      cwd,
      env: where.env,
    }),
  ]);
  if ("why" in who) return { unread: who.why };
  if (!who.value.url) return { unread: "`pulumi whoami --json` printed no backend URL" };
  if (state !== undefined && "why" in state) return { unread: state.why };
  const backendUrl = backendUrlWithoutCredentials(who.value.url, { drop: { cwd } });
  const instance = fromSettings ?? (state === undefined ? undefined : materialInState(state.value));
  const parts = { backendUrl, project: scope.project, stack: scope.stack, instance, stackTag: "" };
  const without = identityOfParts(parts, settings);
  if ("unread" in without) return without;
  // The lock every setter of this stack's tags takes (run-records.ts sets a run's record under it too).
  const toMark = purpose === "mark" ? { lockName: stackTagsLock(scope) } : undefined;
  const stackTag = await stackTagOf(scope.stack, { cwd, env: where.env }, tags, toMark);
  if ("why" in stackTag)
    return { unread: `the stack's tag ${STACK_TAG} could not be read or set: ${stackTag.why}` };
  if (stackTag.value === undefined)
    return {
      none: true,
      unread: `its tag ${STACK_TAG} is not set yet, so no run has marked an order with its identity`,
    };
  return identityOfParts({ ...parts, stackTag: stackTag.value }, settings);
}

/**
 * The identity of `parts`, none without key material. Without it a mark would prove nothing: on Pulumi Cloud's own
 * secrets provider (`service`) `pulumi whoami --json` prints the service's URL, no organization, so `alice/shop/dev`
 * and `bob/shop/dev` would share one. `settings`: the stack's settings file, named in the reason.
 */
export function identityOfParts(parts: StackIdentityParts, settings: string): StackIdentity {
  if (parts.instance === undefined)
    return {
      none: true,
      unread:
        `neither ${settings} nor the state of stack ${parts.stack} holds its key material (encryptionsalt or ` +
        "encryptedkey; Pulumi Cloud's own secrets provider has none), so no mark would tell it from a stack of " +
        "the same name in another organization or backend; `pulumi stack change-secrets-provider passphrase` " +
        "(or a key service) gives the stack its own",
    };
  return { mark: stackIdentityMark(parts) };
}

export type IdentityReader = (
  scope: { project: string; stack: string },
  purpose: IdentityPurpose,
) => Promise<StackIdentity>;

/** Outside an engine's run there is no stack to ask about (a test, a program calling the provider). */
const defaultReader: IdentityReader = (scope, purpose) =>
  deploymentOfThisProcess() === undefined
    ? Promise.resolve({ unread: "the provider is not running in a Pulumi deployment" })
    : readStackIdentity(scope, {}, purpose);

/** Test seam: where a run reads its stack's identity from (in-process tests have no backend). */
let reader: IdentityReader = defaultReader;
export function setStackIdentityReader(read: IdentityReader | undefined): void {
  reader = read ?? defaultReader;
}

const IDENTITY = runState("the stack's identity, read once, and where from", () => ({
  through: undefined as IdentityReader | undefined,
  read: new Map<string, Promise<StackIdentity>>(),
}));

/** `context`'s run reads its stack's identity through `read` (the killed-orders command: the user's directory). */
export function readIdentityThrough(context: RunContext, read: IdentityReader): void {
  context.get(IDENTITY).through = read;
}

/**
 * The identity of `scope`'s stack for `purpose`, read once in `context`'s run; a failure is `unread`, never thrown.
 * A read to mark serves every later read; one to judge serves a read to mark only when it found a mark.
 */
export function stackIdentity(
  context: RunContext,
  scope: { project: string; stack: string },
  purpose: IdentityPurpose = "judge",
): Promise<StackIdentity> {
  const { through, read: held } = context.get(IDENTITY);
  const readThrough = through ?? reader;
  const key = (p: IdentityPurpose) => `${p} ${scope.project}/${scope.stack}`;
  const readFor = (p: IdentityPurpose): Promise<StackIdentity> =>
    readThrough(scope, p).catch((error: unknown) => ({
      unread: error instanceof Error ? error.message : String(error),
    }));
  const marked = held.get(key("mark"));
  if (marked !== undefined) return marked;
  const judged = held.get(key("judge"));
  const read =
    purpose === "judge"
      ? (judged ?? readFor("judge"))
      : (judged ?? Promise.resolve(undefined)).then((j) => (j && "mark" in j ? j : readFor("mark")));
  held.set(key(purpose), read);
  return read;
}
