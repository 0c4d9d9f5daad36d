// The test environment's time limits (test/helpers/load-scaled-environment.js): scaled by the load per core, between
// 1 and 8 times, or fixed by RIMU_TEST_TIMEOUT_SCALE; and the jest config runs every test file in it.
import { describe, expect, it } from "@jest/globals";
import * as path from "node:path";

const environment = require("./load-scaled-environment.js") as {
  timeoutScale(input: { load: number; cores: number; override?: string }): number;
  scaleLimit(entry: { timeout?: number }, fileTimeout: number, scale: number): void;
  MAX_SCALE: number;
};

describe("the load-scaled test environment", () => {
  it("scales by the load per core, never below 1 or above 8", () => {
    expect(environment.timeoutScale({ load: 0.3, cores: 2 })).toBe(1);
    expect(environment.timeoutScale({ load: 2, cores: 2 })).toBe(1);
    expect(environment.timeoutScale({ load: 10, cores: 2 })).toBe(5);
    expect(environment.timeoutScale({ load: 40, cores: 2 })).toBe(environment.MAX_SCALE);
    expect(environment.timeoutScale({ load: 6, cores: 0 })).toBe(6);
  });

  it("takes RIMU_TEST_TIMEOUT_SCALE instead of the load, and refuses one under 1", () => {
    expect(environment.timeoutScale({ load: 40, cores: 2, override: "1" })).toBe(1);
    expect(environment.timeoutScale({ load: 0, cores: 2, override: "3" })).toBe(3);
    expect(environment.timeoutScale({ load: 10, cores: 2, override: "" })).toBe(5);
    expect(() => environment.timeoutScale({ load: 0, cores: 2, override: "0.5" })).toThrow(
      'RIMU_TEST_TIMEOUT_SCALE must be a number 1 or more (given: "0.5")',
    );
  });

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

  it("is the environment of every test file, in both jest configs", () => {
    for (const config of ["jest.config.js", "jest.unit.config.js"]) {
      const loaded = require(path.join(__dirname, "../..", config)) as { testEnvironment: string };
      expect(loaded.testEnvironment).toBe("<rootDir>/test/helpers/load-scaled-environment.js");
    }
  });
});
