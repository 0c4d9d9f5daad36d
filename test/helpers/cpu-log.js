/* global beforeAll, afterAll, expect */ // jest's, in a setup file
// With JEST_CPU_LOG=<file> (jest.config.js adds this file then): appends, for each test file, the CPU its worker and
// the processes it waited for used while the file ran (the pulumi CLI, the programs and provider hosts it starts,
// npm, tsc), from /proc/self/stat, as `<file>\t<own CPU-s>\t<children's CPU-s>\t<wall s>`. The CPU is what a 2-core
// CI machine runs out of, and wall times on a shared machine hide it: this is how to find what to cut
// (docs/benchmarks.md). Linux only. The run's shared set-up a file happened to run (the release build,
// shared-cpu.js) gets a line of its own, `<file> (shared: <what>)`, and is not the file's. A file over twice its CPU
// budget (test/cpu-budgets.json, cpu-budget.js) then fails, naming the file and the figure; JEST_CPU_BUDGET=off
// only logs.
const fs = require("node:fs");
const { overBudget, readBudgets } = require("./cpu-budget.js");
const { cpuSeconds, takeSharedSetup } = require("./shared-cpu.js");

let start;
beforeAll(() => {
  start = { ...cpuSeconds(), at: Date.now() };
});
afterAll(() => {
  const end = cpuSeconds();
  const { testPath } = expect.getState();
  const shared = takeSharedSetup();
  const sharedSeconds = shared.reduce((sum, { seconds }) => sum + seconds, 0);
  const children = end.children - start.children - sharedSeconds;
  const lines = [
    [
      testPath,
      (end.own - start.own).toFixed(1),
      children.toFixed(1),
      ((Date.now() - start.at) / 1000).toFixed(0),
    ],
    ...shared.map(({ label, seconds }) => [`${testPath} (shared: ${label})`, "0.0", seconds.toFixed(1), "0"]),
  ];
  fs.appendFileSync(process.env.JEST_CPU_LOG, lines.map((line) => `${line.join("\t")}\n`).join(""));
  if (process.env.JEST_CPU_BUDGET === "off") return;
  const why = overBudget(testPath, end.own - start.own, children, readBudgets());
  if (why !== undefined) throw new Error(why);
});
