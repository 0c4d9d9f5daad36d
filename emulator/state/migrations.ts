/**
 * Upgrades older state files to the current STATE_VERSION before validation, one step per version, so a state file
 * or snapshot an older release wrote still loads.
 */

/** Each step takes the JSON of version `from` to version `from + 1`. */
const STEPS: Record<number, (raw: Record<string, unknown>) => Record<string, unknown>> = {
  // Version 2 added keys that may be left out (the named snapshots): a version 1 state is a version 2 one as it is.
  1: (raw) => ({ ...raw, version: 2 }),
};

/** `raw` at `targetVersion`, when it is an object of an older version with a step for each version on the way. */
export function migrateState(raw: unknown, targetVersion: number): unknown {
  let state = raw as Record<string, unknown>;
  while (typeof state?.version === "number" && state.version < targetVersion) {
    const step = STEPS[state.version];
    if (!step) break;
    state = step(state);
  }
  return state;
}
