/**
 * Preview-time unknown values. During `pulumi preview` an input that comes from another resource's
 * output reaches check() and diff() as this sentinel string (pulumi.runtime.unknownValue, measured in
 * docs/dynamic-providers.md §8.1). It is spelled out here so the implementation package does not load
 * @pulumi/pulumi; a test checks it against the SDK's constant.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True if the value is, or contains anywhere, the unknown sentinel. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** The top-level keys whose values are or contain an unknown. */
export function unknownKeys(bag: Record<string, unknown>): Set<string> {
  return new Set(Object.keys(bag).filter((key) => containsUnknown(bag[key])));
}

/**
 * The values with these keys unknown (a preview's check() shows the outputs a move changes this way). The same
 * type: the sentinel stands for a value of any type until it is known.
 */
export function withUnknown<T extends object>(values: T, keys: readonly string[]): T {
  return { ...values, ...Object.fromEntries(keys.map((key) => [key, UNKNOWN])) };
}

/** The values that are known (in a preview, those not waiting on another resource's output). */
export function knownValues<T extends object>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => !containsUnknown(value))) as T;
}
