/**
 * Every recipe of README.md and docs/ is run in a user's environment, or says why not (support/recipe-runs.ts): the
 * table names each recipe's test and how it builds the environment, and this file holds the table to the pages and
 * to the tests' sources. A recipe no test runs, a test that claims user-env.ts but builds its environment from this
 * process's (`...process.env`, or a shell() given an `env` without `clean: true`), or a "no process" entry without
 * its reason, fails here.
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

/** Whether `file` builds its commands' environments with user-env.ts and never from this process's. */
function onUserEnv(file: string): boolean {
  const text = read(file);
  return /\buserEnv\(/.test(text) && !/\.\.\.process\.env\b/.test(text);
}

/**
 * The calls of shell(), shellOk() and startServer() in `file` that pass an `env` without `clean: true`: those add
 * this process's environment under it (support/shell.ts), whatever userEnv built.
 */
function unscrubbedCalls(file: string): string[] {
  const text = read(file);
  const calls: string[] = [];
  for (const m of text.matchAll(/\b(?:shell|shellOk|startServer)\(/g)) {
    let end = m.index + m[0].length;
    for (let depth = 1; depth > 0 && end < text.length; end++)
      depth += text[end] === "(" ? 1 : text[end] === ")" ? -1 : 0;
    const call = text.slice(m.index, end);
    if (/\benv\b/.test(call) && !/\bclean: true\b/.test(call)) calls.push(call.split("\n")[0]!);
  }
  return calls;
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
    const runners = new Set(runs.flatMap(([, run]) => (run.environment === "user-env" ? [run.runner] : [])));
    const unscrubbed = [...runners].flatMap((runner) =>
      unscrubbedCalls(runner).map((c) => `${runner}: ${c}`),
    );
    expect(unscrubbed).toEqual([]);
  });

  it("no process: each says why", () => {
    const reasonless = runs.filter(
      ([, run]) => run.environment !== "user-env" && (run.why ?? "").length < 20,
    );
    expect(reasonless.map(([address]) => address)).toEqual([]);
  });
});
