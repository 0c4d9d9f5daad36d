/** The wire form of java.sql.Timestamp (docs/rimuhosting-api.md, 3.1 Timestamp). */
import type { Timestamp } from "../../contract/index.js";

/** ISO strings by whole second: Date formatting dominated listing 1,000 orders (bench/emulator.ts). */
const isoCache = new Map<number, string>();
const ISO_CACHE_LIMIT = 50_000;

function isoSeconds(ms: number): string {
  const second = Math.floor(ms / 1000);
  let iso = isoCache.get(second);
  if (iso === undefined) {
    if (isoCache.size >= ISO_CACHE_LIMIT) isoCache.clear();
    iso = new Date(second * 1000).toISOString().replace(".000Z", "Z");
    isoCache.set(second, iso);
  }
  return iso;
}

export function toTimestamp(ms: number): Timestamp {
  return { ms_since_epoch: ms, iso_format: isoSeconds(ms), users_tz_offset_ms: 0 };
}

export function toTimestampOrNull(ms: number | null): Timestamp | null {
  return ms === null ? null : toTimestamp(ms);
}

/** "2026-11-21": dates as the recorded messages print them. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
