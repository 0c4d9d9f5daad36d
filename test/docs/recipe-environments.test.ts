/**
 * Every recipe of README.md and docs/ is run in a user's environment, or says why not (support/recipe-runs.ts): the
 * table names each recipe's test and how it builds the environment, and this file holds the table to the pages and
 * to the tests' sources. A recipe no test runs, a test that claims user-env.ts but builds its environment from this
 * process's (`...process.env`, or a shell() given an env without `clean: true`), or a table that says "harness" of
 * a test already on user-env.ts, fails here.
 * Static: it reads files, runs nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, codeBlocks, documentationFiles } from "./support/code-blocks";
import { RECIPE_RUNS, type RecipeRun } from "./support/recipe-runs";

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");

/** A test file's text and that of the modules it imports by a relative path (one level: its support modules). */
function withImports(file: string): string {
  const text = read(file);
  const imported = [...text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)].flatMap((m) => {
    const module = path.join(path.dirname(file), `${m[1]!}.ts`);
    return fs.existsSync(path.join(REPO_ROOT, module)) ? [read(module)] : [];
  });
  return [text, ...imported].join("\n");
}

/**
 * The calls of support/shell.ts's runners in `text` that give an `env` without `clean: true`: shell() lays such an
 * env over this process's, so a recipe run that way is not in a user's environment whatever env says.
 */
function unclean(text: string): string[] {
  return [...text.matchAll(/\b(?:shell|shellOk|startServer)\(/g)].flatMap((m) => {
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < text.length; end++) {
      depth += text[end] === "(" ? 1 : text[end] === ")" ? -1 : 0;
      if (depth === 0) break;
    }
    const call = text.slice(m.index, end + 1);
    return /\benv\b/.test(call) && !/\bclean: true\b/.test(call) ? [call.split("\n")[0]!] : [];
  });
}

/**
 * Whether `file` builds its commands' environments with user-env.ts and never from this process's: no
 * `...process.env`, and no shell() given an env without `clean: true`.
 */
function onUserEnv(file: string): boolean {
  const text = read(file);
  return /\buserEnv\(/.test(text) && !/\.\.\.process\.env\b/.test(text) && unclean(text).length === 0;
}

const recipes = documentationFiles().flatMap((file) =>
  codeBlocks(file).flatMap((b) => (b.marker?.kind === "recipe" ? [`${file}#${b.marker.id}`] : [])),
);
const runs = Object.entries(RECIPE_RUNS) as [string, RecipeRun][];

describe("the recipes' environments (test/docs/support/recipe-runs.ts)", () => {
  it("name every recipe of the pages, and nothing else", () => {
    expect(recipes.filter((address) => !(address in RECIPE_RUNS))).toEqual([]);
    expect(Object.keys(RECIPE_RUNS).filter((address) => !recipes.includes(address))).toEqual([]);
  });

  it("name, for each, a test that asks for it by its address", () => {
    const missing = runs.filter(
      ([address, run]) =>
        !fs.existsSync(path.join(REPO_ROOT, run.runner)) || !withImports(run.runner).includes(`"${address}"`),
    );
    expect(missing.map(([address, run]) => `${address}: ${run.runner}`)).toEqual([]);
  });

  it("user-env: the test builds the environment with userEnv, never from its own process's", () => {
    const other = runs.filter(([, run]) => run.environment === "user-env" && !onUserEnv(run.runner));
    expect(other.map(([address, run]) => `${address}: ${run.runner}`)).toEqual([]);
  });

  it("no process and harness: each says why; a harness test already on userEnv is said to be", () => {
    const reasonless = runs.filter(
      ([, run]) => run.environment !== "user-env" && (run.why ?? "").length < 20,
    );
    expect(reasonless.map(([address]) => address)).toEqual([]);
    const moved = runs.filter(([, run]) => run.environment === "harness" && onUserEnv(run.runner));
    expect(moved.map(([address, run]) => `${address}: ${run.runner} is on userEnv now`)).toEqual([]);
  });
});
