/**
 * Upgrades older state files to the current STATE_VERSION before validation. Version 1 is the first
 * version, so there is nothing to migrate yet; a future version 2 adds a `1 -> 2` step here.
 */
export function migrateState(raw: unknown): unknown {
  return raw;
}
