/**
 * Path building and parsing shared by client and emulator: the `order-{oid}-{domain}` segment
 * (docs/rimuhosting-api.md §1.1) and matrix parameters (§1.2). One implementation, so the two sides cannot disagree.
 */

/** Longest domain part observed in real slugs (§1.1: "truncated, ≈22 chars"). */
export const SLUG_DOMAIN_MAX = 22;

/**
 * The readable domain part of an order segment. The server ignores it (§1.1, it matches `[^;/]*`),
 * so anything outside `[A-Za-z0-9-]` becomes `-`, which can never break the path.
 */
export function slugDomain(domain: string | null | undefined): string {
  const cleaned = (domain ?? "").replace(/[^A-Za-z0-9-]/g, "-").slice(0, SLUG_DOMAIN_MAX);
  return cleaned.length > 0 ? cleaned : "x";
}

/** `order-<oid>-<domain>`: the path segment after `/orders/` (AboutOrder.slug). */
export function orderSlug(orderOid: number, domain: string | null | undefined): string {
  return `order-${orderOid}-${slugDomain(domain)}`;
}

/** Parses an order segment. The oid is all the server uses; the domain part is ignored. */
export function parseOrderSegment(segment: string): number | undefined {
  const match = /^order-(\d+)(?:-[^;/]*)?$/.exec(segment);
  if (!match) return undefined;
  const oid = Number(match[1]);
  return Number.isSafeInteger(oid) ? oid : undefined;
}

export type MatrixParams = Record<string, string | number | boolean | undefined | null>;

/**
 * `;name=value` pairs for a path segment. Values are percent-encoded, so `;`, `=` and `/` inside
 * a value cannot end it early. `undefined`/`null` values are left out.
 */
export function formatMatrix(params: MatrixParams): string {
  let out = "";
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    out += `;${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
  }
  return out;
}

/**
 * Splits a raw path segment into its name and matrix parameters. `+` decodes to a space, since
 * Python and Ruby clients form-encode values (§1.2). A repeated name keeps every value.
 */
export function parseMatrix(segment: string): { name: string; params: Map<string, string[]> } {
  const [rawName = "", ...pairs] = segment.split(";");
  const params = new Map<string, string[]>();
  for (const pair of pairs) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decodeComponent(pair.slice(eq + 1));
    params.set(key, [...(params.get(key) ?? []), value]);
  }
  return { name: decodeComponent(rawName), params };
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
