// In every jest run (jest.config.js's setupFilesAfterEnv): a test file not listed in NEEDS_PROCESSES
// (test/helpers/needs-processes.js) that starts a child process fails at once, naming the list to put it in. It runs
// in `npm test` too, not only in `npm run test:unit`: CI runs `npm test` alone, and the fast loop once broke unseen
// when a file that `npm test` ran happily started a process test:unit forbids.
//
// Node's built-in modules are one object per jest worker, shared by the files the worker runs one after another: so
// each file sets child_process for itself, to the throwing stand-ins or back to the real functions.
const childProcess = require("node:child_process");
const path = require("node:path");
const { needsProcesses } = require("./needs-processes.js");

const NAMES = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"];
const REAL = Symbol.for("pulumi-rimuhosting.realChildProcess");
childProcess[REAL] ??= Object.fromEntries(NAMES.map((name) => [name, childProcess[name]]));

/* global expect -- jest defines it for setupFilesAfterEnv */
const { testPath } = expect.getState();
const rootDir = path.resolve(__dirname, "../..");
const allowed = needsProcesses(testPath, rootDir);
for (const name of NAMES) {
  childProcess[name] = allowed
    ? childProcess[REAL][name]
    : () => {
        throw new Error(
          `${path.relative(rootDir, testPath)} starts a child process (child_process.${name}), ` +
            "and the files that do are listed in NEEDS_PROCESSES (test/helpers/needs-processes.js), so that " +
            "`npm run test:unit` leaves them out: add this file there, with what it starts",
        );
      };
}
