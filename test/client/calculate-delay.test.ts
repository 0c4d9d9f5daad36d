import { calculateDelay, parseRetryAfter } from "../../provider/client/index.js";

describe("calculateDelay", () => {
  const base = { baseDelayMs: 100, maxDelayMs: 10_000 };

  it("doubles the ceiling per retry and stays within [ceiling/2, ceiling]", () => {
    expect(calculateDelay({ ...base, retry: 1, random: () => 0 })).toBe(50);
    expect(calculateDelay({ ...base, retry: 1, random: () => 0.999999 })).toBe(100);
    expect(calculateDelay({ ...base, retry: 2, random: () => 0 })).toBe(100);
    expect(calculateDelay({ ...base, retry: 3, random: () => 0.5 })).toBe(300);
    expect(calculateDelay({ ...base, retry: 4, random: () => 1 })).toBe(800);
  });

  it("uses the injected random for jitter", () => {
    const values = [0, 0.25, 0.5, 0.75].map((r) => calculateDelay({ ...base, retry: 2, random: () => r }));
    expect(values).toEqual([100, 125, 150, 175]);
  });

  it("never exceeds maxDelayMs", () => {
    expect(calculateDelay({ baseDelayMs: 1000, maxDelayMs: 3000, retry: 10, random: () => 1 })).toBe(3000);
    expect(calculateDelay({ baseDelayMs: 1000, maxDelayMs: 3000, retry: 10, random: () => 0 })).toBe(1500);
  });

  it("honours Retry-After over the backoff, capped at maxDelayMs", () => {
    expect(calculateDelay({ ...base, retry: 1, retryAfterMs: 2000, random: () => 0 })).toBe(2000);
    expect(calculateDelay({ ...base, retry: 1, retryAfterMs: 60_000 })).toBe(10_000);
    expect(calculateDelay({ ...base, retry: 1, retryAfterMs: -5 })).toBe(0);
  });

  it("clamps a random source outside [0, 1)", () => {
    expect(calculateDelay({ ...base, retry: 1, random: () => 7 })).toBe(100);
    expect(calculateDelay({ ...base, retry: 1, random: () => -3 })).toBe(50);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-21T20:00:00Z");

  it("reads delay-seconds", () => {
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
    expect(parseRetryAfter(["2"], now)).toBe(2000);
  });

  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter("Sat, 21 Nov 2026 20:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 19:00:00 GMT", now)).toBe(0);
  });

  it("ignores absent or unreadable values", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});
