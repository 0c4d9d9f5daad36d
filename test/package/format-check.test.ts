/**
 * `npm run lint:format` (scripts/format-check.js) remembers files that passed prettier's check by their path in the
 * repository and their bytes, not by where the clone is: a fresh clone elsewhere (each CI run) checks only what
 * changed, and a file badly formatted fails whatever the cache holds. Run on a small git repository of its own (the
 * script, two files, prettier linked from this checkout), its cache in a directory of the test's (XDG_CACHE_HOME).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
let work: string;
let cacheHome: string;

/** A git repository with the script, prettier's settings and two well-formatted files. */
function repository(name: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.copyFileSync(path.join(ROOT, "scripts/format-check.js"), path.join(dir, "scripts/format-check.js"));
  fs.symlinkSync(path.join(ROOT, "node_modules/prettier"), path.join(dir, "node_modules/prettier"));
  fs.writeFileSync(path.join(dir, ".gitignore"), "node_modules\n");
  fs.writeFileSync(path.join(dir, ".prettierrc.json"), '{ "printWidth": 110 }\n');
  fs.writeFileSync(path.join(dir, "a.ts"), "export const a = 1;\n");
  fs.writeFileSync(path.join(dir, "b.md"), "# B\n\nSome words.\n");
  spawnSync("git", ["init", "-q", dir]);
  return dir;
}

function check(dir: string) {
  const run = spawnSync(process.execPath, [path.join(dir, "scripts/format-check.js")], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, XDG_CACHE_HOME: cacheHome, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const summary = /format: (\d+) files, (\d+) checked by prettier/.exec(run.stdout);
  return {
    status: run.status,
    output: run.stdout + run.stderr,
    checked: summary ? Number(summary[2]) : undefined,
  };
}

beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "format-check-"));
  cacheHome = path.join(work, "cache");
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

test("a clone elsewhere checks only what changed since a passing check", () => {
  const first = repository("first");
  expect(check(first)).toMatchObject({ status: 0, checked: 5 }); // the script and the settings files too
  expect(check(first)).toMatchObject({ status: 0, checked: 0 });

  const second = repository("second"); // another path, the same bytes: what a fresh CI clone is
  expect(check(second)).toMatchObject({ status: 0, checked: 0 });
  fs.appendFileSync(path.join(second, "a.ts"), "export const b = 2;\n");
  expect(check(second)).toMatchObject({ status: 0, checked: 1 });
});

test("a badly formatted file fails, named, whatever the cache holds, and is not remembered", () => {
  const dir = repository("bad");
  expect(check(dir)).toMatchObject({ status: 0 });
  fs.writeFileSync(path.join(dir, "a.ts"), "export const a  =  1\n");
  for (let run = 0; run < 2; run++) {
    const result = check(dir);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("[warn] a.ts");
  }
});

test("a change to prettier's settings checks everything again", () => {
  const dir = repository("settings");
  expect(check(dir)).toMatchObject({ status: 0, checked: 5 });
  fs.writeFileSync(path.join(dir, ".prettierrc.json"), '{ "printWidth": 110, "endOfLine": "lf" }\n');
  expect(check(dir)).toMatchObject({ status: 0, checked: 5 });
});
