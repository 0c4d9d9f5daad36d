/**
 * The rate limit (docs/emulator.md, "Rate limit"): at most `requests` requests per API key in each window of
 * `windowSeconds`, then 429 with `Retry-After` (the seconds until the key's window ends) until the window is over.
 * Fixed windows, each key's starting with its first request, as a service's quota per key does. Requests without a
 * valid-looking key share one count. Off unless set (the `rateLimit` option, `--rate-limit`, or
 * PUT /__emulator/rate-limit at run time); the control routes are never counted.
 */
import * as z from "zod";

export const RateLimitSchema = z.strictObject({
  /** Requests each key may make per window: 1 or more. */
  requests: z.number().int().min(1).max(1_000_000),
  /** The window's length in seconds (a fraction is allowed: tests use short windows). */
  windowSeconds: z.number().gt(0).max(86_400),
});
export type RateLimit = z.infer<typeof RateLimitSchema>;

/** The control route's body: a limit, or `{ "requests": null }` to turn it off. */
export const RateLimitUpdateSchema = z
  .strictObject({
    requests: RateLimitSchema.shape.requests.nullable(),
    windowSeconds: RateLimitSchema.shape.windowSeconds.optional(),
  })
  .refine((body) => body.requests === null || body.windowSeconds !== undefined, {
    path: ["windowSeconds"],
    error: "is needed with requests: the window's length in seconds, such as 60",
  });

interface KeyWindow {
  startedMs: number;
  count: number;
}

export class RateLimiter {
  private limit: RateLimit | undefined;
  private readonly windows = new Map<string, KeyWindow>();

  constructor(
    limit: RateLimit | undefined,
    private readonly now: () => number,
  ) {
    this.limit = limit;
  }

  /** The limit in force (undefined: off). */
  current(): RateLimit | undefined {
    return this.limit;
  }

  /** Sets a new limit (undefined: off); every key starts a new window. */
  set(limit: RateLimit | undefined): void {
    this.limit = limit;
    this.windows.clear();
  }

  /** Counts one request of `key`: undefined when it may go on, else the seconds its client should wait. */
  take(key: string): number | undefined {
    const limit = this.limit;
    if (!limit) return undefined;
    const now = this.now();
    const windowMs = limit.windowSeconds * 1000;
    let window = this.windows.get(key);
    if (!window || now - window.startedMs >= windowMs) {
      window = { startedMs: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= limit.requests) return undefined;
    return Math.max(1, Math.ceil((window.startedMs + windowMs - now) / 1000));
  }
}

/** `--rate-limit 10/60`: 10 requests per 60 seconds; undefined when the text is not of that form. */
export function parseRateLimitFlag(text: string): RateLimit | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return undefined;
  const parsed = RateLimitSchema.safeParse({ requests: Number(match[1]), windowSeconds: Number(match[2]) });
  return parsed.success ? parsed.data : undefined;
}
