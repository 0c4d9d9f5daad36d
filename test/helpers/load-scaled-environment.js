// Jest's Node environment with every test's and hook's time limit scaled by how busy the machine is when it starts.
// The limits in the test files (jest.setTimeout, a test's third argument, jest.config.js's testTimeout) are set for a
// machine with a core free per worker; CI's machine is 2 cores, and with the suite's end-to-end files running
// together (each a pulumi CLI, a program and a provider host) its load reaches 10–20, where a test that needs 100 s of
// CPU takes many times that in wall time. A limit hit there says nothing about the code, so each limit is multiplied
// by the load per core (the 1-minute load average over the cores), never by less than 1 or more than 8: a test that
// hangs still fails, 8 times later at worst. RIMU_TEST_TIMEOUT_SCALE=<n> fixes the factor instead (1 turns scaling
// off). Plain CommonJS: jest loads a test environment before any transform.
const os = require("node:os");
const { TestEnvironment } = require("jest-environment-node");

const MAX_SCALE = 8;

/** The factor for a load average `load` on `cores` cores, or the `override` (RIMU_TEST_TIMEOUT_SCALE) when set. */
function timeoutScale({ load, cores, override }) {
  if (override !== undefined && override !== "") {
    const fixed = Number(override);
    if (!Number.isFinite(fixed) || fixed < 1)
      throw new Error(
        `RIMU_TEST_TIMEOUT_SCALE must be a number 1 or more (given: ${JSON.stringify(override)})`,
      );
    return fixed;
  }
  return Math.min(MAX_SCALE, Math.max(1, load / Math.max(1, cores)));
}

/** The factor now, on this machine. */
function currentScale() {
  return timeoutScale({
    load: os.loadavg()[0],
    cores: os.availableParallelism(),
    override: process.env.RIMU_TEST_TIMEOUT_SCALE,
  });
}

class LoadScaledEnvironment extends TestEnvironment {
  /** jest-circus calls this before it reads a test's or a hook's limit (test_fn_start, hook_start). */
  handleTestEvent(event, state) {
    if (event.name === "test_fn_start") scaleLimit(event.test, state.testTimeout, currentScale());
    if (event.name === "hook_start") scaleLimit(event.hook, state.testTimeout, currentScale());
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
