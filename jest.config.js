// got 14 and most of its dependencies are ESM-only. The built package loads them bundled into one CommonJS file
// (dist/vendor/got.cjs); jest runs the sources, which load the got package instead (moduleNameMapper below). Node
// could load that through require(esm), but jest's own module system cannot, so jest transpiles exactly those
// packages to CommonJS.
// The list is computed from got's dependency tree (nested installs included: cacheable-request has
// its own ESM get-stream) so it stays right when got is upgraded.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

function esmOnlyPackages(rootName) {
  const esm = new Set();
  const seen = new Set();
  const visit = (name, fromDir) => {
    // Resolve like Node: the nearest node_modules/<name> from the requiring package upwards.
    let manifestPath;
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, "node_modules", name, "package.json");
      if (fs.existsSync(candidate)) {
        manifestPath = candidate;
        break;
      }
      if (dir === __dirname || dir === path.dirname(dir)) return;
    }
    if (seen.has(manifestPath)) return;
    seen.add(manifestPath);
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    if (manifest.type === "module") esm.add(name);
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, path.dirname(manifestPath));
  };
  visit(rootName, __dirname);
  return [...esm];
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const esm = esmOnlyPackages("got").map(escape).join("|");

/** @type {import('jest').Config} */
module.exports = {
  // Jest's Node environment, each test's time limit scaled by how much slower than the reference machine this one is
  // (test/helpers/load-scaled-environment.js says why and how much).
  testEnvironment: "<rootDir>/test/helpers/load-scaled-environment.js",
  // Measures the processor once per run, for that scaling and the harness's deadlines (test/helpers/time-scale.js).
  globalSetup: "<rootDir>/test/helpers/measure-speed.js",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.[tj]s$": ["ts-jest", { tsconfig: { allowJs: true, isolatedModules: true }, diagnostics: false }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esm})/)`],
  // Sources use nodenext-style "./x.js" specifiers; under jest they resolve to the .ts files.
  // A program under test (the quickstart's unit test) imports the package by name: give it the sources.
  moduleNameMapper: {
    "^(\\.{1,2}/.*)\\.js$": "$1",
    "^pulumi-rimuhosting$": "<rootDir>/provider/index.ts",
    // The client loads got from the build's bundle, dist/vendor/got.cjs (provider/client/got.ts); run from the
    // sources there is none: the got package, the same code unbundled, stands in for it.
    "^\\.\\./\\.\\./vendor/got\\.cjs$": "got",
  },
  modulePathIgnorePatterns: ["<rootDir>/dist/", "<rootDir>/examples/"],
  testTimeout: 60000,
  // One worker more than there are cores. Jest's default (cores - 1) is one worker on a 2-core machine, which runs the
  // files one after another. The end-to-end files spend their time in processes they wait for (pulumi, the program,
  // the provider host), and some mostly wait (a lost create's 50 s lookup window, answers the emulator holds back): the
  // extra worker fills those waits. Measured on 2 cores: 389 s with 2 workers, 345 s with 3 (docs/benchmarks.md).
  // Each test file starts its own emulator on a port of its own and its own stacks.
  maxWorkers: os.availableParallelism() + 1,
  testSequencer: "<rootDir>/test/slow-first-sequencer.js",
  // A test file that starts a process without being listed as one that does fails, in every run: the list is what
  // keeps `npm run test:unit` (jest.unit.config.js) free of processes, and CI runs only this config.
  // JEST_CPU_LOG=<file>: each file's CPU, its processes' included (test/helpers/cpu-log.js), to find what CI spends.
  setupFilesAfterEnv: [
    "<rootDir>/test/helpers/no-child-process.js",
    ...(process.env.JEST_CPU_LOG ? ["<rootDir>/test/helpers/cpu-log.js"] : []),
  ],
};
