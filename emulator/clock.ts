/**
 * Injected time. The emulator never calls setTimeout or Date.now directly in its logic: durations of
 * the real API ("a create takes about a minute") go through `work()`, which multiplies them by
 * timeScale, so tests run with timeScale 0 (instant) and the CLI with 1 (realistic). Its date runs with the
 * machine's, `offsetMs` ahead once moved (--now, POST /__emulator/time/advance): calendar.ts says what a move does.
 */
import { performance } from "node:perf_hooks";

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * Waits for a realistic duration of the real API, scaled by timeScale. `orderOid` names the order the work is
   * for, so that the control API can finish it by hand (TimeControl.finishWork).
   */
  work(realisticMs: number, orderOid?: number): Promise<void>;
  /** Waits for exactly this many milliseconds (latency and delay faults are not scaled). */
  sleep(ms: number): Promise<void>;
  /** Ends every pending wait at once, so closing the emulator leaves no timer behind. */
  dispose(): void;
}

/** Work waiting on the clock: for which order, and how long it still has at the current time scale. */
export interface WorkInProgress {
  orderOid: number | null;
  remainingMs: number;
}

/**
 * What the control API drives (PUT /__emulator/time, POST /__emulator/time/advance). The built-in clock has it; a
 * clock given in code (the `clock` option) decides its own time and may not.
 */
export interface TimeControl {
  timeScale(): number;
  /** A new scale, for work already waiting too: each wait ends at its start plus its duration at the new scale. */
  setTimeScale(timeScale: number): void;
  /** Ends the waiting work of one order (or of every order) now; how many waits it ended. */
  finishWork(orderOid?: number): number;
  workInProgress(): WorkInProgress[];
  /** How far the emulator's date is ahead of the machine's (0 until it is moved). */
  offsetMs(): number;
  /** Sets the offset: `now()` is the machine's time plus it from then on. */
  setOffsetMs(offsetMs: number): void;
}

export function isTimeControl(clock: Clock): clock is Clock & TimeControl {
  const control = clock as Partial<TimeControl>;
  return typeof control.setTimeScale === "function" && typeof control.finishWork === "function";
}

export interface ClockOptions {
  timeScale: number;
  /** The machine's time (default Date.now); the clock's `now()` adds its offset. */
  now?: () => number;
}

interface Wait {
  timer: NodeJS.Timeout | undefined;
  resolve: () => void;
  /** For work: its order, when it started (performance.now()) and its duration at timeScale 1. */
  work?: { orderOid: number | null; startedAt: number; realisticMs: number };
}

export function createClock(options: ClockOptions): Clock & TimeControl {
  const machineNow = options.now ?? (() => Date.now());
  let offset = 0;
  const now = () => machineNow() + offset;
  let timeScale = options.timeScale;
  const pending = new Set<Wait>();
  let disposed = false;

  const end = (wait: Wait) => {
    clearTimeout(wait.timer);
    pending.delete(wait);
    wait.resolve();
  };
  const schedule = (wait: Wait, ms: number) => {
    clearTimeout(wait.timer);
    wait.timer = setTimeout(() => end(wait), Math.max(0, ms));
  };
  const remaining = ({ work }: Wait) =>
    work ? work.realisticMs * timeScale - (performance.now() - work.startedAt) : 0;

  const wait = (ms: number, work?: Wait["work"]): Promise<void> => {
    if (disposed || !(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const entry: Wait = { timer: undefined, resolve, work };
      pending.add(entry);
      schedule(entry, ms);
    });
  };

  return {
    now,
    sleep: (ms) => wait(ms),
    work: (realisticMs, orderOid) =>
      wait(realisticMs * timeScale, {
        orderOid: orderOid ?? null,
        startedAt: performance.now(),
        realisticMs,
      }),
    dispose() {
      disposed = true;
      for (const entry of [...pending]) end(entry);
    },
    timeScale: () => timeScale,
    setTimeScale(scale) {
      timeScale = scale;
      for (const entry of [...pending]) {
        if (!entry.work) continue;
        const left = remaining(entry);
        // Work already past its end at the new scale ends now, not a timer tick later.
        if (left > 0) schedule(entry, left);
        else end(entry);
      }
    },
    finishWork(orderOid) {
      const ending = [...pending].filter(
        (entry) => entry.work && (orderOid === undefined || entry.work.orderOid === orderOid),
      );
      ending.forEach(end);
      return ending.length;
    },
    offsetMs: () => offset,
    setOffsetMs(offsetMs) {
      offset = offsetMs;
    },
    workInProgress: () =>
      [...pending].flatMap((entry) =>
        entry.work
          ? [{ orderOid: entry.work.orderOid, remainingMs: Math.max(0, Math.round(remaining(entry))) }]
          : [],
      ),
  };
}
