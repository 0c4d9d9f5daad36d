/**
 * Value equality as the provider means it: the same JSON text with object keys sorted at every level.
 * The one home of that rule: old and new inputs (same()), the creation token's seed and the cache keys of
 * shared reads (a quote request) all use it, so `{a, b}` and `{b, a}` are never two different values.
 */

/** JSON with object keys sorted at every level (undefined entries dropped), so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Equal values (canonical JSON), for comparing old and new inputs. */
export const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
