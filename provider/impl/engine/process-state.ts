/**
 * The state a provider process keeps at module level, each piece with its reason. Everything one run learns
 * (shared reads, ledgers, marks, running totals) lives in the run context (run-context.ts), which a new run
 * replaces whole; what is here outlives a run on purpose: the configuration the process was given, connections,
 * the watch on the engine, and test seams (a value derived from code alone is a constant, built as its module
 * loads).
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
const TEST_SEAM = "a test seam (provider/impl/testing.ts), unset in a real run";

export const PROCESS_STATE: readonly ProcessState[] = [
  {
    file: "provider/impl/account/plan-files.ts",
    name: "sweptThisProcess",
    why: "the temporary directory's old plan files were swept: tidiness, once per process, whatever the run",
  },
  {
    file: "provider/impl/lookahead/listing-lookup.ts",
    name: "indexes",
    why: "each listing's index, held weakly by the listing itself: it goes with its listing, whichever run read it",
  },
  {
    file: "provider/impl/engine/run-context.ts",
    name: "current",
    why: "the run itself, one per provider process",
  },
  { file: "provider/impl/lifecycle/runtime-config.ts", name: "stackConfig", why: CONFIGURATION },
  {
    file: "provider/impl/lifecycle/runtime-config.ts",
    name: "retry",
    why: `the retries' and pace's settings: ${CONFIGURATION}`,
  },
  {
    file: "provider/impl/lifecycle/runtime-config.ts",
    name: "pacer",
    why: "the pace every client of the process keeps together: requests of every run count against the one quota",
  },
  { file: "provider/impl/budget/budget.ts", name: "current", why: `the budget's settings: ${CONFIGURATION}` },
  {
    file: "provider/impl/engine/settings-source.ts",
    name: "explicitProvider",
    why: `whose arguments the settings are: ${CONFIGURATION}`,
  },
  {
    file: "provider/impl/engine/deployment.ts",
    name: "nativeEngine",
    why: "the engine's address the native plugin was started with: one per process",
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
    file: "provider/impl/engine/engine-log.ts",
    name: "hostLog",
    why: "the dynamic host's connection to the engine's log, opened once per process",
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
  {
    file: "provider/data-sources/program-client.ts",
    name: "clientSource",
    why: "where data sources get their client: the program's config, or the plugin's (set once per process)",
  },
  {
    file: "provider/data-sources/program-client.ts",
    name: "quieted",
    why: "a process listener added once (Node's rejectionHandled warning), never per run",
  },
  {
    file: "provider/impl/lifecycle/runtime-config.ts",
    name: "recentDigests",
    why: "the digests of the last few settings' texts: a function of the text, the same in every run",
  },
  { file: "provider/impl/engine/log.ts", name: "sink", why: `where log lines go: ${TEST_SEAM}` },
  {
    file: "provider/impl/engine/log.ts",
    name: "exitWrites",
    why: "whether the process's exit writes the lines still waiting (a listener added once per process)",
  },
  { file: "provider/impl/lifecycle/runtime-config.ts", name: "readMsOverride", why: TEST_SEAM },
  { file: "provider/impl/lifecycle/runtime-config.ts", name: "retryDelayOverride", why: TEST_SEAM },
  { file: "provider/impl/lifecycle/vps-create.ts", name: "createLookupGraceMs", why: TEST_SEAM },
  { file: "provider/impl/account/catalog.ts", name: "keptForAllRuns", why: TEST_SEAM },
  { file: "provider/impl/ordering/previewed-wait.ts", name: "waitOverride", why: TEST_SEAM },
  { file: "provider/impl/ordering/previewed-wait.ts", name: "waitStarting", why: TEST_SEAM },
  {
    file: "provider/impl/ownership/backend-reader.ts",
    name: "reader",
    why: `where the backend's states and a stack's history are read from: ${TEST_SEAM}`,
  },
  {
    file: "provider/impl/ownership/stack-identity.ts",
    name: "reader",
    why: `where a stack's identity is read from: ${TEST_SEAM}`,
  },
  {
    file: "provider/impl/ownership/stack-identity.ts",
    name: "beforeTagSet",
    why: `what runs between reading no stack tag and setting one: ${TEST_SEAM}`,
  },
];
