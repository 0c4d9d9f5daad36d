/**
 * Backoff maths, pure: no clock, no global randomness unless the caller passes none.
 */

export interface DelayInput {
  /** Which retry this is: 1 for the first retry (after the first failed attempt). */
  retry: number;
  baseDelayMs: number;
  /** No wait is ever longer than this, including one asked for by Retry-After. */
  maxDelayMs: number;
  /** What the server asked for in Retry-After, if anything (see parseRetryAfter). */
  retryAfterMs?: number;
  /** Uniform in [0, 1). Injected by tests; defaults to Math.random. */
  random?: () => number;
}

/**
 * Exponential backoff with "equal jitter": the ceiling doubles per retry (base, 2·base, 4·base…,
 * capped at maxDelayMs) and the delay is uniform in [ceiling/2, ceiling]. Half the ceiling is kept
 * so a retry never fires immediately; the random half spreads clients that failed together.
 * A Retry-After from the server wins over the backoff (it knows better), capped at maxDelayMs.
 */
export function calculateDelay({
  retry,
  baseDelayMs,
  maxDelayMs,
  retryAfterMs,
  random = Math.random,
}: DelayInput): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs)) {
    return Math.min(Math.max(0, Math.round(retryAfterMs)), maxDelayMs);
  }
  const exponent = Math.max(0, retry - 1);
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** exponent);
  const jitter = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling / 2 + (jitter * ceiling) / 2);
}

/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Returns milliseconds from `nowMs`,
 * or undefined when absent or unreadable (then the normal backoff applies).
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
