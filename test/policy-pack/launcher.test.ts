// The pack's launcher (policy-pack/analyzer) runs the compiled pack (bin/, written by `npm ci`'s prepare script), so
// that Pulumi's runner does not type-check the .ts files at every start. Compiled code older than a .ts file would run
// yesterday's policies (or yesterday's budget rules, cost/): the launcher refuses it and says what to run.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, expect, test } from "@jest/globals";

const LAUNCHER = path.join(__dirname, "../../policy-pack/analyzer");
let dir: string;

/** A copy of the launcher in a pack directory of its own, with a stand-in runner that says it started. */
function packWith(files: Record<string, number>): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pack-launcher-"));
  fs.copyFileSync(LAUNCHER, path.join(dir, "analyzer"));
  fs.chmodSync(path.join(dir, "analyzer"), 0o755);
  const runner = path.join(dir, "node_modules/@pulumi/pulumi/cmd/run-policy-pack/index.js");
  fs.mkdirSync(path.dirname(runner), { recursive: true });
  fs.writeFileSync(runner, 'console.log("runner started with", process.argv.slice(2).join(" "));\n');
  fs.mkdirSync(path.join(dir, "bin"));
  fs.mkdirSync(path.join(dir, "cost")); // the budget's rules (a link to provider/impl/cost in a clone)
  for (const [file, secondsAgo] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, file), "");
    const when = new Date(Date.now() - secondsAgo * 1000);
    fs.utimesSync(path.join(dir, file), when, when);
  }
  return path.join(dir, "analyzer");
}

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (analyzer: string) => spawnSync(analyzer, ["127.0.0.1:1234"], { encoding: "utf8" });

test("compiled code newer than every .ts file: the runner starts the pack", () => {
  const result = run(packWith({ "policies.ts": 60, "bin/index.js": 10 }));
  expect(result.stderr).toBe("");
  expect(result.stdout).toBe("runner started with 127.0.0.1:1234 .\n");
  expect(result.status).toBe(0);
});

test.each([
  ["older than a .ts file", { "policies.ts": 10, "bin/index.js": 60 }],
  ["missing", { "policies.ts": 10 }],
  [
    "older than a file of cost/, the budget's rules",
    { "policies.ts": 90, "cost/verdict.ts": 10, "bin/index.js": 60 },
  ],
])("compiled code %s: refused, saying to run npm run prepare", (_what, files) => {
  const result = run(packWith(files));
  expect(result.status).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toContain(
    "the policy pack's compiled code (bin/) is missing or older than its .ts files",
  );
  expect(result.stderr).toContain("run 'npm run prepare' in");
});
