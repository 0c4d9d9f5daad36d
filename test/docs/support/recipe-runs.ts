/**
 * Which test runs each recipe of README.md and docs/ (<!-- recipe: id -->, see code-blocks.ts), and in what
 * environment; test/docs/recipe-environments.test.ts holds this table to the pages and to the tests' sources.
 *
 * - "user-env": the test runs the recipe's commands in the environment test/docs/support/user-env.ts builds (what
 *   the page sets, the harness list of docs/testing.md, nothing else of the test's process), so a recipe that
 *   depends on a variable its page does not set fails there.
 * - "no process": the recipe is not a command line run on its own: text the test compares with what a command
 *   prints or writes, keys it merges into a file, a workflow actionlint checks, code run in jest's own process.
 *
 * There is no third kind: a recipe run in the test's own environment (process.env) could depend on what the harness
 * adds and no page sets, as `--event-log` did on PULUMI_DEBUG_COMMANDS.
 */
export type RecipeEnvironment = "user-env" | "no process";

export interface RecipeRun {
  /** The test file that runs it (or the support module of several tests that holds the recipe's address). */
  runner: string;
  environment: RecipeEnvironment;
  /** For "no process": what the test does with it, and why it runs no command of its own. */
  why?: string;
}

const userEnv = (runner: string): RecipeRun => ({ runner, environment: "user-env" });
const noProcess = (runner: string, why: string): RecipeRun => ({ runner, environment: "no process", why });

