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
 * they hand the run down as an argument, as pulumi-go-provider passes `ctx` (test/provider/impl/process-state.test.ts).
 *
 * What a run is given travels with it too: its settings (RunSettings: the API key and base URL, the budget, the
 * retries and pace), where its log lines go (engine/log.ts), and what a test tuned (RunTuning). A test injects by
 * giving them to the run it serves, never through a module of the provider. State that outlives a run (cached
 * clients, the engine watch, connections to the engine's log) is listed with its reason in process-state.ts, and
 * test/provider/impl/process-state.test.ts fails when a module keeps state that is in neither place.
 */
import { dynamicHost } from "./engine-log.js";
import type { ConfigSource } from "../../config.js";
import type { Pacer } from "../../client/pacer.js";
import type { ReadBudget } from "../cost/setting.js";
import type { ReadRetrySettings } from "./retry-settings.js";
import { toStdout, type LogSink } from "./log.js";

/**
 * The settings a run was configured with (configure(), lifecycle/runtime-config.ts): the API key and base URL as
 * given, the budget's and the retries' settings as read, and the pace its clients keep together. Made whole by each
 * configure() and never changed after: the run holds them and hands them down, so what a function judges by is the
 * run's it was handed, not whatever a module last heard.
 */
export interface RunSettings {
  /** The API key and base URL the stack config (or the explicit provider) gave; unset: their variables, read when used. */
  readonly stackConfig: ConfigSource;
  /** The budget's settings (budget/budget.ts), and what is wrong with them. */
  readonly budget: ReadBudget;
  /** The retries and pace (retry-settings.ts), and what is wrong with them. */
  readonly retry: ReadRetrySettings;
  /** The one pace of the run's clients (one per time limit), as they share the account's quota; undefined: none. */
  readonly pacer: Pacer | undefined;
}

/** A run nothing configured (a test before its configure(), a command outside the engine): every setting unset. */
export const UNCONFIGURED: RunSettings = {
  stackConfig: {},
  budget: { settings: { enforcement: "enforce" }, problems: [] },
  retry: { settings: {}, problems: [] },
  pacer: undefined,
};

/** One piece of a run's state: what it is, and how a run makes it (given the run, which the piece may keep). */
export interface RunState<T> {
  readonly what: string;
  make(run: RunContext): T;
}

/** Declares a piece of every run's state (once, at a module's top level). */
export const runState = <T>(what: string, make: (run: RunContext) => T): RunState<T> => ({ what, make });

/**
 * What tests tune of a run, each undefined in a real run (the provider's own then). A test sets it on the run it
 * serves (testing.ts), and a run begun after it in the same process keeps it, as it keeps the configuration.
 */
export interface RunTuning {
  /** The read timeout of the run's clients (the fault matrix's "client timeout" on reads). */
  readonly readTimeoutMs?: number;
  /** The wait between retries of the run's clients (the model test's faults: a retry costs no wall time). */
  readonly retryDelayMs?: number;
  /** How long a create keeps looking its order up after an ambiguous failure (lifecycle/vps-create.ts). */
  readonly createLookupGraceMs?: number;
  /** The guard's longest wait for a shrink the preview planned (ordering/previewed-wait.ts). */
  readonly previewedWaitMs?: number;
  /**
   * The public catalogues (account/catalog.ts), by base URL, read once for this run and the runs begun after it,
   * not once per run: for a test that stands for thousands of runs against one emulator whose catalogue never
   * changes (the money model), where a read per run is most of its requests and proves nothing the test checks.
   */
  readonly keptCatalogues?: Map<string, Promise<object>>;
}

/** What a run is given as it is made: where its lines go, and the engine it serves. */
export interface RunGiven {
  /** Where its log lines go (default: stdout, the dynamic host's output). */
  log?: LogSink;
  /** The engine's address (default: the dynamic host's, when in one). */
  engine?: string | undefined;
}

export class RunContext {
  private readonly held = new Map<RunState<unknown>, unknown>();
  private given: string | undefined;
  /** What tests tuned (none in a real run): set by testing.ts on the run a test serves, never by the provider. */
  tuning: RunTuning = {};
  /**
   * The settings the run was configured with: configure() (the engine's first call to a provider) gives them, once
   * per provider process; a run begun after it in the same process (tests) keeps them, as a new host would be given
   * the same.
   */
  settings: RunSettings = UNCONFIGURED;
  /**
   * When this run began (epoch ms): a provider process's run begins as the process loads, after the engine run it
   * serves began, so an order dated after it may be another provider's of the same command (ownership/stack-strays.ts).
   */
  readonly startedAt = Date.now();

  /**
   * Where the run's log lines go (engine/log.ts): the host's stdout, unless the run was given another (the native
   * plugin's engine log, a command's stderr). Tests replace it (testing.ts's setLogSink).
   */
  log: LogSink;

  /**
   * `command`: the engine run it serves (tests: a name of their own); by default this process's, read on first use.
   * `given`: where its log lines go, and its engine.
   */
  constructor(command?: string, given: RunGiven = {}) {
    this.given = command;
    this.log = given.log ?? toStdout;
    this.engine = given.engine ?? dynamicHost()?.address;
  }

  /**
   * The address of the engine that started the process this run serves, which the engine gives each plugin it
   * starts: the dynamic-provider host's first argument, the native plugin's server's (it begins its run with it).
   * Undefined outside a deployment (a test, a program, a command of its own). Checks record it (deployment.ts).
   */
  readonly engine: string | undefined;

  /**
   * The engine run this run serves, which the provider processes of one run share a plan by (account/shared-plan.ts):
   * its engine's address, on a port of its own each time. Outside an engine (tests), the parent process.
   */
  get command(): string {
    return (this.given ??= this.engine === undefined ? `process ${process.ppid}` : `engine ${this.engine}`);
  }

  /** This run's `state`, made on first use. */
  get<T>(state: RunState<T>): T {
    if (!this.held.has(state)) this.held.set(state, state.make(this));
    return this.held.get(state) as T;
  }

  /** What this run holds so far, by what each piece is (tests, debugging). */
  holds(): string[] {
    return [...this.held.keys()].map((state) => state.what);
  }
}

/**
 * Per process on purpose: the run this process serves. The engine starts a provider process per operation, so a
 * process serves one run (tests begin more, beginRun); every engine call reads it once and hands it down.
 */
let current = new RunContext();

/** The run this process serves. */
export function currentRun(): RunContext {
  return current;
}

/**
 * Starts a new run: everything the last one learnt is forgotten at once (tests; a new provider process), for
 * `command` (tests: another command). It keeps what the process was given (its settings, where its lines go, what
 * a test tuned) unless `given` says otherwise: the native plugin's server begins its run so, with the engine's log.
 */
export function beginRun(command?: string, given: RunGiven = {}): RunContext {
  const next = new RunContext(command, {
    log: given.log ?? current.log,
    engine: "engine" in given ? given.engine : current.engine,
  });
  next.tuning = current.tuning;
  next.settings = current.settings;
  current = next;
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
