/**
 * The emulator's state store: the state in memory, an order index, seeded randomness, per-order
 * locks and (optionally) write-behind persistence to a state file. All reads and mutations go
 * through here; a mutation calls `changed()` so the file follows.
 */
import type { Clock } from "../clock.js";
import { createRandom, type Random } from "../random.js";
import { KeyedLock } from "./locks.js";
import { loadStateFile, writeStateFile } from "./persistence.js";
import type { EmulatorState, OrderState } from "./schema.js";
import { createInitialState } from "./seed.js";

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
  private dirty = false;
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
    const loaded = options.stateFile ? await loadStateFile(options.stateFile) : undefined;
    const store = new StateStore(
      loaded ?? createInitialState(options.seed, options.clock.now(), options),
      options,
    );
    if (loaded) store.settleInterruptedWork();
    store.changed();
    await store.flush();
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

  /** Marks the state as modified; the state file (if any) is rewritten soon after. */
  changed(): void {
    if (!this.options.stateFile || this.closed) return;
    this.dirty = true;
    if (!this.writing) this.writing = this.writeLoop();
  }

  /** Resolves once everything changed so far is on disk. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        this.state.randomState = this.random.state();
        await writeStateFile(this.options.stateFile!, this.state);
      }
    } finally {
      this.writing = undefined;
    }
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
