/**
 * Injected time. The emulator never calls setTimeout or Date.now directly in its logic: durations of
 * the real API ("a create takes about a minute") go through `work()`, which multiplies them by
 * timeScale, so tests run with timeScale 0 (instant) and the CLI with 1 (realistic).
 */

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Waits for a realistic duration of the real API, scaled by timeScale. */
  work(realisticMs: number): Promise<void>;
  /** Waits for exactly this many milliseconds (latency and delay faults are not scaled). */
  sleep(ms: number): Promise<void>;
  /** Ends every pending wait at once, so closing the emulator leaves no timer behind. */
  dispose(): void;
}

export interface ClockOptions {
  timeScale: number;
  now?: () => number;
}

export function createClock(options: ClockOptions): Clock {
  const now = options.now ?? (() => Date.now());
  const pending = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  let disposed = false;

  const sleep = (ms: number): Promise<void> => {
    if (disposed || !(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          pending.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      pending.add(entry);
    });
  };

  return {
    now,
    sleep,
    work: (realisticMs) => sleep(realisticMs * options.timeScale),
    dispose() {
      disposed = true;
      for (const entry of pending) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      pending.clear();
    },
  };
}
