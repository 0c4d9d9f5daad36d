/**
 * The inventory of the commands the pages give (support/command-uses.ts finds them): for each, the test that runs it
 * from the files a user runs (the built dist/, the packed package, the plugin), with the text of that test (or of a
 * support module it imports) that shows it runs them; or why no test runs it. test/docs/command-inventory.test.ts
 * holds this table to the pages and to the tests' sources. A line inside a code block marked `<!-- not run: … -->`
 * needs no entry: the marker says why.
 */
export type CommandRun =
  | {
      /** The test file (or support module of tests) that runs the command. */
      runner: string;
      /** Text of the runner (or a module it imports by a relative path) that shows it runs the built command. */
      shows: string;
    }
  | { notRun: string };

const runs = (runner: string, shows: string): CommandRun => ({ runner, shows });
const notRun = (why: string): CommandRun => ({ notRun: why });

export const COMMAND_RUNS: Readonly<Record<string, CommandRun>> = {
  "npm run demo": runs("test/package/demo.test.ts", 'npm("demo")'),
  "npm run build": runs("test/package/support/offline-project.ts", 'npm(["run", "build"], checkout)'),
  "npm run emulator": runs("test/docs/first-hour.test.ts", "scripts.emulator"),
  "npm run bench": runs("test/commands/bench.test.ts", "dist/bench/index.js"),
  "node dist/bench/index.js": runs("test/commands/bench.test.ts", "dist/bench/index.js"),
  "npm run plugin:pack": runs("test/engine/native-install.test.ts", "dist/provider/native/pack.js"),
  "npm run provider:size": runs("test/provider/serialization.test.ts", "dist/tools/serialize-provider.js"),
  "npm run release:build": runs("test/engine/release-support.ts", "dist/tools/release/build.js"),
  "npm run sdk": runs("test/native/sdk.test.ts", "scripts.sdk"),
  "npm run sdk:gen": runs("test/native/sdk.test.ts", "gen-sdk.sh"),
  "npx @redocly/cli": runs("test/emulator/openapi-lint.test.ts", "@redocly/cli"),
  "rimuhosting-emulator": runs("test/package/packed.test.ts", "node_modules/.bin/rimuhosting-emulator"),
  "rimuhosting-bill": runs("test/bill/cli.test.ts", "dist/provider/bill/cli.js"),
  "rimuhosting-drift": runs("test/drift/cli.test.ts", "dist/provider/drift/cli.js"),
  "rimuhosting-import-file": runs("test/adopt/cli.test.ts", "dist/provider/adopt/cli.js"),
  "rimuhosting-killed-orders": runs(
    "test/engine/killed-destroy.test.ts",
    "dist/provider/adopt/killed-orders.js",
  ),
  "plugin emulator": runs("test/native/commands.test.ts", '"emulator"'),
  "plugin bill": runs("test/bill/cli.test.ts", '["bill", ...args]'),
  "plugin drift": runs("test/drift/cli.test.ts", '["drift", ...args]'),
  "plugin import-file": runs("test/adopt/cli.test.ts", '["import-file", ...args]'),
  "plugin killed-orders": runs("test/engine/killed-destroy.test.ts", '["killed-orders"]'),

  "npm test": notRun(
    "the suite itself: CI runs it in a fresh clone (.ci/run); test/package/npm-test.test.ts its jest step",
  ),
  "npm run test:unit": notRun("jest over the sources, the fast loop: the files it runs are the suite's own"),
  "npx jest": notRun("jest itself, over the sources: every test file runs under it"),
  "npm run typecheck": notRun("a step of `npm test` (scripts/static-checks.js), which CI runs"),
  "npm run lint": notRun("a step of `npm test` (scripts/static-checks.js), which CI runs"),
  "npm run format": notRun("rewrites the files in place; `npm test` runs its check, lint:format"),
  "npm run generate": notRun(
    "writes the generated files: test/provider/impl/vps-fields.test.ts holds them equal to what it writes",
  ),
  "npm run schema": notRun("writes provider/native/schema.json: test/native/schema.test.ts holds it equal"),
  "npm run package": notRun(
    "packs the checkout: test/package/support/offline-project.ts packs it with the same function for the packed, " +
      "README and recipe tests",
  ),
  "node dist/tools/release/sdk-packages.js": notRun(
    "a step of the release build, which test/engine/release-support.ts runs built; sdk-packages.test.ts installs it",
  ),
  "npm run fault-matrix": notRun(
    "minutes of CPU: test/provider/fault-matrix.test.ts runs its 42 cells, test/engine/engine-kill.test.ts its " +
      "engineKilled column",
  ),
  "npm run emulator:kill-trials": notRun(
    "30 trials of minutes: test/emulator/kill-durability.test.ts runs its trial (tools/emulator-kill-trials.ts)",
  ),
  "npm run emulator:sweep": notRun(
    "a long sweep: test/emulator/bad-requests.test.ts runs its cases (tools/emulator-sweep.ts)",
  ),
};
