/**
 * How long one operation of a Vps may take, and where that limit came from (docs/native-plugin.md, "Time limits"):
 *
 * 1. the Vps `timeouts` input (`createMinutes`, `updateMinutes`, `deleteMinutes`), which wins;
 * 2. the engine's timeout of the request (`customTimeouts` in the program; the native plugin receives it with each
 *    Create, Update, Delete and Read; the dynamic-provider host passes none);
 * 3. the default: the client's limit of a change (an hour), or of a read (30 s, or RIMUHOSTING_READ_TIMEOUT_MS).
 *
 * A create, update or delete limits each change it sends (and a move, that plus 10 minutes per GB of used disk); a
 * read limits each read. A timeout's message names the limit as limitName() says it, so the user knows which
 * number to raise and where.
 */
import { DEFAULT_TIMEOUTS } from "../../client/config.js";
import { READ_TIMEOUT_ENV_VAR } from "../../config.js";

export type LimitedOperation = "create" | "update" | "delete" | "read";
export type LimitSource = "input" | "customTimeouts" | "default";

export interface TimeLimit {
  operation: LimitedOperation;
  ms: number;
  source: LimitSource;
}

/** What the engine said of one request: its timeout in seconds (absent or 0: none was set). */
export interface EngineRequest {
  timeoutSeconds?: number;
}

/** The input of each operation that sets its limit (the `timeouts` input's keys); a read has none. */
const INPUT_KEY: Record<LimitedOperation, string | undefined> = {
  create: "createMinutes",
  update: "updateMinutes",
  delete: "deleteMinutes",
  read: undefined,
};

/** The limit of `operation`: `inputMinutes` (the `timeouts` input) over the engine's timeout over the client's default. */
export function timeLimitOf(
  operation: LimitedOperation,
  inputMinutes: number | undefined,
  engine: EngineRequest = {},
): TimeLimit {
  if (inputMinutes !== undefined)
    return { operation, ms: Math.round(inputMinutes * 60_000), source: "input" };
  const seconds = engine.timeoutSeconds;
  if (seconds !== undefined && Number.isFinite(seconds) && seconds > 0)
    return { operation, ms: Math.round(seconds * 1000), source: "customTimeouts" };
  const ms = operation === "read" ? DEFAULT_TIMEOUTS.readMs : DEFAULT_TIMEOUTS.mutationMs;
  return { operation, ms, source: "default" };
}

/** A duration as people say it: `2 s`, `90 s`, `5 min`, `1.5 h`. */
export function duration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 6_000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

/** Where the limit came from, in the user's words. */
function sourceWords(limit: TimeLimit): string {
  const input = INPUT_KEY[limit.operation];
  switch (limit.source) {
    case "input":
      return `from the Vps \`timeouts\` input's ${input}`;
    case "customTimeouts":
      return (
        `from the resource's customTimeouts.${limit.operation}` +
        (input ? ` (the Vps \`timeouts\` input's ${input} would win over it)` : "")
      );
    case "default":
      return input
        ? `the default; raise it with the Vps \`timeouts\` input's ${input} or customTimeouts.${limit.operation}`
        : `the default; raise it with customTimeouts.read or ${READ_TIMEOUT_ENV_VAR}`;
  }
}

/** The limit as a timeout's message names it: `the create limit of 2 s, from the resource's customTimeouts.create`. */
export function limitName(limit: TimeLimit): string {
  return `the ${limit.operation} limit of ${duration(limit.ms)}, ${sourceWords(limit)}`;
}
