// How much longer than written a test's time limit, or a harness's deadline, may be on this machine right now: the one
// source of that factor, for jest's limits (test/helpers/load-scaled-environment.js) and the deadlines the harness
// waits on (test/helpers/deadlines.ts, which reads it from the environment while a test runs).
//
// The limits in the test files are set for the reference machine (the 2-core machine the suite is developed on) with a
// core free per worker. Two things make the same work take longer in wall time, and the factor is their product:
// - a slower processor: a fixed CPU task's CPU time (not its wall time, so the load does not move it), measured once
//   per jest run (globalSetup, test/helpers/measure-speed.js; passed to the workers in RIMU_TEST_CPU_SPEED), over the
//   reference machine's figure for it;
// - a busy one: the load per core (the 1-minute load average over the cores), read when each test or hook starts,
//   since the load rises as the suite's end-to-end files start (10–20 on CI's 2 cores).
// Never below 1 (a fast idle machine keeps the limits as written) nor above MAX_SCALE (a test that hangs still fails,
// 8 times later at worst). RIMU_TEST_TIMEOUT_SCALE=<n> fixes the factor instead (1 turns scaling off).
// Plain CommonJS: jest loads a test environment and a globalSetup module before any transform.
const os = require("node:os");

const MAX_SCALE = 8;
/** The probe's CPU time on the reference machine, in ms (the least of PROBE_RUNS; measured at load 10, where it held). */
const REFERENCE_PROBE_MS = 22;
const PROBE_RUNS = 5;
/** The environment variable that carries the run's measured speed factor from globalSetup to the workers. */
const SPEED_ENV = "RIMU_TEST_CPU_SPEED";

/**
 * A fixed piece of CPU work (integer hashing: no allocation, no I/O), about 22 ms on the reference machine. It reads
 * no global in its loop: in a jest test's context a global is looked up through the context, many times slower.
 */
function probeTask() {
  const imul = Math.imul;
  let x = 0x9e3779b9;
  for (let i = 0; i < 4_000_000; i++) x = imul(x ^ (x >>> 15), 0x85ebca6b) + i;
  return x;
}

/** The probe's CPU time in ms: the least of PROBE_RUNS runs (the first runs before the JIT has compiled it). */
function probeCpuMs() {
  let least = Infinity;
  for (let run = 0; run < PROBE_RUNS; run++) {
    const start = process.cpuUsage();
    probeTask();
    const used = process.cpuUsage(start);
    least = Math.min(least, (used.user + used.system) / 1000);
  }
  return least;
}

/** How many times slower than the reference machine this processor ran the probe (below 1: faster). */
function speedFactor(probeMs) {
  return probeMs / REFERENCE_PROBE_MS;
}

/**
 * The factor for a processor `speed` times slower than the reference, at load average `load` on `cores` cores, or
 * the `override` (RIMU_TEST_TIMEOUT_SCALE) when set: speed times the load per core (each counted as at least 1),
 * between 1 and MAX_SCALE.
 */
function timeoutScale({ load, cores, speed = 1, override }) {
  if (override !== undefined && override !== "") {
    const fixed = Number(override);
    if (!Number.isFinite(fixed) || fixed < 1)
      throw new Error(
        `RIMU_TEST_TIMEOUT_SCALE must be a number 1 or more (given: ${JSON.stringify(override)})`,
      );
    return fixed;
  }
  const busy = Math.max(1, load / Math.max(1, cores));
  return Math.min(MAX_SCALE, Math.max(1, speed * busy));
}

/** The run's speed factor: from globalSetup when it ran, else measured here once (and kept for this process). */
function runSpeed() {
  const given = Number(process.env[SPEED_ENV]);
  if (Number.isFinite(given) && given > 0) return given;
  const measured = speedFactor(probeCpuMs());
  process.env[SPEED_ENV] = String(measured);
  return measured;
}

/** The factor now, on this machine. */
function currentScale() {
  const override = process.env.RIMU_TEST_TIMEOUT_SCALE;
  return timeoutScale({
    load: os.loadavg()[0],
    cores: os.availableParallelism(),
    // Fixed by the override: no probe to run.
    speed: override ? 1 : runSpeed(),
    override,
  });
}

module.exports = {
  MAX_SCALE,
  REFERENCE_PROBE_MS,
  SPEED_ENV,
  probeCpuMs,
  speedFactor,
  timeoutScale,
  runSpeed,
  currentScale,
};
