// `npm run test:unit`: the fast loop. Every test file that needs neither the pulumi CLI nor a child process (a
// program, a provider host, the emulator's command, npm): the client, the emulator, the provider called directly,
// the generator, the public types. `npm test` runs everything (this plus the files in NEEDS_PROCESSES), and CI runs
// that; the guard that fails a process started by a file not listed there runs in both (jest.config.js).
const base = require("./jest.config.js");
const { NEEDS_PROCESSES } = require("./test/helpers/needs-processes.js");

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testPathIgnorePatterns: ["/node_modules/", ...NEEDS_PROCESSES],
};
