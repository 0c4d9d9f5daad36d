// Under `npm run test:unit` (jest.unit.config.js): a test that starts a child process fails at once, naming the
// list to put its file in, so the fast loop stays free of processes without anyone having to remember.
const childProcess = require("node:child_process");

for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]) {
  childProcess[name] = () => {
    throw new Error(
      `test:unit runs no child process (child_process.${name}): list this test file in NEEDS_PROCESSES ` +
        "in jest.unit.config.js, so that only npm test runs it",
    );
  };
}
