/**
 * One run's state, in one object. A run is what one provider process serves: the engine starts a provider process
 * for each operation (a preview, the update of `pulumi up`, a refresh) and every check, diff, create, update, read
 * and delete of that operation goes to it. What the process learns on the way is held by the run and nowhere else:
 *
 * - the shared reads of each account, with what this run's checked changes claim of hosts and what they cost a
 *   month (account-view.ts, host-room.ts, the budget's ledger);
 * - the public catalogue, per base URL (catalog.ts);
 * - the creation tokens check() found unused, so create() does not look them up again (creation-token.ts);
 * - the resources read since their last check, whose next diff is a refresh's (refresh-diff.ts);
 * - the preview's running total of priced changes, and the replacements diff() priced (money.ts).
 *
 * Each module declares its piece once (`runState`), and the run makes it on first use, so this file imports none
 * of them (they import it). Its lifetime is the process's: `currentRun()` is the run, and `beginRun()` starts a new
 * one, which forgets every piece at once (tests, standing for the next provider process). Only the engine's calls
 * (check, diff, create, read, update, delete: vps-check.ts, vps-provider.ts) and the test seams call `currentRun()`;
 * they hand the run down as an argument, as pulumi-go-provider passes `ctx` (test/provider/impl/process-state.test.ts). State that outlives a
 * run (the configuration, cached clients, the engine watch) is listed with its reason in process-state.ts, and
 * test/provider/impl/process-state.test.ts fails when a module keeps state that is in neither place.
 */
import { deploymentOfThisProcess } from "./deployment.js";

/** One piece of a run's state: what it is, and how a run makes it. */
export interface RunState<T> {
  readonly what: string;
  make(): T;
}

/** Declares a piece of every run's state (once, at a module's top level). */
export const runState = <T>(what: string, make: () => T): RunState<T> => ({ what, make });

/**
 * The engine run this process serves, which every provider of that run shares (account/shared-plan.ts): the engine's
 * address, which the engine gives each plugin it starts, the dynamic-provider host (started through `sh`) and the
 * native plugin (started by `pulumi` itself) alike (deployment.ts). Outside an engine (tests), the parent process.
 */
const engineRunOfThisProcess = (): string => {
  const address = deploymentOfThisProcess();
  return address === undefined ? `process ${process.ppid}` : `engine ${address}`;
};

export class RunContext {
  private readonly held = new Map<RunState<unknown>, unknown>();
  private given: string | undefined;
  /**
   * When this run began (epoch ms): a provider process's run begins as the process loads, after the engine run it
   * serves began, so an order dated after it may be another provider's of the same command (ownership/stack-strays.ts).
   */
  readonly startedAt = Date.now();

  /** `command`: the engine run it serves (tests: a name of their own); by default this process's, read on first use. */
  constructor(command?: string) {
    this.given = command;
  }

  /**
   * The engine run this run serves, which the provider processes of one run share a plan by (account/shared-plan.ts).
   * Read when first asked, not when the process starts: the native plugin learns the engine's address from its server.
   */
  get command(): string {
    return (this.given ??= engineRunOfThisProcess());
  }

  /** This run's `state`, made on first use. */
  get<T>(state: RunState<T>): T {
    if (!this.held.has(state)) this.held.set(state, state.make());
    return this.held.get(state) as T;
  }

  /** What this run holds so far, by what each piece is (tests, debugging). */
  holds(): string[] {
    return [...this.held.keys()].map((state) => state.what);
  }
}

let current = new RunContext();

/** The run this process serves. */
export function currentRun(): RunContext {
  return current;
}

/**
 * Starts a new run: everything the last one learnt is forgotten at once (tests; a new provider process), for
 * `command` (tests: another command).
 */
export function beginRun(command?: string): RunContext {
  current = new RunContext(command);
  return current;
}

/**
 * Serves `run` while `call` starts (tests: several runs of one process interleaved, each engine call entered with
 * its own run, which it reads once, synchronously, and hands down). Returns what `call` returns.
 */
export function serving<T>(run: RunContext, call: () => T): T {
  const before = current;
  current = run;
  try {
    return call();
  } finally {
    current = before;
  }
}

/** Starts a new run of the command the current one serves (tests: another provider process of that command). */
export function beginRunOfSameCommand(): RunContext {
  return beginRun(current.command);
}
