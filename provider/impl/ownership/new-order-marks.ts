/**
 * The marks every new order carries to tie it to its stack (docs/troubleshooting.md, "A run was killed"): the stack
 * token (a hash of the project and stack names: many stacks share it, a `dev` in every backend), the stack identity
 * (stack-identity.ts: the stack's own tag) and, when the run can write it first, the run's record (run-records.ts).
 * A killed run's order is in no state; these marks are what a later destroy's sweep (stack-strays.ts) and `up`'s
 * take-back (take-back.ts) find it by and judge it with. The one reader of an order's marks is order-marks.ts.
 */
import { createHash } from "node:crypto";
import type { AboutOrder } from "../../../contract/index.js";
import { STACK_TOKEN_KEY } from "../../client/metadata-keys.js";
import { log } from "../engine/log.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { markBesideRecord, thisRunsRecord } from "./backend-reader.js";
import { RUN_RECORD_KEY } from "./run-records.js";
import { stackOfScope } from "./stack-scope.js";
import { stackIdentity, STACK_IDENTITY_KEY } from "./stack-identity.js";

export { STACK_TOKEN_KEY };

/** `stack-<32 hex>` from a creationScope's project and stack (`<project>/<stack>/<name>`), or undefined. */
export function stackTokenOf(creationScope: unknown): string | undefined {
  const scope = stackOfScope(creationScope);
  if (scope === undefined) return undefined;
  const names = `${scope.project}/${scope.stack}`;
  let token = TOKENS.get(names);
  if (token === undefined) {
    token = `stack-${createHash("sha256").update(names).digest("hex").slice(0, 32)}`;
    TOKENS.set(names, token);
  }
  return token;
}

/**
 * Each stack's token, hashed once per process: every create and delete of a fleet asks it of the same one or two
 * stacks, and a hash each time cost a 2,000-VPS destroy 0.23 s of the host's CPU (the bench's profile).
 */
const TOKENS = new Map<string, string>();

/** Runs that already said their orders carry no stack identity (once per run is enough). */
const UNMARKED = runState("a run's orders placed without a stack identity", () => ({ said: false }));

/**
 * The meta_data entries that tie a new order for `creationScope` to its stack: the stack token (its names) and the
 * stack identity (stack-identity.ts), when it can be read. Without an identity the order is placed all the same (a
 * create never waits on a backend that cannot be read), and the run says once that no later run will act on it.
 */
export async function stackMarks(
  run: RunContext,
  creationScope: unknown,
  domainName: string,
): Promise<{ key_name: string; value: string }[]> {
  const token = stackTokenOf(creationScope);
  const scope = stackOfScope(creationScope);
  if (token === undefined || scope === undefined) return [];
  const marks = [{ key_name: STACK_TOKEN_KEY, value: token }];
  // Through the CLI, the run's record (runMark) is set with the stack's own tag, under one lock (setOrderTags).
  const identity = await stackIdentity(run, scope, "mark", markBesideRecord(run, scope));
  if ("mark" in identity)
    return [
      ...marks,
      { key_name: STACK_IDENTITY_KEY, value: identity.mark },
      ...(await runMark(run, scope, domainName)),
    ];
  const said = run.get(UNMARKED);
  if (!said.said && run.engine !== undefined) {
    said.said = true;
    log(
      run,
      `Warning: ${domainName} and the other orders of this run carry no stack identity, because ${identity.unread}. ` +
        `Should this run be killed before its state records them, no later \`pulumi up\` or \`pulumi destroy\` ` +
        `will take back or cancel them: each is named, to cancel or adopt (\`adoptOrderOid\`) by hand.`,
    );
  }
  return marks;
}

/** Runs that already said their orders carry no run record. */
const UNRECORDED = runState("a run's orders placed without a run record", () => ({ said: false }));

/**
 * The run record's mark (run-records.ts): this run's id, once its record is in the stack's backend (written before
 * its first order). Without it the order is placed all the same, and the run says once what that costs.
 */
async function runMark(
  run: RunContext,
  scope: { project: string; stack: string },
  domainName: string,
): Promise<{ key_name: string; value: string }[]> {
  const record = await thisRunsRecord(run, scope);
  if ("id" in record) return [{ key_name: RUN_RECORD_KEY, value: record.id }];
  const said = run.get(UNRECORDED);
  if (!said.said && run.engine !== undefined) {
    said.said = true;
    log(
      run,
      `Warning: ${domainName} and the other orders of this run carry no run record, because ${record.why}. ` +
        "Should this run be killed without checkpoints (PULUMI_SKIP_CHECKPOINTS) before its state records them, " +
        "no later `pulumi destroy` will cancel them: each is named, to cancel or adopt (`adoptOrderOid`) by hand.",
    );
  }
  return [];
}

/** True when `order` carries the stack token `token` (stackTokenOf): an order of a stack of that name. */
export function carriesToken(order: AboutOrder, token: string): boolean {
  return order.meta_data?.some((m) => m.key_name === STACK_TOKEN_KEY && m.value === token) ?? false;
}
