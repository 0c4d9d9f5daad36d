// The CPU a test file's process and the processes it waited for used (/proc/self/stat), and the part of it that is
// the whole run's shared set-up rather than the file's own work: the release build (test/engine/release-support.ts)
// runs once per jest run, in whichever of the dozen files that need it asks first, which depends on the order the
// workers take the files in (a cold run has no timings). Charging it to that file failed CI on that file's budget
// (test/package/sdk-packages.test.ts: 105.3 CPU-s against 30 in a cold run, its own part about 15). So the build's
// CPU is told apart here: cpu-log.js logs it on a line of its own and judges the file by the rest. Linux only.
// Plain CommonJS: cpu-log.js is a setup file jest loads without a transform.
const fs = require("node:fs");

const CLOCK_TICKS = 100; // USER_HZ, 100 on Linux

/** utime + stime and cutime + cstime of this process, in seconds. */
function cpuSeconds() {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return {
    own: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
    children: (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS,
  };
}

/** Where a test file's shared set-up is noted: the test file's global, which its setup files share. */
const KEY = "__rimuSharedSetupCpu";

/**
 * Runs `work` (synchronous: it waits for the processes it starts) and notes the CPU of those processes as the run's
 * shared set-up named `label`. Returns what `work` returns.
 */
function asSharedSetup(label, work) {
  const before = cpuSeconds().children;
  try {
    return work();
  } finally {
    const noted = (globalThis[KEY] ??= []);
    noted.push({ label, seconds: cpuSeconds().children - before });
  }
}

/** The shared set-up this file ran (and forgets it): [{ label, seconds }]. */
function takeSharedSetup() {
  const noted = globalThis[KEY] ?? [];
  globalThis[KEY] = [];
  return noted;
}

module.exports = { cpuSeconds, asSharedSetup, takeSharedSetup };
