/**
 * Emulator options and fault specs as zod schemas (validated at start-up and on the control
 * endpoint); the TypeScript types are inferred from them.
 */
import * as z from "zod";
import { Currency, ENDPOINTS, type EndpointName } from "../contract/index.js";
import { parseNowSetting } from "./calendar.js";
import type { Clock } from "./clock.js";
import { RateLimitSchema } from "./rate-limit.js";

const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as [EndpointName, ...EndpointName[]];
const EndpointNameSchema = z.enum(ENDPOINT_NAMES);

/**
 * The bounds of the numeric options, for the schema below and for the command's messages (cli.ts). Each bound is a
 * value someone could mean: beyond them a wait outgrows Node's timers (at most 2^31 - 1 ms; a longer one fires at
 * once, so `--latency-ms 1e12` would quietly answer in about 1 ms), and no client waits that long anyway.
 */
export const OPTION_BOUNDS = {
  port: { min: 0, max: 65535, whole: true },
  /** Ten times the real service's waits: a create takes 7.5 minutes. */
  timeScale: { min: 0, max: 10, whole: false },
  /** Ten minutes on every request. */
  latencyMs: { min: 0, max: 600_000, whole: false },
  errorRate: { min: 0, max: 1, whole: false },
} as const;

const bounded = (name: keyof typeof OPTION_BOUNDS) => {
  const { min, max, whole } = OPTION_BOUNDS[name];
  return (whole ? z.number().int() : z.number()).min(min).max(max);
};

const Rate = bounded("errorRate");

export const FaultSpecSchema = z.object({
  /** Endpoint name from contract/ ENDPOINTS (e.g. "createVps"), or "*" for every route. */
  route: z.union([EndpointNameSchema, z.literal("*")]),
  /**
   * "status": answer with `status` (default 503; 429 adds Retry-After). "drop": destroy the socket
   * before any mutation. "drop-after-commit": perform the request, then destroy the socket instead
   * of answering. "delay": wait `delayMs` first. "delay-after-commit": perform the request, then wait
   * `delayMs` before answering (a client that times out meanwhile has a committed mutation).
   */
  kind: z.enum(["status", "drop", "drop-after-commit", "delay", "delay-after-commit"]),
  status: z.number().int().min(400).max(599).optional(),
  retryAfterSeconds: z.number().int().nonnegative().optional(),
  delayMs: z.number().nonnegative().optional(),
  /** How many matching requests it hits; default 1. */
  times: z.number().int().positive().optional(),
  /**
   * Matrix parameters the request must carry, each with this value (`{ include_inactive: "N" }`: a listing of the
   * active orders, not a search by creation token, which asks `include_inactive=Y`); default: any.
   */
  matrix: z.record(z.string().min(1), z.string()).optional(),
  /**
   * How many matching requests it lets through before it hits (those an earlier armed fault hits are not counted):
   * `{ route: "listOrders", skip: 1 }` hits the second listing, not the first; default 0.
   */
  skip: z.number().int().nonnegative().optional(),
});
export type FaultSpec = z.infer<typeof FaultSpecSchema>;

export const EmulatorOptionsSchema = z.object({
  /** Interface to listen on; default "127.0.0.1". */
  host: z.string().default("127.0.0.1"),
  /** Port; default 0 = a random free port. */
  port: bounded("port").default(0),
  /** Multiplies every realistic duration of the real API; default 1; 0 = instant. */
  timeScale: bounded("timeScale").default(1),
  /** Persist state to this JSON file (atomic writes); default: memory only. */
  stateFile: z.string().min(1).optional(),
  /**
   * Start from this snapshot file (a saved state: GET /__emulator/snapshots/{name}, or a state file); it replaces
   * what `stateFile` held. Default: a fresh state.
   */
  loadSnapshot: z.string().min(1).optional(),
  /**
   * The emulator's date at start: an ISO 8601 date (`2027-01-15`) or date and time, or a duration ahead of the
   * machine's date (`+40d`, `+12h`); it runs on from there. Default: the machine's date, or the date a state file
   * kept. Moved at run time with POST /__emulator/time/advance.
   */
  now: z
    .string()
    .refine((value) => parseNowSetting(value, Date.now()) !== undefined, {
      message: "now must be an ISO 8601 date (2027-01-15) or date and time, or a duration ahead such as +40d",
    })
    .optional(),
  /** Milliseconds added to every request (a chaos rule on every route); default 0. */
  latencyMs: bounded("latencyMs").default(0),
  /** Chance (0..1) of a random 503 (a chaos rule), for every route or per endpoint name; default 0. */
  errorRate: z.union([Rate, z.partialRecord(EndpointNameSchema, Rate)]).default(0),
  /**
   * At most `requests` requests per API key in each window of `windowSeconds`, then 429 with Retry-After
   * (rate-limit.ts); default: no limit. Changed at run time with PUT /__emulator/rate-limit.
   */
  rateLimit: RateLimitSchema.optional(),
  /** One-shot faults armed at start-up. */
  faults: z.array(FaultSpecSchema).default([]),
  /** Enables the /__emulator/* control endpoints; default false. */
  control: z.boolean().default(false),
  /** Structured request log lines (pino via fastify); default false. */
  logger: z.boolean().default(false),
  /**
   * Check every answer against the contract's zod response schema before sending it, and answer a
   * 500 if it breaks the contract. It catches emulator bugs, so the emulator's own tests turn it on;
   * it costs CPU on every request, so it is off by default. Default false.
   */
  validateResponses: z.boolean().default(false),
  /**
   * Answer every listing of orders (R1) in a new random order (from the seed), and each order's secondary IP
   * addresses (R1, R2) too: for a client that must not depend on the order RimuHosting lists them in (a drift check
   * that reads the same account twice). Default false.
   */
  shuffleListings: z.boolean().default(false),
  /** Seed for ids, passwords and IPs; default 1. */
  seed: z.number().int().default(1),
  /**
   * Start the "bob" demo account with one dedicated (PHYSICAL) server, so `server_type` filters have
   * something to find; default false, so snapshots start empty.
   */
  dedicatedServers: z.boolean().default(false),
  /**
   * Plans (by code) priced in another currency only: R15 lists them, and R16 quotes them, with
   * `monthly_recurring_amt` in that currency and no USD value (no `amt_usd`, no `monthly_recurring_fee`), e.g.
   * `{ MIRO2B: "CUR_NZD" }`, to test a program against a price it cannot read in USD. Default: every price in USD.
   */
  planCurrencies: z.record(z.string(), Currency.exclude(["CUR_USD"])).default({}),
  /**
   * Replaces the emulator's clock (tests: record the durations operations ask for without waiting).
   * When given, timeScale is not applied: the clock's `work()` decides.
   */
  clock: z
    .custom<Clock>((v) => typeof v === "object" && v !== null && typeof (v as Clock).work === "function")
    .optional(),
});
export type StartEmulatorOptions = z.input<typeof EmulatorOptionsSchema>;

/** The options with every default filled in. */
export type ResolvedOptions = z.output<typeof EmulatorOptionsSchema>;

export function resolveOptions(input: StartEmulatorOptions = {}): ResolvedOptions {
  return EmulatorOptionsSchema.parse(input);
}
