/**
 * The one reader of what the backend recorded, for the rules of ownership (take-back.ts, stack-strays.ts): the states of
 * every stack now (backend-states.ts: `pulumi stack ls`, `pulumi stack export`) and the earlier states of one stack
 * (stack-history.ts: a file backend's copies; the CLI prints no earlier state of a self-managed backend, `pulumi stack
 * export --version` being Pulumi Cloud's only in CLI v3.276.0). Each is read at most once per run, only when an order
 * must be judged, and a failure is `unread`, never thrown. One test seam for both (in-process tests have no backend).
 */
import { runState, type RunContext } from "../engine/run-context.js";
import { readBackendStates, type BackendStates } from "./backend-states.js";
import { readStackHistory } from "./stack-history.js";

/** Which stack: its project and name. */
export interface StackScope {
  project: string;
  stack: string;
}

/** Where a run reads the backend's records from. */
export interface BackendReader {
  /** Every stack's state of the backend now. */
  states(): Promise<BackendStates>;
  /** Every copy of `scope`'s earlier states. */
  history(scope: StackScope): Promise<BackendStates>;
}

const THROUGH_THE_CLI: BackendReader = {
  states: () => readBackendStates(),
  history: (scope) => readStackHistory(scope),
};

let reader: BackendReader = THROUGH_THE_CLI;

/** Test seam: what the provider's runs read instead of the backend (each part left out: the CLI's), or undefined. */
export function setBackendReader(read: Partial<BackendReader> | undefined): void {
  reader = { ...THROUGH_THE_CLI, ...read };
}

const READ = runState("the backend's states and a stack's history, read once", () => ({
  states: undefined as Promise<BackendStates> | undefined,
  history: new Map<string, Promise<BackendStates>>(),
}));

const unreadOf = (error: unknown): BackendStates => ({
  stacks: [],
  unread: error instanceof Error ? error.message : String(error),
});

/** The backend's states, read once in `context`'s run. */
export function backendStates(context: RunContext): Promise<BackendStates> {
  const held = context.get(READ);
  return (held.states ??= reader.states().catch(unreadOf));
}

/** The copies of `scope`'s earlier states, read once in `context`'s run. */
export function stackHistory(context: RunContext, scope: StackScope): Promise<BackendStates> {
  const held = context.get(READ).history;
  const key = `${scope.project}/${scope.stack}`;
  let read = held.get(key);
  if (read === undefined) {
    read = reader.history(scope).catch(unreadOf);
    held.set(key, read);
  }
  return read;
}
