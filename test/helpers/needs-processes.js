// The test files that start processes, each with what it starts: one list for both configs. `npm run test:unit`
// (jest.unit.config.js) leaves them out; every other file, in every jest run (`npm test`, CI, `npx jest <file>`),
// runs under test/helpers/no-child-process.js, which fails a test that starts a process. So a file that starts one
// and is not listed fails `npm test` too, and CI, which never runs test:unit, still keeps the fast loop working.
// Patterns are jest's testPathIgnorePatterns: regular expressions over the file's path, <rootDir> the repository.
const NEEDS_PROCESSES = [
  // the pulumi CLI, the programs and provider hosts it starts (cli-stack.test.ts too: its settings-file test runs the CLI);
  // rimuhosting-bill --stack and the plugin's bill (bill.test.ts, bill-dynamic.test.ts, budget-shrink-create.test.ts)
  "<rootDir>/test/engine/",
  "<rootDir>/test/package/packed\\.test\\.ts", // npm pack, npm install, tsc, jest in a user's project
  "<rootDir>/test/provider/host\\.test\\.ts", // the dynamic-provider host, over gRPC
  "<rootDir>/test/provider/serialization\\.test\\.ts", // the serialized provider in a fresh node
  "<rootDir>/test/emulator/cli\\.test\\.ts", // the rimuhosting-emulator command
  "<rootDir>/test/emulator/command\\.test\\.ts", // the rimuhosting-emulator command
  "<rootDir>/test/emulator/kill-durability\\.test\\.ts", // the emulator's command, SIGKILLed
  "<rootDir>/test/emulator/dashboard-browser\\.test\\.ts", // headless Chromium, driven over its DevTools pipe
  "<rootDir>/test/emulator/openapi-lint\\.test\\.ts", // @redocly/cli lint, from npx's cache
  "<rootDir>/test/package/", // npm, git, tsc and the release script, as a user and a release run them
  "<rootDir>/test/docs/(recipes|workflows)\\.test\\.ts", // the docs' recipes through npm and the CLI; actionlint
  "<rootDir>/test/docs/bill-comment\\.test\\.ts", // docs/ci.md's comment step: bash, curl and jq
  "<rootDir>/test/docs/bill-workflow\\.test\\.ts", // docs/ci.md's bill workflow: bash, the CLI, rimuhosting-bill --stack
  "<rootDir>/test/docs/drift-workflow\\.test\\.ts", // docs/ci.md's drift workflow: bash, the CLI, a gh recorder
  "<rootDir>/test/docs/postgres-backend\\.test\\.ts", // the PostgreSQL pages' steps: bash, the CLI, openssl
  "<rootDir>/test/bill/cli\\.test\\.ts", // the rimuhosting-bill command and the plugin's bill subcommand
  "<rootDir>/test/drift/cli\\.test\\.ts", // the rimuhosting-drift command and the plugin's drift subcommand
  "<rootDir>/test/adopt/cli\\.test\\.ts", // the rimuhosting-import-file command and the plugin's import-file
  "<rootDir>/test/adopt/killed-orders-cli\\.test\\.ts", // rimuhosting-killed-orders and the plugin's killed-orders, given bad input
  "<rootDir>/test/provider/impl/stack-identity\\.test\\.ts", // a stand-in `pulumi` answering `stack tag ls`: the identity from the backend alone
  "<rootDir>/test/provider/impl/order-marks-reads\\.test\\.ts", // a stand-in `pulumi` (node): the reads before a run's first order
  "<rootDir>/test/policy-pack/launcher\\.test\\.ts", // the pack's launcher script (sh, find, a stand-in runner)
  "<rootDir>/test/cost/shared-plan\\.test\\.ts", // provider processes (node, one under sh) sharing one plan file
  "<rootDir>/test/commands/", // every npm command and plugin subcommand, built, each in a process of its own
  "<rootDir>/test/provider/impl/backend-cli-errors\\.test\\.ts", // a stand-in `pulumi` on PATH that fails
  "<rootDir>/test/provider/impl/machine-lock\\.test\\.ts", // node processes holding the machine's lock (some killed)
  "<rootDir>/test/adopt/import-file-stack\\.test\\.ts", // --stack runs `pulumi config` (a stand-in pulumi on PATH)
  "<rootDir>/test/docs/control-recipes\\.test\\.ts", // docs/emulator.md's control API recipes: python3, go test
  "<rootDir>/test/docs/first-hour\\.test\\.ts", // npm run emulator, which builds the checkout and starts the emulator
  "<rootDir>/test/docs/import-walkthrough\\.test\\.ts", // the walkthrough's pulumi import, through the real CLI
  "<rootDir>/test/docs/adopt-account\\.test\\.ts", // import-file and pulumi import --file, through the real CLI
  "<rootDir>/test/docs/java-import\\.test\\.ts", // docs/java.md's import steps: the real CLI, Maven, the JDK
  "<rootDir>/test/native/server\\.test\\.ts", // the native plugin's own process, over gRPC
  "<rootDir>/test/native/budget-order\\.test\\.ts", // the native plugin's own processes, one per engine run
  "<rootDir>/test/native/lazy-loading\\.test\\.ts", // the native plugin's own process: which modules it loaded
  "<rootDir>/test/native/port-line\\.test\\.ts", // the built plugin, printing its port
  "<rootDir>/test/native/commands\\.test\\.ts", // the plugin's emulator command, bin/ and packed
  "<rootDir>/test/native/command-line\\.test\\.ts", // the plugin's --help, --version, in a terminal: bin/ and packed
  "<rootDir>/test/native/schema-cli\\.test\\.ts", // pulumi schema check
  "<rootDir>/test/native/sdk\\.test\\.ts", // scripts/gen-sdk.sh, Pulumi's SDK generators
  "<rootDir>/test/setup/", // the set-up scripts (bash) and what they build: Go, Maven, pip, the language hosts
];

/** Whether the test file at `testPath` is one of NEEDS_PROCESSES (`rootDir`: the repository). */
function needsProcesses(testPath, rootDir) {
  return NEEDS_PROCESSES.some((pattern) => new RegExp(pattern.replace("<rootDir>", rootDir)).test(testPath));
}

module.exports = { NEEDS_PROCESSES, needsProcesses };
