#!/usr/bin/env node
/**
 * `npm test`'s checks before jest: the type-checks (`npm run typecheck`: tsc, which also writes dist/, then the
 * programs against it), eslint and prettier (`npm run lint:eslint`, `npm run lint:format`), side by side. Each is one
 * single-threaded process; one after another they took about 100 CPU-s in a row on a 2-core machine, CI's set-up
 * waiting for each in turn. Two lanes of about the same CPU: eslint (its type-aware rules, about half of it), and
 * the type-checks then prettier. With one core the lanes run one after the other. Each command's output is printed
 * when it ends, with its time; any failure fails the whole, named, after both lanes are done.
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

async function main() {
  const failed =
    os.availableParallelism() > 1
      ? (await Promise.all(LANES.map(lane))).flat()
      : (await lane(LANES.flat())).flat();
  if (failed.length > 0) {
    process.stdout.write(`npm test: ${failed.map((s) => `npm run ${s}`).join(", ")} failed (above)\n`);
    process.exit(1);
  }
}

void main();
