/**
 * The release's first call to a plugin executable (tools/release/check-executable.ts, firstCall): a process that
 * fails before it answers rejects at once with what it said, and leaves no timer running in this process (its time
 * limit would otherwise hold the release build, or a test's worker, open for two minutes). The timers are jest's
 * (counted exactly); the processes are real.
 */
import { firstCall } from "../../tools/release/check-executable";
import { rejectionOf } from "../helpers/promises";

beforeEach(() => jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "queueMicrotask"] }));
afterEach(() => jest.useRealTimers());

describe("firstCall: a plugin that fails before it answers", () => {
  it.each([
    [
      "exits first",
      "process.stderr.write('no plugin here\\n'); process.exit(3)",
      /exited \(3\) before answering\nno plugin here/,
    ],
    ["prints no port", "console.log('hello'); setInterval(() => {}, 1000)", /printed "hello\\n", not a port/],
  ])(
    "one that %s: rejects with what it printed, and leaves no timer behind",
    async (_what, script, message) => {
      const error = await rejectionOf(firstCall([process.execPath, "-e", script]));
      expect(error.message).toMatch(message);
      expect(jest.getTimerCount()).toBe(0);
    },
  );
});
