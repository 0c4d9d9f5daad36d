/**
 * A request pace: at most `requestsPerSecond` requests, spread evenly (one every 1000 / requestsPerSecond ms), for
 * a service that limits how many requests an API key may make (429 past the quota). Every attempt waits its turn,
 * retries too. One pacer may be shared by several clients, so that together they keep the pace (the provider's
 * clients of one account share one).
 */
import { setTimeout as timer } from "node:timers/promises";

export interface Pacer {
  readonly requestsPerSecond: number;
  /** Resolves when the next request may be sent. */
  turn(): Promise<void>;
}

/** A pacer; `sleep` is the client's wait (tests pass one that returns at once). */
export function createPacer(
  requestsPerSecond: number,
  sleep: (ms: number) => Promise<void> = (ms) => timer(ms).then(() => undefined),
): Pacer {
  const gapMs = 1000 / requestsPerSecond;
  let nextAt = 0;
  return {
    requestsPerSecond,
    async turn() {
      const now = performance.now();
      const at = Math.max(now, nextAt);
      nextAt = at + gapMs;
      if (at > now) await sleep(at - now);
    },
  };
}
