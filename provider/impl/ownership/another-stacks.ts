/**
 * An order of this stack's name (it carries the stack token) whose readable identity mark is not this stack's. Many
 * stacks may have placed it, and nothing this stack holds tells which: a same-named stack of another backend (its
 * live VPS, or its killed run's order, which its own `pulumi destroy` or killed-orders ends), or this stack's own
 * under an identity it no longer has: placed before `pulumi stack rm` and a new `pulumi stack init` of its name, before
 * its stack tag was removed or changed, or by a killed run whose stack tag two providers set at once and the backend kept the other's value
 * (stack-identity.ts). The first is no one's but its owner's to end; the others stay billed for good when no one
 * ends them (issue 80: a stack that no longer exists never destroys them). So it is not information: the sweep
 * (stack-strays.ts) names it as a warning (killed-orders exits 1 on it) with the commands that tell and fix it.
 *
 * Two proofs settle it. The engine's own record: a pending create of this stack's state carrying the order's creation
 * nonce makes it this stack's killed create whatever its mark, judged as this stack's. And the user's: the mark is
 * one they passed back as `--other-stack-mark`, having run `killed-orders --identity` against the other backend and
 * seen it print that mark. Only then is the order another stack's, told of as information, "another stack's: left
 * alone". When the backend's states cannot be read, the pending create cannot be looked at: such an order is not
 * judged here (the sweep says it cannot tell).
 */
import type { AboutOrder } from "../../../contract/index.js";
import { pendingCreateOf, type BackendStates } from "./backend-states.js";
import { identityOf } from "./order-marks.js";
import { STACK_TAG, type StackIdentity } from "./stack-identity.js";

type Scope = { project: string; stack: string };

/** True when `name` (as `pulumi stack ls --all` prints it: `dev`, `org/dev`, `org/project/dev`) is `scope`'s stack. */
function isStack(name: string, scope: Scope): boolean {
  const parts = name.split("/");
  return parts[parts.length - 1] === scope.stack && (parts.length < 3 || parts[1] === scope.project);
}

/** True when a pending create of `scope`'s own state carries `order`'s creation nonce: its killed run placed it. */
export function pendingOfThisStack(states: BackendStates, order: AboutOrder, scope: Scope): boolean {
  const stack = pendingCreateOf(states, order);
  return stack !== undefined && isStack(stack, scope);
}

/**
 * True when `order` (of `scope`'s name, in no state of the backend) carries a readable mark that is not this stack's
 * (this stack's identity read, or none by nature: it never marked an order), the states were read, and no pending
 * create of this stack carries its nonce: whose it is, only the user can show (otherMarkLine).
 */
export function carriesAnotherMark(
  order: AboutOrder,
  identity: StackIdentity,
  states: BackendStates,
  scope: Scope,
): boolean {
  const mark = identityOf(order);
  if (mark === undefined || states.unread !== undefined) return false;
  if ("mark" in identity ? mark === identity.mark : identity.none !== true) return false;
  return !pendingOfThisStack(states, order, scope);
}

/** True when the user showed `order` (one carriesAnotherMark) another stack's: they passed its mark back. */
export const shownAnotherStacks = (order: AboutOrder, otherStackMarks: ReadonlySet<string>): boolean =>
  otherStackMarks.has(identityOf(order) ?? "");

/**
 * What to tell of an order carriesAnotherMark (`what`: its number, name and fee): information when the user showed it
 * another stack's (its mark in `otherStackMarks`); otherwise a warning of what it may be and the commands that tell
 * whose it is and end it. The command is named in both forms: the sweep runs in a destroy of either front end and in
 * either command.
 */
export function otherMarkLine(
  what: string,
  order: AboutOrder,
  identity: StackIdentity,
  scope: Scope,
  otherStackMarks: ReadonlySet<string>,
): string {
  const mark = identityOf(order)!;
  if (shownAnotherStacks(order, otherStackMarks))
    return (
      `${what} is another stack's: left alone. It carries this stack's name and no state of this backend holds it, ` +
      `but the stack identity ${mark}, which --other-stack-mark names as another stack's (a stack ` +
      `${scope.stack} of project ${scope.project} in another backend, whose own \`pulumi destroy\` or ` +
      "killed-orders ends it)."
    );
  const ours =
    "mark" in identity
      ? `not this stack's (${identity.mark})`
      : `and this stack has none (${identity.unread})`;
  const command = (flags: string) =>
    `\`rimuhosting-killed-orders ${flags} --stack ${scope.stack}\` (the plugin's: ` +
    `\`pulumi-resource-rimuhosting killed-orders ${flags} --stack ${scope.stack}\`)`;
  return (
    `Warning: ${what} carries this stack's name and no state of this backend holds it, but the stack identity ` +
    `${mark}, ${ours}: it is not provably this stack's nor another's, so it stays billed, not cancelled. It may be ` +
    `a VPS or a killed run's order of a stack ${scope.stack} of project ${scope.project} in another backend, or ` +
    "this stack's own, placed before `pulumi stack rm` and a new stack of this name, before its stack tag " +
    `${STACK_TAG} was removed or changed, or by a killed run whose ` +
    `stack tag another provider set at the same moment. To see whose: run ${command("--identity")} in this project ` +
    "against each other backend with a stack of this name (`PULUMI_BACKEND_URL=<url>` before it). If one prints " +
    `${mark}, it is that stack's: pass it back, ${command(`--yes --other-stack-mark ${mark}`)}, and it is left ` +
    "alone without a warning. If none does, it is this stack's: adopt it (`pulumi import rimuhosting:index:Vps " +
    `<name> ${order.order_oid}\`) and \`pulumi destroy\`, or cancel it in the control panel.`
  );
}
