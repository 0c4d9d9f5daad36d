/**
 * An order of this stack's name (it carries the stack token) whose readable identity mark is another stack's: a stack
 * of the same project and stack name in another backend placed it (its live VPS, or an order of its own killed run,
 * which that stack's own `pulumi destroy` or killed-orders ends). Nothing this stack does ends it rightly, so the
 * sweep (stack-strays.ts) tells of it as information, "another stack's: left alone", and fails on it nowhere: a
 * `destroy` or `killed-orders` that failed on it would fail on every run while that stack has a VPS.
 *
 * One order of this stack's own looks the same: that of a killed run whose stack tag two providers set at once, the
 * backend keeping the other's value (stack-identity.ts), so that its mark is one no later run derives. The engine's
 * own record tells it apart when the run kept checkpoints: a pending create of this stack's state carries the
 * order's creation nonce, so the order is this stack's whatever its mark, and is judged as this stack's. Without
 * that record nothing this stack holds tells them apart: the line names the mark and the command that prints a
 * stack's own (`killed-orders --identity`), to run against each backend with a stack of this name; only when none
 * prints it is the order this stack's. When the backend's states cannot be read, the record cannot be looked at:
 * such an order is not judged (the sweep says it cannot tell), never told of as another stack's.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { pendingCreateOf, type BackendStates } from "./backend-states.js";
import { identityOf } from "./order-marks.js";
import type { StackIdentity } from "./stack-identity.js";

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
 * True when `order` (of `scope`'s name, in no state of the backend) is provably another stack's: it carries a
 * readable mark that is not this stack's (this stack's identity read, or none by nature: it never marked an order),
 * the states were read, and no pending create of this stack carries its nonce.
 */
export function isAnotherStacks(
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

/**
 * What to tell of another stack's order (`what`: its number, name and fee), and how the user tells whose it is. The
 * command is named in both forms: the sweep runs in a destroy of either front end and in either command.
 */
export function anotherStacksLine(
  what: string,
  order: AboutOrder,
  identity: StackIdentity,
  scope: Scope,
): string {
  const mark = identityOf(order)!;
  const ours =
    "mark" in identity
      ? `not this stack's (${identity.mark})`
      : `and this stack has none (${identity.unread}), so it never marked an order`;
  const identityCommand =
    `\`rimuhosting-killed-orders --identity --stack ${scope.stack}\` (the plugin's: ` +
    `\`pulumi-resource-rimuhosting killed-orders --identity --stack ${scope.stack}\`)`;
  return (
    `${what} is another stack's: left alone. It carries this stack's name, and no state of this backend holds it, ` +
    `but the stack identity ${mark}, ${ours}: a stack ${scope.stack} of project ${scope.project} in another ` +
    `backend placed it (its own \`pulumi destroy\` or killed-orders ends it). To see which, run ` +
    `${identityCommand} in this project with each such backend (\`PULUMI_BACKEND_URL=<url>\` before it): the one ` +
    `that prints ${mark} placed it. If none does, it is this stack's after all, ordered by a killed run whose stack ` +
    "tag another provider of that run set at the same moment, with checkpoints off or its pending create since " +
    "cleared (a pending create of this stack's state carrying its nonce proves it, and it is cancelled): then adopt " +
    "it (`pulumi import rimuhosting:index:Vps <name> <oid>`) or cancel it in the control panel."
  );
}
