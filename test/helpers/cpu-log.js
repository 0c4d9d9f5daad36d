/* global beforeAll, afterAll, expect */ // jest's, in a setup file
// With JEST_CPU_LOG=<file> (jest.config.js adds this file then): appends, for each test file, the CPU its worker and
// the processes it waited for used while the file ran (the pulumi CLI, the programs and provider hosts it starts,
// npm, tsc), from /proc/self/stat, as `<file>\t<own CPU-s>\t<children's CPU-s>\t<wall s>`. The CPU is what a 2-core
// CI machine runs out of, and wall times on a shared machine hide it: this is how to find what to cut
// (docs/benchmarks.md). Linux only. A file over twice its CPU budget (test/cpu-budgets.json, cpu-budget.js) then
// fails, naming the file and the figure; JEST_CPU_BUDGET=off only logs.
const fs = require("node:fs");
const { overBudget, readBudgets } = require("./cpu-budget.js");

const CLOCK_TICKS = 100; // USER_HZ, 100 on Linux

/** utime + stime and cutime + cstime of this process, in seconds. */
function cpuSeconds() {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return {
    own: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
    children: (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS,
  };
}

let start;
beforeAll(() => {
  start = { ...cpuSeconds(), at: Date.now() };
});
afterAll(() => {
  const end = cpuSeconds();
  const line = [
    expect.getState().testPath,
    (end.own - start.own).toFixed(1),
    (end.children - start.children).toFixed(1),
    ((Date.now() - start.at) / 1000).toFixed(0),
  ].join("\t");
  fs.appendFileSync(process.env.JEST_CPU_LOG, `${line}\n`);
  if (process.env.JEST_CPU_BUDGET === "off") return;
  const why = overBudget(
    expect.getState().testPath,
    end.own - start.own,
    end.children - start.children,
    readBudgets(),
  );
  if (why !== undefined) throw new Error(why);
});
