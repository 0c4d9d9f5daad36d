/**
 * The emulator's state store: the state in memory, an order index, seeded randomness, per-order
 * locks and (optionally) persistence to a state file. All reads and mutations go through here; a
 * mutation calls `changed()` so the file follows, and every answer waits for `durable()` first, so
 * nothing is acknowledged before it is on disk (a kill -9 loses no acknowledged change and, since
 * the next order id is in the same file, never hands an acknowledged id out again).
 */
import { type Clock, isTimeControl } from "../clock.js";
import { createRandom, type Random } from "../random.js";
import { KeyedLock } from "./locks.js";
import { loadSnapshotFile, loadStateFile, requireStateDirectory, writeStateFile } from "./persistence.js";
import { accountsOf, type EmulatorState, type OrderState, type SavedSnapshot } from "./schema.js";
import { createInitialState } from "./seed.js";
import { SnapshotShelf } from "./snapshots.js";
import { copyState } from "./state-json.js";
import { emuError } from "../errors.js";

export interface StoreOptions {
  seed: number;
  clock: Clock;
  stateFile?: string;
  /** A snapshot file to start from (--load-snapshot): it replaces what the state file held. */
  loadSnapshot?: string;
  /** Seed option: give the "bob" account a dedicated server. */
  dedicatedServers?: boolean;
  /** The clock was set at start (--now): the date the state file kept is not restored. */
  clockSetAtStart?: boolean;
}

export class StateStore {
  /** The accounts (never with `snapshots`: those are on the shelf). */
  state: EmulatorState;
  random: Random;
  /** The named snapshots, kept in the state file beside the accounts. */
  readonly snapshots: SnapshotShelf;
  private index = new Map<number, OrderState>();
  private readonly locks = new KeyedLock<number | string>();
  private writing: Promise<void> | undefined;
  /** Counts changes (with or without a state file); `written` is the count the file holds. */
  private changes = 0;
  private written = 0;
  /** The change count at which each order last changed; `everything` when a change named no order. */
  private readonly revisions = new WeakMap<OrderState, number>();
  private everything = 0;
  /** The last write's failure, until a later write succeeds. */
  private writeError: Error | undefined;
  private closed = false;

  private constructor(
    state: EmulatorState,
    kept: readonly SavedSnapshot[],
    private readonly options: StoreOptions,
  ) {
    this.state = accountsOf(state);
    this.random = createRandom(state.randomState);
    this.snapshots = new SnapshotShelf([...(state.snapshots ?? []), ...kept], () => this.changed());
    this.reindex();
  }

  /**
   * The state file's accounts and snapshots, or the snapshot file's accounts (--load-snapshot) with the state file's
   * snapshots: a snapshot names the accounts to start from, the named snapshots stay the state file's.
   */
  static async open(options: StoreOptions): Promise<StateStore> {
    if (options.stateFile) await requireStateDirectory(options.stateFile);
    const inFile = options.stateFile ? await loadStateFile(options.stateFile) : undefined;
    const fromSnapshot = options.loadSnapshot ? await loadSnapshotFile(options.loadSnapshot) : undefined;
    const loaded = fromSnapshot ? accountsOf(fromSnapshot) : inFile;
    const time = isTimeControl(options.clock) ? options.clock : undefined;
    if (time && inFile?.clockOffsetMs !== undefined && !options.clockSetAtStart)
      time.setOffsetMs(inFile.clockOffsetMs);
    const store = new StateStore(
      loaded ?? createInitialState(options.seed, options.clock.now(), options),
      fromSnapshot ? (inFile?.snapshots ?? []) : [],
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
    this.changed(order);
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

  /** The whole state as a snapshot holds it: a copy, with the random sequence where it is now. */
  exportState(): EmulatorState {
    this.state.randomState = this.random.state();
    return copyState(this.state);
  }

  /** What the state file holds: the accounts, the named snapshots and the clock (shared, for serializing only). */
  private fileContents(): EmulatorState {
    this.state.randomState = this.random.state();
    const clock = this.options.clock;
    return {
      ...this.state,
      snapshots: this.snapshots.entries(),
      ...(isTimeControl(clock) ? { clockOffsetMs: clock.offsetMs() } : {}),
    };
  }

  /**
   * Replaces the whole state with a snapshot's (POST /__emulator/snapshots/{name}/load). Work in progress on the
   * old state's orders finishes on objects no longer listed; the snapshot's own half-done work is settled.
   */
  replaceState(state: EmulatorState): void {
    this.state = accountsOf(copyState(state));
    this.random = createRandom(this.state.randomState);
    this.reindex();
    this.settleInterruptedWork();
    this.changed();
  }

  /**
   * Marks the state as modified: cached renderings made before are stale, and the state file (if
   * any) is rewritten at once (writes coalesce). Name the order that changed when only one did, so
   * renderings of the other orders stay cached; without one, every cached rendering is dropped.
   */
  changed(order?: OrderState): void {
    this.changes += 1;
    if (order) this.revisions.set(order, this.changes);
    else this.everything = this.changes;
    if (this.options.stateFile && !this.closed) this.writing ??= this.writeLoop();
  }

  /** Changes so far: a rendering of the state made at another count is stale. */
  get version(): number {
    return this.changes;
  }

  /** The change count at which this order last changed (a rendering of it made later is current). */
  revisionOf(order: OrderState): number {
    return Math.max(this.revisions.get(order) ?? 0, this.everything);
  }

  /**
   * Resolves once every change made so far is in the state file (at once without one). Rejects with
   * EMU_ERR_STATE_WRITE when the file cannot be written, so the answer is a 500, not a false success.
   */
  async durable(): Promise<void> {
    if (!this.options.stateFile) return;
    const target = this.changes;
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
      while (this.written < this.changes) {
        const target = this.changes;
        await writeStateFile(this.options.stateFile!, this.fileContents());
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
