#!/usr/bin/env node
/**
 * `npm test`: the type-checks (`npm run typecheck`: tsc, which also writes dist/, then the programs against it),
 * eslint and prettier (`npm run lint:eslint`, `npm run lint:format`), side by side, then jest
 * (`node dist/tools/test-with-cli.js`, with this script's arguments after `--then-tests`). Each check is one
 * single-threaded process; one after another they took about 100 CPU-s on a 2-core machine, CI's set-up waiting for
 * each in turn. Two lanes: eslint (its type-aware rules, about 60 s alone), and the type-checks then prettier (about
 * 35 s: prettier checks only files changed since a passing check, scripts/format-check.js). Jest needs only dist/, so
 * it starts as soon as that second lane passes, while eslint runs on beside it: the core the short lane leaves idle
 * goes to the tests. With one core the lanes run one after the other, then jest. Each check's output is printed when
 * it ends, with its time; a failed check fails the whole, named, once everything started has ended (jest is not
 * started when a type-check fails).
 */
const { spawn } = require("node:child_process");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const LANES = [["lint:eslint"], ["typecheck", "lint:format"]];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs `npm run <script>`; resolves to whether it passed, having printed its output. */
function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", script], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8");
      stream.on("data", (text) => (output += text));
    }
    const done = (passed, why) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`== npm run ${script}: ${passed ? "passed" : `failed (${why})`}, ${seconds} s\n`);
      process.stdout.write(output);
      resolve(passed);
    };
    child.on("error", (error) => done(false, error.message));
    child.on("close", (code, signal) => done(code === 0, signal ?? `exit ${code}`));
  });
}

async function lane(scripts) {
  const failed = [];
  for (const script of scripts) if (!(await run(script))) failed.push(script);
  return failed;
}

/** Runs jest through test-with-cli with `args`; resolves to whether it passed. */
function tests(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "dist", "tools", "test-with-cli.js"), ...args], {
      cwd: root,
      stdio: "inherit",
    });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
}

async function main() {
  const argv = process.argv.slice(2);
  const then = argv.indexOf("--then-tests");
  const testArgs = then === -1 ? undefined : argv.slice(then + 1);
  const [eslintLane, buildLane] = LANES;
  let failed;
  let testsPassed = true;
  if (os.availableParallelism() > 1) {
    const eslint = lane(eslintLane);
    const build = await lane(buildLane);
    if (testArgs !== undefined && build.length === 0) testsPassed = await tests(testArgs);
    failed = [...(await eslint), ...build];
  } else {
    failed = (await lane(LANES.flat())).flat();
    if (testArgs !== undefined && failed.length === 0) testsPassed = await tests(testArgs);
  }
  if (failed.length > 0) {
    process.stdout.write(`npm test: ${failed.map((s) => `npm run ${s}`).join(", ")} failed (above)\n`);
    process.exit(1);
  }
  if (!testsPassed) process.exit(1);
}

void main();
