// Jest's order (files that failed last time first, then the longest first when it has timings from an earlier run,
// else the largest), with the slow files moved ahead of the rest after the failed ones: test/package (packs and
// installs the package), test/engine (each operation runs the real pulumi CLI), test/docs/recipes.test.ts (runs the
// docs' recipes through the CLI, over a minute on CI) and test/provider/fault-matrix.test.ts (the slowest file that
// starts no process, about 20 s). With several workers, a slow file that starts last is the whole run's tail, and a
// fresh clone (CI) has no timings: jest would order by file size, which starts the slowest file,
// test/package/packed.test.ts, among the last (recipes, among the unit files, ran alone for the last 17 s; the fault
// matrix, a small file, for the last 19 s of a warm CI run).
const Sequencer = require("@jest/test-sequencer").default;

const SLOW =
  /[\\/]test[\\/](package[\\/]|engine[\\/]|docs[\\/]recipes\.test\.ts$|provider[\\/]fault-matrix\.test\.ts$)/;

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const rank = (test) => (this.hasFailed(test) ? 0 : SLOW.test(test.path) ? 1 : 2);
    return [...ordered].sort((a, b) => rank(a) - rank(b)); // stable: jest's order within each group
  }
}

module.exports = SlowFirstSequencer;
