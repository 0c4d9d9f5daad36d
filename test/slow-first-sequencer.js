// Jest's order, with the slow files first: test/package (packs and installs the package) and test/engine (each
// operation runs the real pulumi CLI). With several workers, a slow file that starts last is the whole run's tail.
// Jest only knows durations from an earlier run on the same machine; a fresh clone (CI) has none and would order by
// file size, which starts the slowest file, test/package/packed.test.ts, among the last.
const Sequencer = require("@jest/test-sequencer").default;

const SLOW = /[\\/]test[\\/](package|engine)[\\/]/;

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const rank = (test) => (SLOW.test(test.path) ? 0 : 1);
    return [...ordered].sort((a, b) => rank(a) - rank(b)); // stable: jest's order within each group
  }
}

module.exports = SlowFirstSequencer;
