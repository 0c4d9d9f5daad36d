/**
 * Named snapshots (/__emulator/snapshots): whole states kept under a name, to load again later (a test's starting
 * account) or to download as the file `--load-snapshot` starts from. Each is the state file's JSON, so a snapshot, a
 * state file and a downloaded snapshot are one format, versioned together. The state file keeps them too (its
 * `snapshots`), so they outlive a restart with --state-file: the store writes what `entries()` lists.
 */
import { emuError } from "../errors.js";
import { accountsOf, type EmulatorState, type SavedSnapshot } from "./schema.js";
import { copyState } from "./state-json.js";

/** What the list of snapshots says about each. */
export interface SnapshotSummary {
  name: string;
  /** When it was saved (ISO 8601, the emulator's clock). */
  savedAt: string;
  orders: number;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class SnapshotShelf {
  private readonly saved = new Map<string, { state: EmulatorState; savedAtMs: number }>();

  /** `kept`: the snapshots a state file held; `changed`: called after each put, so the state file follows. */
  constructor(
    kept: readonly SavedSnapshot[] = [],
    private readonly changed: () => void = () => {},
  ) {
    for (const { name, state, savedAtMs } of kept) this.saved.set(name, { state, savedAtMs });
  }

  /** Keeps a copy of `state`'s accounts under `name` (replacing one of that name): no state file's own snapshots. */
  put(name: string, state: EmulatorState, nowMs: number): SnapshotSummary {
    requireName(name);
    this.saved.set(name, { state: accountsOf(copyState(state)), savedAtMs: nowMs });
    this.changed();
    return this.summary(name);
  }

  /** Every snapshot as the state file keeps it (shared, not copied: the caller only serializes it). */
  entries(): SavedSnapshot[] {
    return [...this.saved].map(([name, { state, savedAtMs }]) => ({ name, savedAtMs, state }));
  }

  /** A copy of the snapshot `name`; a 404 naming the saved ones when there is none. */
  get(name: string): EmulatorState {
    const entry = this.saved.get(name);
    if (!entry) {
      const names = [...this.saved.keys()];
      throw emuError("EMU_ERR_ROUTE_NOT_FOUND", {
        message: `There is no snapshot named '${name}'. ${names.length ? `Saved: ${names.join(", ")}.` : "None is saved yet."} Save one with POST /__emulator/snapshots/${name}.`,
      });
    }
    return copyState(entry.state);
  }

  list(): SnapshotSummary[] {
    return [...this.saved.keys()].sort().map((name) => this.summary(name));
  }

  private summary(name: string): SnapshotSummary {
    const { state, savedAtMs } = this.saved.get(name)!;
    return { name, savedAt: new Date(savedAtMs).toISOString(), orders: state.orders.length };
  }
}

function requireName(name: string): void {
  if (!NAME.test(name)) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: "name",
      message: `The snapshot name '${name}' is not valid: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
    });
  }
}
