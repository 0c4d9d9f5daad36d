/**
 * An order of this stack's name (it carries the stack token) whose readable identity mark is not this stack's: a
 * same-named stack's of another backend (its live VPS, or its killed run's order, which its own `pulumi destroy` or
 * killed-orders ends), or this stack's own under an identity it no longer has (placed before `pulumi stack rm` and a
 * new `pulumi stack init` of its name, before its stack tag was removed or changed). Nothing this stack holds proves
 * it this stack's, so it is not this stack's business (issue 92): as Pulumi does for every provider, a removed
 * stack's resources are abandoned, and the bill shows them. The sweep (stack-strays.ts) counts such orders in one line
 * (otherStacksLine), never a warning, so a destroy or killed-orders beside a colleague's live stack of this name ends
 * clean.
 *
 * One proof makes such an order this stack's: the engine's own record, a pending create of this stack's state carrying
 * the order's creation nonce (a killed run whose stack tag two providers set at once and the backend kept the other's
 * value: stack-identity.ts), judged as this stack's. So only this stack's own state is needed to judge it: when another
 * stack's state cannot be read (a torn file, a PostgreSQL export that timed out), that state can only hold the order,
 * which makes it another stack's all the same. When this stack's own state was not read, the pending create cannot
 * be looked at: such an order is not judged here (the sweep says it cannot tell). The marks the user passed
 * back (`--other-stack-mark`, what `killed-orders --identity` printed against the other backend) are counted in the
 * same line.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { pendingCreateOf, type BackendStates } from "./backend-states.js";
import { identityOf } from "./order-marks.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import { cents, dollars } from "../cost/money.js";
import type { StackIdentity } from "./stack-identity.js";

type Scope = { project: string; stack: string };

/** True when `name` (as `pulumi stack ls --all` prints it: `dev`, `org/dev`, `org/project/dev`) is `scope`'s stack. */
function isStack(name: string, scope: Scope): boolean {
  const parts = name.split("/");
  return parts[parts.length - 1] === scope.stack && (parts.length < 3 || parts[1] === scope.project);
}

/** True when `scope`'s own state is among those read (some others may not be). */
const stateRead = (states: BackendStates, scope: Scope): boolean =>
  states.stacks.some(({ stack }) => isStack(stack, scope));

/** True when a pending create of `scope`'s own state carries `order`'s creation nonce: its killed run placed it. */
export function pendingOfThisStack(states: BackendStates, order: AboutOrder, scope: Scope): boolean {
  const stack = pendingCreateOf(states, order);
  return stack !== undefined && isStack(stack, scope);
}

/**
 * True when `order` (of `scope`'s name, in no state of the backend) carries a readable mark that is not this stack's
 * (this stack's identity read, or none by nature: it never marked an order), this stack's own state was read, and no
 * pending create of this stack carries its nonce: another stack's business, counted in one line (otherStacksLine).
 */
export function carriesAnotherMark(
  order: AboutOrder,
  identity: StackIdentity,
  states: BackendStates,
  scope: Scope,
): boolean {
  const mark = identityOf(order);
  if (mark === undefined || (states.unread !== undefined && !stateRead(states, scope))) return false;
  if ("mark" in identity ? mark === identity.mark : identity.none !== true) return false;
  return !pendingOfThisStack(states, order, scope);
}

/** True when the user showed `order` (one carriesAnotherMark) another stack's: they passed its mark back. */
export const shownAnotherStacks = (order: AboutOrder, otherStackMarks: ReadonlySet<string>): boolean =>
  otherStackMarks.has(identityOf(order) ?? "");

/**
 * The one line a sweep says of the orders carriesAnotherMark (`orders`: at least one): how many, their fees, that they
 * are not this stack's and are left alone, and where the user sees them (the account's figures of the bill, the
 * control panel). Not a warning: they are other stacks' business (issue 92), so a run beside a colleague's live
 * stack of this name stays quiet and ends clean. Those whose marks the user passed back (`otherStackMarks`,
 * killed-orders' --other-stack-mark) are counted in the same line.
 */
export function otherStacksLine(
  orders: readonly AboutOrder[],
  scope: Scope,
  otherStackMarks: ReadonlySet<string>,
): string {
  const fees = orders.map((order) => orderFields(order).monthlyFeeUsd);
  const known = fees.filter((fee): fee is number => fee !== undefined);
  const total = known.reduce((sum, fee) => sum + cents(fee), 0);
  const feeWords =
    known.length === fees.length
      ? `${dollars(total)} a month`
      : `${dollars(total)} a month and ${fees.length - known.length} fee not reported`;
  const one = orders.length === 1;
  const shown = orders.filter((order) => shownAnotherStacks(order, otherStackMarks)).length;
  const given =
    shown === 0 ? "" : `, ${shown === orders.length ? "all" : shown} of marks --other-stack-mark gave`;
  return (
    `${one ? "1 order" : `${orders.length} orders`} of stack ${scope.stack}'s name (${feeWords}${given}) ` +
    `${one ? "carries" : "carry"} another stack's identity: not this stack's (a stack ${scope.stack} of project ` +
    `${scope.project} in another backend, or this stack's before \`pulumi stack rm\`), left alone; the account's ` +
    `bill counts ${one ? "it" : "them"} (\`rimuhosting-bill\`, the control panel's orders).`
  );
}
