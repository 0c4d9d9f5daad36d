// Jest's Node environment with every test's and hook's time limit multiplied by how much slower than the reference
// machine this one is when it starts (test/helpers/time-scale.js: the processor's speed, measured once per run, times
// the load per core; between 1 and 8, or fixed by RIMU_TEST_TIMEOUT_SCALE). The limits in the test files
// (jest.setTimeout, a test's third argument, jest.config.js's testTimeout) are set for the reference machine with a core
// free per worker; on CI's 2 cores, with the suite's end-to-end files running together, the load reaches 10–20, where
// a limit hit says nothing about the code. The same factor is on the test's global for the harness's own deadlines
// (test/helpers/deadlines.ts). Plain CommonJS: jest loads a test environment before any transform.
const { TestEnvironment } = require("jest-environment-node");
const { currentScale, timeoutScale, MAX_SCALE } = require("./time-scale.js");

/** Where a test finds the factor (test/helpers/deadlines.ts): a function, as the load changes while a file runs. */
const TIME_SCALE_KEY = Symbol.for("pulumi-rimuhosting.test.timeScale");

class LoadScaledEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global[TIME_SCALE_KEY] = currentScale;
  }

  /**
   * jest-circus calls this before it reads a test's or a hook's limit (test_fn_start, hook_start). The factor comes
   * from the global the harness reads too, so both always agree (and a test can fix it to prove the scaling).
   */
  handleTestEvent(event, state) {
    if (event.name === "test_fn_start")
      scaleLimit(event.test, state.testTimeout, this.global[TIME_SCALE_KEY]());
    if (event.name === "hook_start") scaleLimit(event.hook, state.testTimeout, this.global[TIME_SCALE_KEY]());
  }
}

/** The limit a test or hook had before it was first scaled: a hook starts once per test, and is scaled from it. */
const UNSCALED = Symbol("unscaled time limit");
/** setTimeout's largest delay (2^31 - 1 ms): above it Node fires the timer at once. */
const LARGEST_TIMEOUT_MS = 2 ** 31 - 1;

/** Sets the test's or hook's own limit to its first limit (its own, else the file's) times `scale`. */
function scaleLimit(entry, fileTimeout, scale) {
  if (!(UNSCALED in entry)) entry[UNSCALED] = entry.timeout;
  entry.timeout = Math.min(LARGEST_TIMEOUT_MS, Math.round((entry[UNSCALED] || fileTimeout) * scale));
}

module.exports = LoadScaledEnvironment;
module.exports.timeoutScale = timeoutScale;
module.exports.scaleLimit = scaleLimit;
module.exports.MAX_SCALE = MAX_SCALE;
module.exports.TIME_SCALE_KEY = TIME_SCALE_KEY;
