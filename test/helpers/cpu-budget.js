// Each test file's CPU budget (test/cpu-budgets.json): the CPU-seconds it may take, its worker's and the processes
// it waits for together, as test/helpers/cpu-log.js measures them. A file that takes more than twice its budget
// fails (cpu-log.js, whenever JEST_CPU_LOG is set, as CI sets it in .ci/run), naming the file and the figure: CI has
// 90 minutes on 2 cores for the whole suite, and a file that doubles its CPU is found the day it does. The budgets
// are conservative first values by folder; a full CI run's figures tune them. Plain CommonJS: jest loads it in its
// setup file, before any transform.
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
/** The table, relative to the repository (test/cpu-budgets.test.ts checks it lists every test file). */
const TABLE = "test/cpu-budgets.json";

/** The budgets by test file (its path from the repository's root), in CPU-seconds. */
function readBudgets(file = path.join(ROOT, TABLE)) {
  return JSON.parse(fs.readFileSync(file, "utf8")).budgets;
}

/**
 * Why the file failed its budget, or undefined when it did not: `own` and `children` are the CPU-seconds of its
 * worker and of the processes it waited for, `budgets` the table.
 */
function overBudget(testPath, own, children, budgets) {
  const file = path.relative(ROOT, testPath).split(path.sep).join("/");
  const budget = budgets[file];
  const total = own + children;
  const figure = `${total.toFixed(1)} CPU-s (its worker ${own.toFixed(1)}, the processes it waited for ${children.toFixed(1)})`;
  if (typeof budget !== "number")
    return `${file} took ${figure} and has no CPU budget in ${TABLE}: add it there, with its figure from a full run.`;
  if (total <= 2 * budget) return undefined;
  return (
    `${file} took ${figure}, over twice its CPU budget of ${budget} CPU-s (${TABLE}): make it cheaper, or raise ` +
    `its budget there with the figures of a full CI run (JEST_CPU_LOG, test/README.md).`
  );
}

module.exports = { TABLE, readBudgets, overBudget };
