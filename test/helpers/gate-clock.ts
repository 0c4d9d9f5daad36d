/**
 * A Clock (emulator/clock.ts) whose waits end only when the test opens them: a test sees that the emulator
 * has started waiting (a fault's delay, an answer held after commit, a create's setup) and decides when the
 * wait ends. So "nothing happened during the wait" is proven at a known point, with no wall-clock sleep.
 *
 *   const clock = new GateClock({ gated: ["sleep"] });     // faults and latency wait; work() is instant
 *   const emu = await startTestEmulator({ clock });
 *   const wait = await clock.nextWait();                   // the emulator is now waiting
 *   wait.open();                                           // and now it goes on
 */
import type { Clock } from "../../emulator/clock.js";

/** One wait the emulator started: which method, how long it asked for, and how to end it. */
export interface GateWait {
  kind: "work" | "sleep";
  ms: number;
  open(): void;
}

export class GateClock implements Clock {
  private readonly gated: ReadonlySet<"work" | "sleep">;
  /** Started waits not yet handed to the test by nextWait(), oldest first. */
  private readonly started: GateWait[] = [];
  /** Tests waiting in nextWait() for a wait to start. */
  private readonly takers: ((wait: GateWait) => void)[] = [];
  private readonly unopened = new Set<GateWait>();
  private disposed = false;

  /** `gated`: the methods whose waits the test opens; the others end at once (timeScale 0). */
  constructor({ gated }: { gated: readonly ("work" | "sleep")[] }) {
    this.gated = new Set(gated);
  }

  now(): number {
    return Date.now();
  }

  work(realisticMs: number): Promise<void> {
    return this.wait("work", realisticMs);
  }

  sleep(ms: number): Promise<void> {
    return this.wait("sleep", ms);
  }

  /** Ends every wait, as the real clock's dispose() does when the emulator closes. */
  dispose(): void {
    this.disposed = true;
    for (const wait of [...this.unopened]) wait.open();
  }

  /**
   * The next wait the emulator starts (or one already started that no call has returned yet). Given the
   * request that should wait, fails as soon as that request ends without the emulator having waited.
   */
  nextWait(request?: Promise<unknown>): Promise<GateWait> {
    const wait = this.started.shift();
    if (wait) return Promise.resolve(wait);
    let taker!: (wait: GateWait) => void;
    const next = new Promise<GateWait>((resolve) => this.takers.push((taker = resolve)));
    if (!request) return next;
    // A request that ends first loses the race: its taker leaves the queue, so the next wait goes to the next call.
    const withdraw = () => {
      const at = this.takers.indexOf(taker);
      if (at >= 0) this.takers.splice(at, 1);
    };
    const ended = request.then(
      () => {
        withdraw();
        return Promise.reject(new Error("the request was answered without waiting on the clock"));
      },
      (error: unknown) => {
        withdraw();
        return Promise.reject(new Error("the request failed without waiting on the clock", { cause: error }));
      },
    );
    ended.catch(() => undefined); // once the wait has started, the request's end is no failure
    return Promise.race([next, ended]);
  }

  /** Waits started and not yet opened. */
  pending(): number {
    return this.unopened.size;
  }

  private wait(kind: "work" | "sleep", ms: number): Promise<void> {
    if (this.disposed || !this.gated.has(kind) || !(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const wait: GateWait = {
        kind,
        ms,
        open: () => {
          this.unopened.delete(wait);
          resolve();
        },
      };
      this.unopened.add(wait);
      const taker = this.takers.shift();
      if (taker) taker(wait);
      else this.started.push(wait);
    });
  }
}
