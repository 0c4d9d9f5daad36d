/**
 * The stack identity: the mark every new order carries (STACK_IDENTITY_KEY) that no other stack can carry, so that the
 * provider cancels or takes back an order only when it is provably its own stack's (take-back.ts, may-cancel.ts;
 * docs/troubleshooting.md, "A run was killed").
 *
 * The project and stack names are not enough: every team has a `dev`, and two colleagues with a backend each (a
 * `file://~` each, two buckets) have two stacks of the same names on one account. So the mark hashes the project, the
 * stack and the stack's own tag (STACK_TAG, `rimuhosting:instance`): 128 random bits the provider sets with
 * `pulumi stack tag set` when it is about to mark an order of a stack that has none, and reads with
 * `pulumi stack tag ls --json`. The tag lives only where the stack does: in its backend, beside its state, never in
 * the project's files (git does not share it); `pulumi stack rm` removes it, so a stack made again gets a new one;
 * the engine's own updates keep it. Tags work on every backend (CLI v3.211 and later): Pulumi Cloud's `alice/shop/dev`
 * and `bob/shop/dev` have two.
 *
 * Nothing else: the identity is what the backend holds, so that `killed-orders --identity` prints, from any
 * directory and any spelling of the backend's URL, the mark that stack's orders carry. The backend's URL is left out
 * (`file://~` and the same path spelled out, or a trailing `/`, are one backend), and so is the key material of the
 * working directory's `Pulumi.<stack>.yaml` (another copy of the project, or a colleague's, holds another salt;
 * and a committed one gives its salt to every `pulumi stack init` of that name). A copy of the backend (a restored CI
 * cache, a backup) carries the same tag, so the same identity: what tells the copies apart is what each writes after
 * the copy (run-records.ts), never the mark.
 *
 * Who sets the tag. Only a read to mark (IdentityPurpose: create, which the engine calls in `pulumi up` only) sets
 * it; a read to judge whose an order is (a check, a preview's too; a destroy's sweep; `killed-orders`) never does: a
 * stack without the tag never marked an order, so it proves none its own (`none`). So the runs that may set it at
 * once hold the backend's update lock (CLI v3.276.0: `up`, `refresh` and `destroy` take it and fail on it;
 * `preview` and `pulumi stack tag set` do not): they are the providers of one command, on one machine (two
 * explicit providers; a dynamic provider and the native plugin). Their "read; if absent set; read back" runs under
 * a lock of this machine (machine-lock.ts) named by the project and the stack, the lock every setter of the stack's
 * tags takes (run-records.ts too), and reads the tags only inside it: the second finds the first's tag and sets none,
 * so both mark with one value (test/engine/stack-tag-race.test.ts). A run that writes its record through the CLI
 * does all this beside its record, under the one lock, read back once (backend-reader.ts: setOrderTags). A lock
 * not taken within its limit leaves the identity unread: the order is placed without a mark. An order whose mark the
 * stack's tag does not give (the tag removed by hand; a mark of an older form: order-marks.ts) is named, never
 * cancelled or taken back (the safe failure).
 *
 * When the tag cannot be read, there is no identity: the order is placed without a mark (the provider never acts on
 * it later) and the read's failure says why. Read once per run and purpose (`stackIdentity`), and only when needed:
 * before a new order, or when an order of a killed run is to be judged. Not outside an engine's run (tests, a
 * program): there is no stack to ask about then.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { STACK_IDENTITY_KEY } from "../../client/metadata-keys.js";
import { canonicalJson } from "../inputs/canonical-json.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { pulumiJson, readStackTags } from "./backend-states.js";
import { IDENTITY_FORM } from "./order-marks.js";
import { withMachineLock } from "./machine-lock.js";
import { stackTagsLock } from "./run-records.js";

export { identityOf } from "./order-marks.js";

export { STACK_IDENTITY_KEY };

/** The stack tag that holds the stack's own random value (see above). */
export const STACK_TAG = "rimuhosting:instance";

/**
 * A stack's identity mark (`id3-<32 hex>`), or why it could not be read. `none`: the stack has no tag yet, so it never
 * marked an order: an order carrying a mark is not its own. Without `none` the read failed (the CLI, a timeout) and
 * may succeed later.
 */
export type StackIdentity = { mark: string } | { unread: string; none?: true };

/** What the mark hashes (see above): the project, the stack and the value of its STACK_TAG. */
export interface StackIdentityParts {
  project: string;
  stack: string;
  stackTag: string;
}

/** The identity mark of these parts: `id3-` and 128 bits of their sha256. */
export function stackIdentityMark(parts: StackIdentityParts): string {
  const digest = createHash("sha256")
    .update(canonicalJson({ project: parts.project, stack: parts.stack, stackTag: parts.stackTag }))
    .digest("hex");
  return `${IDENTITY_FORM}${digest.slice(0, 32)}`;
}

/** What a `pulumi` read gave, or why it gave nothing. */
export type CliRead<T> = { value: T } | { why: string };

/** A new value of the stack's own tag: 128 random bits. */
export const newStackTagValue = (): string => randomBytes(16).toString("hex");

/**
 * The stack's own tag as the backend holds it, or why it could not be read. None set: undefined when judging; before
 * marking (`toMark`), a random value set. To mark, the tags are read only once the machine's lock of this backend's
 * stack (`lockName`) is held, so a run of this machine that set it meanwhile is seen, and set and read back in it:
 * one read, not one before the lock and one in it. Run only for a stack that otherwise has an identity: a stack that
 * can have none gets no tag.
 */
