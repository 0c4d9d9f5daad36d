/**
 * The state a provider process keeps at module level, each piece with its reason. Everything one run learns
 * (shared reads, ledgers, marks, running totals) lives in the run context (run-context.ts), which a new run
 * replaces whole, and what a run was given (its settings, where its lines go, what a test tuned) is the run's too;
 * what is here outlives a run on purpose: connections (HTTP agents, the engine's log, its watch), caches keyed by
 * what a run passes, the plugin's modules, and whose settings messages name. A test seam is never here: tests tune
 * the run they serve (RunTuning).
 *
 * test/provider/impl/process-state.test.ts reads every module of provider/ and fails when one keeps module-level
 * state (a `let`, or a Map or Set it changes) that is not listed here: a new piece is either the run's (put it in
 * RunContext) or listed with its reason.
 */
export interface ProcessState {
  /** The module, from the repository's root. */
  file: string;
  /** The variable. */
  name: string;
  /** Why it outlives a run. */
  why: string;
}

const CONFIGURATION = "the configuration this process was given (configure() sets it once per process)";

export const PROCESS_STATE: readonly ProcessState[] = [
  {
    file: "provider/impl/lookahead/listing-lookup.ts",
    name: "indexes",
    why: "each listing's index, held weakly by the listing itself: it goes with its listing, whichever run read it",
  },
  {
    file: "provider/impl/ownership/backend-states.ts",
    name: "HOLDERS",
    why: "each states read's index of which stack holds an order, held weakly by the read: it goes with its read",
  },
  {
    file: "provider/impl/ownership/new-order-marks.ts",
    name: "TOKENS",
    why: "each stack's token, a hash of its project and stack names: the same answer in every run",
  },
  {
    file: "provider/impl/engine/run-context.ts",
    name: "current",
    why: "the run itself, one per provider process",
  },
  {
    file: "provider/impl/engine/settings-source.ts",
    name: "explicitProvider",
    why: `whose arguments the settings are: ${CONFIGURATION}`,
  },
  {
    file: "provider/impl/engine/settings-source.ts",
    name: "fromEnvironment",
    why: `which budget keys were read from their variables: ${CONFIGURATION}`,
  },
  {
    file: "provider/impl/lifecycle/runtime-config.ts",
    name: "clients",
    why: "one HTTP client (one keep-alive agent) per configuration: its connections serve every run",
  },
  {
    file: "provider/impl/engine/engine-watch.ts",
    name: "watch",
    why: "the watch on the engine that started the process: when the engine dies the process stops, not a run",
  },
  {
    file: "provider/native/engine-log.ts",
    name: "active",
    why: "the plugin's connection to the engine's log, opened once per process",
  },
  {
    file: "provider/native/parts.ts",
    name: "loaded",
    why: "the plugin's modules, loaded with their first call: code, not what a run learnt",
  },
];
