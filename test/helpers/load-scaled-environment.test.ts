// The time limits' factor (test/helpers/time-scale.js): the processor's speed over the reference machine's times the
// load per core, between 1 and 8, or fixed by RIMU_TEST_TIMEOUT_SCALE; the test environment
// (test/helpers/load-scaled-environment.js) multiplies each test's and hook's limit by it, and the harness's deadlines
// (test/helpers/deadlines.ts) read the same factor; and the jest config runs every test file in it.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import * as path from "node:path";
import { scaledMs, timeScale } from "./deadlines";
import { until } from "./promises";

const environment = require("./load-scaled-environment.js") as {
  scaleLimit(entry: { timeout?: number }, fileTimeout: number, scale: number): void;
  TIME_SCALE_KEY: symbol;
};
const factor = require("./time-scale.js") as {
  timeoutScale(input: { load: number; cores: number; speed?: number; override?: string }): number;
  speedFactor(probeMs: number): number;
  probeCpuMs(): number;
  REFERENCE_PROBE_MS: number;
  MAX_SCALE: number;
};

describe("the factor", () => {
  it("is the load per core on the reference processor, never below 1 or above 8", () => {
    expect(factor.timeoutScale({ load: 0.3, cores: 2 })).toBe(1);
    expect(factor.timeoutScale({ load: 2, cores: 2 })).toBe(1);
    expect(factor.timeoutScale({ load: 10, cores: 2 })).toBe(5);
    expect(factor.timeoutScale({ load: 40, cores: 2 })).toBe(factor.MAX_SCALE);
    expect(factor.timeoutScale({ load: 6, cores: 0 })).toBe(6);
  });

  it("multiplies a slower processor's speed by the load per core, each at least 1, and never goes below 1", () => {
    // Idle: the processor alone; busy: both.
    expect(factor.timeoutScale({ load: 0.5, cores: 2, speed: 1.5 })).toBe(1.5);
    expect(factor.timeoutScale({ load: 6, cores: 2, speed: 1.5 })).toBe(4.5);
    // A faster processor shortens nothing below the limits as written, and offsets the load only in part.
    expect(factor.timeoutScale({ load: 0, cores: 2, speed: 0.5 })).toBe(1);
    expect(factor.timeoutScale({ load: 8, cores: 2, speed: 0.5 })).toBe(2);
    expect(factor.timeoutScale({ load: 40, cores: 2, speed: 3 })).toBe(factor.MAX_SCALE);
  });

  it("takes the processor's speed from the probe's CPU time over the reference figure", () => {
    expect(factor.speedFactor(factor.REFERENCE_PROBE_MS)).toBe(1);
    expect(factor.speedFactor(2 * factor.REFERENCE_PROBE_MS)).toBe(2);
    expect(factor.speedFactor(factor.REFERENCE_PROBE_MS / 2)).toBe(0.5);
    // The probe is CPU time, which the load barely moves: a real figure, of the reference machine's order.
    const probe = factor.probeCpuMs();
    expect(probe).toBeGreaterThan(0);
    expect(probe).toBeLessThan(factor.REFERENCE_PROBE_MS * 20);
  });

  it("takes RIMU_TEST_TIMEOUT_SCALE instead of the speed and the load, and refuses one under 1", () => {
    expect(factor.timeoutScale({ load: 40, cores: 2, speed: 3, override: "1" })).toBe(1);
    expect(factor.timeoutScale({ load: 0, cores: 2, override: "3" })).toBe(3);
    expect(factor.timeoutScale({ load: 10, cores: 2, override: "" })).toBe(5);
    expect(() => factor.timeoutScale({ load: 0, cores: 2, override: "0.5" })).toThrow(
      'RIMU_TEST_TIMEOUT_SCALE must be a number 1 or more (given: "0.5")',
    );
  });
});

describe("the load-scaled test environment", () => {
  it("scales a test's own limit, or else the file's", () => {
    const own = { timeout: 300_000 };
    environment.scaleLimit(own, 60_000, 3);
    expect(own.timeout).toBe(900_000);
    const none: { timeout?: number } = {};
    environment.scaleLimit(none, 60_000, 2.5);
    expect(none.timeout).toBe(150_000);
  });

  it("scales a hook from its first limit each time it starts, never past setTimeout's largest delay", () => {
    const hook = { timeout: 600_000 };
    for (let i = 0; i < 50; i++) environment.scaleLimit(hook, 60_000, 8);
    expect(hook.timeout).toBe(4_800_000);
    const long = { timeout: 400_000_000 };
    environment.scaleLimit(long, 60_000, 8);
    expect(long.timeout).toBe(2 ** 31 - 1);
  });

  it("is the environment of every test file, in both jest configs, with the run's speed measured once", () => {
    for (const config of ["jest.config.js", "jest.unit.config.js"]) {
      const loaded = require(path.join(__dirname, "../..", config)) as {
        testEnvironment: string;
        globalSetup: string;
      };
      expect(loaded.testEnvironment).toBe("<rootDir>/test/helpers/load-scaled-environment.js");
      expect(loaded.globalSetup).toBe("<rootDir>/test/helpers/measure-speed.js");
    }
  });
});

describe("one factor for jest's limits and the harness's deadlines", () => {
  const key = environment.TIME_SCALE_KEY;
  const global = globalThis as unknown as Record<symbol, () => number>;
  const measured = global[key]!;
  afterAll(() => {
    global[key] = measured;
  });

  it("is on the test's global, and the harness's deadlines read it", () => {
    expect(typeof measured).toBe("function");
    expect(measured()).toBeGreaterThanOrEqual(1);
    global[key] = () => 3;
    expect(timeScale()).toBe(3);
    expect(scaledMs(20_000)).toBe(60_000);
  });

  it("scales an `until`'s deadline: 20 ms written, 60 ms waited, and the message says so", async () => {
    global[key] = () => 3;
    const started = Date.now();
    await expect(until("nothing", () => false, { timeoutMs: 20, intervalMs: 5 })).rejects.toThrow(
      "timed out after 60 ms waiting for nothing",
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
  });

  describe("with the factor at 4", () => {
    beforeAll(() => {
      global[key] = () => 4;
    });

    // The limit as written, 150 ms, is shorter than the test: it passes only because its limit became 600 ms.
    it("scales a test's limit: 150 ms written, 400 ms taken", async () => {
      // A fixed wait on purpose: the test's length is what is under test, and nothing happens to wait for.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(global[key]!()).toBe(4);
    }, 150);
  });
});
