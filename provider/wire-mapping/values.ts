/** Value conversions every wire-to-camelCase mapping uses (the Vps outputs and the data sources). */
import type { Timestamp } from "../../contract/index.js";

/** Removes undefined values: google.protobuf.Struct cannot carry them. */
export function compact<T extends object>(bag: T): T {
  return Object.fromEntries(Object.entries(bag).filter(([, value]) => value !== undefined)) as T;
}

/** A wire timestamp as ISO-8601. */
export function isoTime(timestamp: Timestamp | null | undefined): string | undefined {
  return timestamp?.iso_format ?? undefined;
}
