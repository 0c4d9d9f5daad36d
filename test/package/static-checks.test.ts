/**
 * `npm test`'s order (scripts/static-checks.js): eslint in one lane, the type-checks then prettier in the other, and
 * jest started as soon as that second lane passes, while eslint runs on; a failed check fails `npm test` after
 * what was started has ended, and a failed type-check starts no jest. Run on a stand-in repository: the script,
 * a package.json whose checks are shell commands that write when they start and end, and a stand-in
 * dist/tools/test-with-cli.js that records its arguments.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "static-checks-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Each check logs "<name> start" and "<name> end" to events.log; `exit` gives its exit code. */
function standIn(exits: { eslint?: number; typecheck?: number; format?: number }) {
  const check = (name: string, seconds: number, exit = 0) =>
    `echo ${name} start >> events.log; sleep ${seconds}; echo ${name} end >> events.log; exit ${exit}`;
  fs.mkdirSync(path.join(dir, "scripts"));
  fs.mkdirSync(path.join(dir, "dist/tools"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "scripts/static-checks.js"), path.join(dir, "scripts/static-checks.js"));
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "stand-in",
      private: true,
      scripts: {
        "lint:eslint": check("eslint", 3, exits.eslint),
        typecheck: check("typecheck", 0.2, exits.typecheck),
        "lint:format": check("format", 0.2, exits.format),
      },
    }),
  );
  fs.writeFileSync(
    path.join(dir, "dist/tools/test-with-cli.js"),
    `require("fs").appendFileSync("events.log", "jest " + JSON.stringify(process.argv.slice(2)) + "\\n");`,
  );
  const run = spawnSync(process.execPath, ["scripts/static-checks.js", "--then-tests", "--ci", "a.test.ts"], {
    cwd: dir,
    encoding: "utf8",
  });
  const events = fs.readFileSync(path.join(dir, "events.log"), "utf8").trim().split("\n");
  return { status: run.status, stdout: run.stdout, events };
}

test("jest starts once the type-checks and prettier pass, beside eslint (after it, on one core)", () => {
  const { status, events } = standIn({});
  expect(status).toBe(0);
  const at = (event: string) => events.indexOf(event);
  const jest = at('jest ["--ci","a.test.ts"]');
  expect(jest).toBeGreaterThan(at("format end"));
  if (os.availableParallelism() > 1) {
    expect(jest).toBeLessThan(at("eslint end"));
    expect(at("typecheck start")).toBeLessThan(at("eslint end"));
  } else expect(jest).toBeGreaterThan(at("eslint end"));
});

test("a failed eslint fails npm test, named, after jest has run", () => {
  const { status, stdout, events } = standIn({ eslint: 1 });
  expect(status).toBe(1);
  expect(events).toContain('jest ["--ci","a.test.ts"]');
  expect(stdout).toContain("npm test: npm run lint:eslint failed (above)");
});

test("a failed type-check starts no jest", () => {
  const { status, stdout, events } = standIn({ typecheck: 2 });
  expect(status).toBe(1);
  expect(events.filter((event) => event.startsWith("jest"))).toEqual([]);
  expect(stdout).toContain("npm run typecheck failed");
});