async function stackTagOf(
  stack: string,
  where: { cwd: string; env?: NodeJS.ProcessEnv },
  /** `beforeTagSet`: what runs between reading no tag and setting one (a test holds the window open). */
  toMark: { lockName: string; beforeTagSet?: () => Promise<void> } | undefined,
): Promise<CliRead<string | undefined>> {
  const readNow = async (): Promise<CliRead<string | undefined>> => {
    const tags = await readStackTags(stack, where);
    return "why" in tags ? tags : { value: tags.value[STACK_TAG] || undefined };
  };
  if (toMark === undefined) return readNow();
  const locked = await withMachineLock(toMark.lockName, async (): Promise<CliRead<string | undefined>> => {
    const now = await readNow();
    if ("why" in now || now.value !== undefined) return now;
    await toMark.beforeTagSet?.();
    // `tag set` prints no JSON: its outcome is what the tags read back say.
    const set = await pulumiJson(
      ["stack", "tag", "set", STACK_TAG, newStackTagValue(), "--stack", stack],
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

/** The identity of `scope`'s stack, given its own tag as read (stackTagOf; setOrderTags). */
export function identityOfStackTag(
  scope: { project: string; stack: string },
  stackTag: CliRead<string | undefined>,
): StackIdentity {
  if ("why" in stackTag)
    return { unread: `the stack's tag ${STACK_TAG} could not be read or set: ${stackTag.why}` };
  if (stackTag.value === undefined)
    return {
      none: true,
      unread: `its tag ${STACK_TAG} is not set yet, so no run has marked an order with its identity`,
    };
  return { mark: stackIdentityMark({ ...scope, stackTag: stackTag.value }) };
}

/** The project's directory (where Pulumi.yaml is), from `cwd` up, or undefined. */
export function projectDir(cwd: string): string | undefined {
  for (let at = resolve(cwd); ; at = dirname(at)) {
    if (["Pulumi.yaml", "Pulumi.yml"].some((name) => existsSync(join(at, name)))) return at;
    if (dirname(at) === at) return undefined;
  }
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
  /** `beforeTagSet`: what runs between reading no tag and setting one (a test holds that window open). */
  where: { cwd?: string; env?: NodeJS.ProcessEnv; beforeTagSet?: () => Promise<void> } = {},
  purpose: IdentityPurpose = "judge",
): Promise<StackIdentity> {
  const cwd = where.cwd ?? process.cwd();
  if (projectDir(cwd) === undefined) return { unread: "there is no Pulumi project (Pulumi.yaml) here" };
  // The lock every setter of this stack's tags takes (run-records.ts sets a run's record under it too).
  const toMark =
    purpose === "mark" ? { lockName: stackTagsLock(scope), beforeTagSet: where.beforeTagSet } : undefined;
  return identityOfStackTag(scope, await stackTagOf(scope.stack, { cwd, env: where.env }, toMark));
}

export type IdentityReader = (
  scope: { project: string; stack: string },
  purpose: IdentityPurpose,
) => Promise<StackIdentity>;

/**
 * Where `context`'s run reads its stack's identity from by default: the CLI, as the engine started the provider; a
 * test's reader where it tuned the run (in-process tests have no backend). Outside an engine's run there is no stack to
 * ask about (a test, a program calling the provider).
 */
const defaultReaderOf =
  (context: RunContext): IdentityReader =>
  (scope, purpose) =>
    context.tuning.identityReader?.(scope, purpose) ??
    (context.engine === undefined
      ? Promise.resolve({ unread: "the provider is not running in a Pulumi deployment" })
      : readStackIdentity(scope, {}, purpose));

declare module "../engine/run-context.js" {
  interface RunTuning {
    /** Where the run reads its stack's identity from (in-process tests have no backend): ownership/stack-identity.ts. */
    readonly identityReader?: IdentityReader;
  }
}

const IDENTITY = runState("the stack's identity, read once, and where from", () => ({
  through: undefined as IdentityReader | undefined,
  read: new Map<string, Promise<StackIdentity>>(),
}));

/** True when `context`'s run reads its stack's identity through the CLI, as the engine started the provider. */
export const identityThroughTheCli = (context: RunContext): boolean =>
  context.engine !== undefined &&
  context.tuning.identityReader === undefined &&
  context.get(IDENTITY).through === undefined;

/** `context`'s run reads its stack's identity through `read` (the killed-orders command: the user's directory). */
export function readIdentityThrough(context: RunContext, read: IdentityReader): void {
  context.get(IDENTITY).through = read;
}

/**
 * The identity of `scope`'s stack for `purpose`, read once in `context`'s run; a failure is `unread`, never thrown.
 * A read to mark serves every later read; one to judge serves a read to mark only when it found a mark. `readMark`:
 * how the run reads it to mark when it has not yet, instead of its reader's (backend-reader.ts: beside the run's
 * record).
 */
export function stackIdentity(
  context: RunContext,
  scope: { project: string; stack: string },
  purpose: IdentityPurpose = "judge",
  readMark?: () => Promise<StackIdentity>,
): Promise<StackIdentity> {
  const { through, read: held } = context.get(IDENTITY);
  const reader = through ?? defaultReaderOf(context);
  const readThrough: IdentityReader = (s, p) => (p === "mark" && readMark ? readMark() : reader(s, p));
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
