/**
 * What changed outside Pulumi that the program's inputs cannot show: a refresh's diff compares the order it read
 * with the inputs recorded by the last up (refresh-diff.ts), so a value the program never set (the host RimuHosting
 * chose, and the IP addresses, which are no inputs at all) changes without a word. A move to another host in a
 * program without hostServerOid changed the host and the IP address, and the refresh printed "unchanged" while it
 * wrote both into the state (issue 41).
 *
 * read() has the outputs recorded before it and the order it read: it compares the facts a user relies on, and
 * hands the changes to the refresh's diff inside the refreshed outputs, under a key the engine never displays
 * (`__outOfBand`). The diff runs on those outputs right after the read, in the same engine step, so nothing is kept
 * between calls. A refresh that writes its state writes the key too; the next read compares with what it wrote, so
 * it says each change once.
 *
 * Values are compared as the service means them, never as it spells them: an IPv6 address in any of its
 * spellings, an IPv4 address with leading zeros, a list of addresses in any order, a host number as a number or
 * a string are each one value. A value the recorded outputs lack (a state written by an older release, an
 * import) is no change: there is nothing to compare with.
 */
import { canonicalJson } from "../inputs/canonical-json.js";

/** The hidden output key carrying what read() saw change (the engine hides keys starting with "__"). */
export const OUT_OF_BAND_KEY = "__outOfBand";

/** One fact that changed outside Pulumi, with the value recorded before and the value read now. */
export interface ObservedChange {
  property: string;
  before: unknown;
  after: unknown;
}

/** An IP address in one spelling: IPv6 compressed and lower case (the URL parser's form), IPv4 without zeros. */
export function normalIp(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim().toLowerCase();
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) return text.split(".").map(Number).join(".");
  if (!text.includes(":")) return text;
  try {
    return new URL(`http://[${text.replace(/^\[|\]$/g, "")}]/`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return text;
  }
}

const ipList = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(normalIp).map(String).sort() : value;

/**
 * The facts compared, each with how the service may respell it. Inputs among them are compared here only when
 * the program did not set them (the refresh's diff already compares those it set with what the program said).
 */
const WATCHED: Record<string, (value: unknown) => unknown> = {
  primaryIp: normalIp,
  secondaryIps: ipList,
  hostServerOid: (value) => (typeof value === "number" ? String(value) : value),
  memoryMb: (value) => value,
  diskSpaceMb: (value) => value,
  diskSpace2Mb: (value) => (value === 0 ? undefined : value),
  runningState: (value) => value,
  distro: (value) => value,
  dcLocation: (value) => value,
  // Not the program's to set, but what the change costs: the drift report prices each change by it.
  monthlyFeeUsd: (value) => (typeof value === "number" ? Math.round(value * 100) : value),
  // A cancellation scheduled for the end of the billing period (R3): the VPS runs until that day, then is gone.
  cancellationDate: (value) => value,
};

/**
 * Facts whose absence is a value: no cancellation scheduled. Pulumi never schedules one, so a date that appears (a
 * state written before this output existed included) or goes (RimuHosting's support undid it) is drift either way.
 */
const ABSENCE_IS_A_VALUE = new Set(["cancellationDate"]);

/** True when the two values are the same fact for `property`. */
export function sameFact(property: string, a: unknown, b: unknown): boolean {
  const normal = WATCHED[property] ?? ((value: unknown) => value);
  return canonicalJson(normal(a)) === canonicalJson(normal(b));
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * What changed between the outputs recorded before a refresh and those it read (both sides set, or a fact whose
 * absence is a value, and not the same).
 */
export function observedChanges(
  recorded: Record<string, unknown>,
  read: Record<string, unknown>,
): ObservedChange[] {
  return (
    Object.keys(WATCHED)
      .filter(
        (property) =>
          (isSet(recorded[property]) && isSet(read[property])) || ABSENCE_IS_A_VALUE.has(property),
      )
      .filter((property) => !sameFact(property, recorded[property], read[property]))
      // null, never undefined, for an absent fact: the engine's wire (a protobuf Struct) cannot carry undefined.
      .map((property) => ({ property, before: recorded[property] ?? null, after: read[property] ?? null }))
  );
}

/** The refreshed outputs with what changed since the recorded ones, when anything did. */
export function withObservedChanges<T extends object>(outputs: T, recorded: Record<string, unknown>): T {
  // No recorded outputs (`pulumi import`): nothing to compare with, an absence included.
  if (Object.keys(recorded).length === 0) return outputs;
  const changes = observedChanges(recorded, outputs as Record<string, unknown>);
  return changes.length === 0 ? outputs : { ...outputs, [OUT_OF_BAND_KEY]: changes };
}

/**
 * The changes read() handed the refresh's diff in `outputs`, but those of inputs the program set (`inputs`, the
 * recorded inputs): the diff compares those itself, against what the program said.
 */
export function observedOutOfBand(
  outputs: Record<string, unknown>,
  inputs: Record<string, unknown>,
): ObservedChange[] {
  const carried = outputs[OUT_OF_BAND_KEY];
  if (!Array.isArray(carried)) return [];
  return carried.filter(
    (change): change is ObservedChange =>
      typeof change === "object" &&
      change !== null &&
      typeof (change as ObservedChange).property === "string" &&
      !isSet(inputs[(change as ObservedChange).property]),
  );
}
