// jest's globalSetup: measures this machine's processor once per run, before the workers start, so each of them
// scales its limits by the same figure (test/helpers/time-scale.js; it reaches them in RIMU_TEST_CPU_SPEED).
const { runSpeed } = require("./time-scale.js");

module.exports = async function measureSpeed() {
  runSpeed();
};
