// `npm run test:unit`: the fast loop. Every test file that needs neither the pulumi CLI nor a child process (a
// program, a provider host, the emulator's command, npm): the client, the emulator, the provider called directly,
// the generator, the public types. `npm test` runs everything (this plus the files listed below), and CI runs that.
const base = require("./jest.config.js");

/**
 * The files that start processes, each with what it starts. A file that starts one and is not listed fails under
 * test:unit (test/helpers/no-child-process.js says so): add it here.
 */
const NEEDS_PROCESSES = [
  "<rootDir>/test/engine/(?!cli-stack\\.test)", // the pulumi CLI, the programs and provider hosts it starts
  "<rootDir>/test/package/packed\\.test\\.ts", // npm pack, npm install, tsc, jest in a user's project
  "<rootDir>/test/provider/host\\.test\\.ts", // the dynamic-provider host, over gRPC
  "<rootDir>/test/provider/serialization\\.test\\.ts", // the serialized provider in a fresh node
  "<rootDir>/test/emulator/cli\\.test\\.ts", // the rimuhosting-emulator command
  "<rootDir>/test/emulator/command\\.test\\.ts", // the rimuhosting-emulator command
  "<rootDir>/test/emulator/kill-durability\\.test\\.ts", // the emulator's command, SIGKILLed
  "<rootDir>/test/package/", // npm, git, tsc and the release script, as a user and a release run them
  "<rootDir>/test/docs/(recipes|workflows)\\.test\\.ts", // the docs' recipes through npm and the CLI; actionlint
  "<rootDir>/test/docs/bill-comment\\.test\\.ts", // docs/ci.md's comment step: bash, curl and jq
  "<rootDir>/test/docs/drift-workflow\\.test\\.ts", // docs/ci.md's drift workflow: bash, the CLI, a gh recorder
  "<rootDir>/test/bill/cli\\.test\\.ts", // the rimuhosting-bill command and the plugin's bill subcommand
  "<rootDir>/test/drift/cli\\.test\\.ts", // the rimuhosting-drift command and the plugin's drift subcommand
  "<rootDir>/test/adopt/cli\\.test\\.ts", // the rimuhosting-import-file command and the plugin's import-file
  "<rootDir>/test/adopt/import-file-stack\\.test\\.ts", // --stack runs `pulumi config` (a stand-in pulumi on PATH)
  "<rootDir>/test/docs/first-hour\\.test\\.ts", // npm run emulator, which builds the checkout and starts the emulator
  "<rootDir>/test/docs/import-walkthrough\\.test\\.ts", // the walkthrough's pulumi import, through the real CLI
  "<rootDir>/test/docs/adopt-account\\.test\\.ts", // import-file and pulumi import --file, through the real CLI
  "<rootDir>/test/native/server\\.test\\.ts", // the native plugin's own process, over gRPC
  "<rootDir>/test/native/lazy-loading\\.test\\.ts", // the native plugin's own process: which modules it loaded
  "<rootDir>/test/native/commands\\.test\\.ts", // the plugin's emulator command, bin/ and packed
  "<rootDir>/test/native/command-line\\.test\\.ts", // the plugin's --help, --version, in a terminal: bin/ and packed
  "<rootDir>/test/native/schema-cli\\.test\\.ts", // pulumi schema check
  "<rootDir>/test/native/sdk\\.test\\.ts", // scripts/gen-sdk.sh, Pulumi's SDK generators
];

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testPathIgnorePatterns: ["/node_modules/", ...NEEDS_PROCESSES],
  setupFiles: [...(base.setupFiles ?? []), "<rootDir>/test/helpers/no-child-process.js"],
};
