/**
 * The emulator's state store: the state in memory, an order index, seeded randomness, per-order
 * locks and (optionally) persistence to a state file. All reads and mutations go through here; a
 * mutation calls `changed()` so the file follows, and every answer waits for `durable()` first, so
 * nothing is acknowledged before it is on disk (a kill -9 loses no acknowledged change and, since
 * the next order id is in the same file, never hands an acknowledged id out again).
 */
import type { Clock } from "../clock.js";
import { createRandom, type Random } from "../random.js";
import { KeyedLock } from "./locks.js";
import { loadStateFile, requireStateDirectory, writeStateFile } from "./persistence.js";
import type { EmulatorState, OrderState } from "./schema.js";
import { createInitialState } from "./seed.js";
import { emuError } from "../errors.js";

export interface StoreOptions {
  seed: number;
  clock: Clock;
  stateFile?: string;
  /** Seed option: give the "bob" account a dedicated server. */
  dedicatedServers?: boolean;
}

export class StateStore {
  state: EmulatorState;
  random: Random;
  private index = new Map<number, OrderState>();
  private readonly locks = new KeyedLock<number | string>();
  private writing: Promise<void> | undefined;
  /** Counts changes; `written` is the count the file holds. */
  private version = 0;
  private written = 0;
  /** The last write's failure, until a later write succeeds. */
  private writeError: Error | undefined;
  private closed = false;

  private constructor(
    state: EmulatorState,
    private readonly options: StoreOptions,
  ) {
    this.state = state;
    this.random = createRandom(state.randomState);
    this.reindex();
  }

  static async open(options: StoreOptions): Promise<StateStore> {
    if (options.stateFile) await requireStateDirectory(options.stateFile);
    const loaded = options.stateFile ? await loadStateFile(options.stateFile) : undefined;
    const store = new StateStore(
      loaded ?? createInitialState(options.seed, options.clock.now(), options),
      options,
    );
    if (loaded) store.settleInterruptedWork();
    store.changed();
    await store.durable();
    return store;
  }

  findOrder(orderOid: number): OrderState | undefined {
    return this.index.get(orderOid);
  }

  addOrder(order: OrderState): void {
    this.state.orders.push(order);
    this.index.set(order.orderOid, order);
    this.changed();
  }

  /** Runs a mutation of one order (or another named resource) after any earlier one has finished. */
  withLock<T>(key: number | string, task: () => Promise<T>): Promise<T> {
    return this.locks.run(key, task);
  }

  /** Back to a fresh state (control endpoint POST /__emulator/reset). */
  reset(): void {
    this.state = createInitialState(this.options.seed, this.options.clock.now(), this.options);
    this.random = createRandom(this.state.randomState);
    this.reindex();
    this.changed();
  }

  /** Marks the state as modified; the state file (if any) is rewritten at once (writes coalesce). */
  changed(): void {
    if (!this.options.stateFile || this.closed) return;
    this.version += 1;
    this.writing ??= this.writeLoop();
  }

  /**
   * Resolves once every change made so far is in the state file (at once without one). Rejects with
   * EMU_ERR_STATE_WRITE when the file cannot be written, so the answer is a 500, not a false success.
   */
  async durable(): Promise<void> {
    const target = this.version;
    while (this.written < target) {
      // After a failed write, the next answer tries again (the directory may be back).
      this.writing ??= this.writeLoop();
      await this.writing;
      if (this.written < target && this.writeError) throw this.writeFailure();
    }
  }

  async close(): Promise<void> {
    try {
      await this.durable();
    } finally {
      this.closed = true;
    }
  }

  /** Writes until the file holds the latest version; one write covers every change before it. */
  private async writeLoop(): Promise<void> {
    try {
      while (this.written < this.version) {
        const target = this.version;
        this.state.randomState = this.random.state();
        await writeStateFile(this.options.stateFile!, this.state);
        this.written = target;
        this.writeError = undefined;
      }
    } catch (error) {
      this.writeError = error as Error;
    } finally {
      this.writing = undefined;
    }
  }

  private writeFailure(): Error {
    return emuError("EMU_ERR_STATE_WRITE", {
      message: `The emulator could not write its state file ${this.options.stateFile}: ${this.writeError?.message ?? "unknown error"}. The change is in memory only; fix the file's directory (space, permissions) and retry.`,
    });
  }

  private reindex(): void {
    this.index = new Map(this.state.orders.map((o) => [o.orderOid, o]));
  }

  /**
   * A restart can interrupt a create or a reboot half-way. The real API would have finished it,
   * so the loaded state finishes it too.
   */
  private settleInterruptedWork(): void {
    const now = this.options.clock.now();
    for (const order of this.state.orders) {
      if (order.deployedState === "DEPLOYING") {
        order.deployedState = "DEPLOYED";
        order.runningState = "RUNNING";
        order.startedAtMs = now;
      }
      if (order.runningState === "RESTARTING" || order.runningState === "POWERCYCLING") {
        order.runningState = "RUNNING";
        order.startedAtMs = now;
      }
    }
  }
}
