// Jest's order (files that failed last time first, then the longest first when it has timings from an earlier run,
// else the largest), with the slow files moved ahead of the rest after the failed ones: test/package (packs and
// installs the package), test/engine (each operation runs the real pulumi CLI), test/docs/recipes.test.ts (runs the
// docs' recipes through the CLI, over a minute on CI), test/provider/fault-matrix.test.ts (the slowest file that
// starts no process, about 20 s) and test/cost/money-model.test.ts (the money model's generated runs, 10 minutes of
// a CI worker and the largest budget). With several workers, a slow file that starts last is the whole run's tail,
// and a fresh clone (CI) has no timings: jest would order by file size, which starts the slowest file,
// test/package/packed.test.ts, among the last (recipes, among the unit files, ran alone for the last 17 s; the fault
// matrix, a small file, for the last 19 s of a warm CI run).
// Within each group, the files jest has no timing for go by their CPU budget (test/cpu-budgets.json), the largest
// first, not by their size: a file's size says little of its cost. The money model's CLI cases, the costliest file,
// are two thin files over one harness (test/cost/money-model-cli.ts): by size, on the last full run's wall times and
// 3 workers, the dynamic one would start 1,189 s into the run and end it 100 s after the rest (by budget: none later).
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;
const { readBudgets } = require("./helpers/cpu-budget");

const SLOW = new RegExp(
  String.raw`[\\/]test[\\/](package[\\/]|engine[\\/]|docs[\\/]recipes\.test\.ts$|` +
    String.raw`provider[\\/]fault-matrix\.test\.ts$|cost[\\/]money-model\.test\.ts$)`,
);
const ROOT = path.resolve(__dirname, "..");

/**
 * `tests` in jest's order (`ordered`), regrouped: failed last time, slow, the rest; in each group, those with no
 * timing first, the largest budget first (jest's order among equals), then those with one, in jest's order.
 */
function slowFirst(ordered, hasFailed, budgets) {
  const budget = (test) => budgets[path.relative(ROOT, test.path).split(path.sep).join("/")] ?? 0;
  const rank = (test) => (hasFailed(test) ? 0 : SLOW.test(test.path) ? 1 : 2);
  const untimed = (test) => (test.duration == null ? 0 : 1);
  return ordered
    .map((test, index) => ({ test, index }))
    .sort(
      (a, b) =>
        rank(a.test) - rank(b.test) ||
        untimed(a.test) - untimed(b.test) ||
        (untimed(a.test) === 0 ? budget(b.test) - budget(a.test) : 0) ||
        a.index - b.index,
    )
    .map(({ test }) => test);
}

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests); // sets each test's duration, from jest's cache when it has one
    return slowFirst(ordered, (test) => this.hasFailed(test), readBudgets());
  }
}

module.exports = SlowFirstSequencer;
module.exports.slowFirst = slowFirst;