export const RECIPE_RUNS: Readonly<Record<string, RecipeRun>> = {
  "README.md#install": userEnv("test/package/readme.test.ts"),
  "README.md#emulator": userEnv("test/package/readme.test.ts"),
  "README.md#configure": userEnv("test/package/readme.test.ts"),
  "README.md#quickstart": userEnv("test/package/readme.test.ts"),
  "README.md#up": userEnv("test/package/readme.test.ts"),

  "docs/automation-api.md#deploy": userEnv("test/engine/automation-api.test.ts"),
  "docs/automation-api.md#run": userEnv("test/engine/automation-api.test.ts"),
  "docs/automation-api.md#inline": userEnv("test/engine/inline-programs.test.ts"),
  "docs/automation-api.md#inline-run": userEnv("test/engine/inline-programs.test.ts"),

  "docs/ci.md#workflow": noProcess(
    "test/docs/workflows.test.ts",
    "actionlint checks it; its steps need GitHub",
  ),
  "docs/ci.md#oidc-workflow": noProcess(
    "test/docs/workflows.test.ts",
    "actionlint checks it; its steps need GitHub and a cloud's OIDC",
  ),
  "docs/ci.md#bill-workflow": userEnv("test/docs/bill-workflow.test.ts"),
  "docs/ci.md#plugin-path": userEnv("test/docs/bill-comment.test.ts"),
  "docs/ci.md#drift-workflow": userEnv("test/docs/drift-workflow.test.ts"),
  "docs/ci.md#postgres-env": userEnv("test/docs/postgres-backend.test.ts"),

  "docs/client.md#example": userEnv("test/docs/recipes.test.ts"),

  "docs/cost.md#bill-example": noProcess("test/docs/bill-comment.test.ts", "the bill the command renders"),
  "docs/cost.md#bill-json-example": noProcess(
    "test/docs/bill-comment.test.ts",
    "the JSON the command writes",
  ),
  "docs/cost.md#compare-example": noProcess("test/docs/bill-comment.test.ts", "a part of the rendered bill"),
  "docs/cost.md#bill-stack": userEnv("test/engine/release-policy-pack.test.ts"),
  "docs/cost.md#bill-event-log": userEnv("test/engine/release-policy-pack.test.ts"),
  "docs/cost.md#bill-json": userEnv("test/engine/release-policy-pack.test.ts"),
  "docs/cost.md#policy-pack-install": userEnv("test/engine/release-policy-pack.test.ts"),
  "docs/cost.md#policy-config": noProcess(
    "test/engine/release-policy-pack.test.ts",
    "the file the preview reads, written as shown",
  ),
  "docs/cost.md#policy-pack-preview": userEnv("test/engine/release-policy-pack.test.ts"),

  "docs/emulator.md#start": userEnv("test/docs/recipes.test.ts"),
  "docs/emulator.md#two-forms": noProcess(
    "test/docs/first-hour.test.ts",
    "the same command lines as README.md#emulator and #start, which run in user-env",
  ),
  "docs/emulator.md#options": userEnv("test/docs/recipes.test.ts"),
  "docs/emulator.md#banner-time-scale": noProcess("test/docs/recipes.test.ts", "a line the banner prints"),
  "docs/emulator.md#plugin": userEnv("test/engine/release-emulator.test.ts"),
  "docs/emulator.md#from-code": userEnv("test/docs/recipes.test.ts"),
  "docs/emulator.md#control-typescript": noProcess(
    "test/emulator/control-recipes.test.ts",
    "run in jest's own process (the fast loop), against an emulator there",
  ),
  "docs/emulator.md#control-python": userEnv("test/docs/control-recipes.test.ts"),
  "docs/emulator.md#control-go": userEnv("test/docs/control-recipes.test.ts"),

  "docs/go.md#release-go": userEnv("test/package/support/release-routes.ts"),
  "docs/go.md#emulator": userEnv("test/engine/first-hour-release.test.ts"),
  "docs/go.md#try-it": userEnv("test/engine/first-hour-release.test.ts"),

  "docs/java.md#release-maven": userEnv("test/package/support/release-routes.ts"),
  "docs/java.md#emulator": userEnv("test/engine/first-hour-release.test.ts"),
  "docs/java.md#try-it": userEnv("test/engine/first-hour-release.test.ts"),
  "docs/java.md#import": userEnv("test/docs/java-import.test.ts"),
  "docs/java.md#import-options": noProcess(
    "test/docs/java-import.test.ts",
    "a line pasted into App.java, which the next preview compiles in user-env",
  ),
  "docs/java.md#import-check": userEnv("test/docs/java-import.test.ts"),
  "docs/java.md#adopt-account": userEnv("test/docs/java-import.test.ts"),
  "docs/java.md#adopt-call": noProcess(
    "test/docs/java-import.test.ts",
    "a line pasted into App.java, which the next preview compiles in user-env",
  ),
  "docs/java.md#adopt-check": userEnv("test/docs/java-import.test.ts"),
  "docs/java.md#budget": userEnv("test/docs/java-import.test.ts"),
  "docs/java.md#release": userEnv("test/docs/java-import.test.ts"),

  "docs/installation-configuration.md#release-npm": userEnv("test/package/support/release-routes.ts"),
  "docs/installation-configuration.md#release-pip": userEnv("test/package/support/release-routes.ts"),
  "docs/installation-configuration.md#release-go": userEnv("test/package/support/release-routes.ts"),
  "docs/installation-configuration.md#verify": userEnv("test/engine/release-verify.test.ts"),
  "docs/installation-configuration.md#verify-script": userEnv("test/engine/release-verify.test.ts"),
  "docs/installation-configuration.md#on-error": userEnv("test/engine/inline-programs.test.ts"),
  "docs/installation-configuration.md#pgpass": noProcess(
    "test/docs/postgres-backend.test.ts",
    "a line of ~/.pgpass, written as shown; the login after it runs in user-env",
  ),
  "docs/installation-configuration.md#postgres-login": userEnv("test/docs/postgres-backend.test.ts"),

  "docs/native-plugin.md#language-hosts": userEnv("test/docs/first-hour.test.ts"),
  "docs/native-plugin.md#outside-order": userEnv("test/docs/import-walkthrough.test.ts"),
  "docs/native-plugin.md#import-walkthrough": userEnv("test/docs/import-walkthrough.test.ts"),
  "docs/native-plugin.md#adopt-account": userEnv("test/docs/adopt-account.test.ts"),

  "docs/python.md#release-pip": userEnv("test/package/support/release-routes.ts"),
  "docs/python.md#python-cmd": userEnv("test/docs/first-hour.test.ts"),
  "docs/python.md#emulator": userEnv("test/engine/first-hour-release.test.ts"),
  "docs/python.md#try-it": userEnv("test/engine/first-hour-release.test.ts"),

  "docs/resource-options.md#yaml-program": userEnv("test/engine/resource-options.test.ts"),
  "docs/resource-options.md#yaml-steps": userEnv("test/engine/resource-options.test.ts"),
  "docs/resource-options.md#dynamic-program": userEnv("test/engine/resource-options.test.ts"),
  "docs/resource-options.md#hooks": userEnv("test/engine/inline-programs.test.ts"),
  "docs/resource-options.md#hooks-output": noProcess(
    "test/engine/inline-programs.test.ts",
    "the lines the hooks print, compared with the output of `node inline.ts up`",
  ),

  "docs/testing.md#program": userEnv("test/docs/recipes.test.ts"),
  "docs/testing.md#against-the-emulator": userEnv("test/docs/recipes.test.ts"),
  "docs/testing.md#jest-setup": userEnv("test/docs/recipes.test.ts"),
  "docs/testing.md#jest-config": noProcess(
    "test/docs/recipes.test.ts",
    "keys merged into the project's package.json",
  ),
  "docs/testing.md#unit-test": userEnv("test/docs/recipes.test.ts"),

  "docs/troubleshooting.md#import": userEnv("test/docs/recipes.test.ts"),
  "docs/troubleshooting.md#import-sdk-3-270": noProcess(
    "test/docs/support/import-failure.ts",
    "the failure `pulumi import` prints with an older SDK, compared",
  ),
  "docs/troubleshooting.md#state-move": userEnv("test/engine/state-moves.test.ts"),
  "docs/troubleshooting.md#stack-migrate": userEnv("test/engine/state-moves.test.ts"),
  "docs/troubleshooting.md#lost-create": userEnv("test/engine/state-moves.test.ts"),
  "docs/troubleshooting.md#adopt-old-order": userEnv("test/engine/state-moves.test.ts"),

  "docs/typescript.md#project-pulumi-yaml": noProcess(
    "test/package/readme.test.ts",
    "a project file, written as shown; the README's steps run in it in user-env",
  ),
  "docs/typescript.md#project-package-json": noProcess(
    "test/package/readme.test.ts",
    "a project file, written as shown; the README's steps run in it in user-env",
  ),
  "docs/typescript.md#project-tsconfig": noProcess(
    "test/package/readme.test.ts",
    "a project file, written as shown; the README's steps run in it in user-env",
  ),
  "docs/typescript.md#release-npm": userEnv("test/package/support/release-routes.ts"),
  "docs/typescript.md#emulator": userEnv("test/engine/first-hour-release.test.ts"),
  "docs/typescript.md#try-it": userEnv("test/engine/first-hour-release.test.ts"),

  "docs/vps.md#example": userEnv("test/docs/recipes.test.ts"),
  "docs/vps.md#adopt": userEnv("test/docs/recipes.test.ts"),

  "docs/yaml.md#emulator": userEnv("test/engine/first-hour-release.test.ts"),
  "docs/yaml.md#try-it": userEnv("test/engine/first-hour-release.test.ts"),
};
