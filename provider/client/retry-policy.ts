/**
 * Which calls may be repeated, on what, and with which timeout: one table, read by the transport.
 *
 * The question for each endpoint is "if the first request did reach the server and did its work,
 * is sending it again harmless?" A GET is. A PUT that sets an absolute target (a running state, a
 * set of total sizes, the cancelled flag, a PTR value) is. A PUT or DELETE that starts an action
 * (reinstall wipes the disk again, a move starts another move, a reboot reboots again, a second
 * delete of a cancelled order fails confusingly) is not: those are retried only when the server
 * certainly did nothing (429, or the connection was refused). POST new-vps is never repeated by
 * the transport: createVps reconciles by creation token instead (create-vps.ts).
 */
import type { EndpointName, RunningState } from "../../contract/index.js";

/** Statuses that mean "try again later" (rate limit, proxy/gateway trouble, maintenance). */
export const RETRYABLE_STATUSES = [429, 502, 503, 504] as const;

/** Connection failures; "socket hang up" surfaces as ECONNRESET. */
export const CONNECTION_ERROR_CODES = [
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EAI_AGAIN",
] as const;

export interface RetryRule {
  /** HTTP statuses that are retried. */
  readonly statuses: readonly number[];
  /** Network error codes that are retried. */
  readonly errorCodes: readonly string[];
  /** Whether a timeout is retried. */
  readonly onTimeout: boolean;
}

export const RETRY_RULES = {
  /** Reads: everything transient, timeouts included (a read timeout is short; repeating it is harmless). */
  read: { statuses: RETRYABLE_STATUSES, errorCodes: CONNECTION_ERROR_CODES, onTimeout: true },
  /**
   * Writes of an absolute target. Not on timeout: the mutation timeout is long (an hour by default),
   * the work may still be running server-side, and a second hour-long call helps nobody.
   */
  idempotentWrite: { statuses: RETRYABLE_STATUSES, errorCodes: CONNECTION_ERROR_CODES, onTimeout: false },
  /** Actions: only when the server certainly did nothing. */
  action: { statuses: [429], errorCodes: ["ECONNREFUSED"], onTimeout: false },
  /** POST new-vps: never by the transport (createVps reconciles). */
  never: { statuses: [], errorCodes: [], onTimeout: false },
} as const satisfies Record<string, RetryRule>;
export type RetryRuleName = keyof typeof RETRY_RULES;

export type TimeoutKind = "read" | "mutation" | "move";

export interface EndpointPolicy {
  readonly retry: RetryRuleName;
  readonly timeout: TimeoutKind;
}

/** The policy of every endpoint (R1–R17). setRunningState is refined per target state below. */
export const RETRY_POLICY = {
  listOrders: { retry: "read", timeout: "read" },
  getOrder: { retry: "read", timeout: "read" },
  cancelOrder: { retry: "idempotentWrite", timeout: "mutation" },
  createVps: { retry: "never", timeout: "mutation" },
  getVpsStatus: { retry: "read", timeout: "read" },
  deleteVps: { retry: "action", timeout: "mutation" },
  getDataTransferUsage: { retry: "read", timeout: "read" },
  moveVps: { retry: "action", timeout: "move" },
  changeParameters: { retry: "idempotentWrite", timeout: "mutation" },
  reinstallVps: { retry: "action", timeout: "mutation" },
  setRunningState: { retry: "idempotentWrite", timeout: "mutation" },
  setReverseDns: { retry: "idempotentWrite", timeout: "mutation" },
  listBillingMethods: { retry: "read", timeout: "read" },
  listDistributions: { retry: "read", timeout: "read" },
  listPricingPlans: { retry: "read", timeout: "read" },
  // A PUT only because it carries a body; it computes a price and changes nothing.
  quoteNewVm: { retry: "read", timeout: "read" },
  listDataCenters: { retry: "read", timeout: "read" },
} as const satisfies Record<EndpointName, EndpointPolicy>;

/** RUNNING/NOTRUNNING are targets (repeating is a no-op); RESTARTING/POWERCYCLING are actions. */
export const RUNNING_STATE_RETRY: Readonly<Record<RunningState, RetryRuleName>> = {
  RUNNING: "idempotentWrite",
  NOTRUNNING: "idempotentWrite",
  RESTARTING: "action",
  POWERCYCLING: "action",
};

/** What went wrong with one attempt, as far as retrying is concerned. */
export interface AttemptFailure {
  status?: number;
  networkCode?: string;
  timedOut?: boolean;
}

export function isRetryable(rule: RetryRule, failure: AttemptFailure): boolean {
  if (failure.timedOut) return rule.onTimeout;
  if (failure.status !== undefined) return rule.statuses.includes(failure.status);
  if (failure.networkCode !== undefined) return rule.errorCodes.includes(failure.networkCode);
  return false;
}

/** The client option that sets each time limit, as a timeout's message names it. */
export const TIMEOUT_OPTIONS: Readonly<Record<TimeoutKind, string>> = {
  read: "timeouts.readMs",
  mutation: "timeouts.mutationMs",
  move: "timeouts.mutationMs + timeouts.movePerGbMs per GB of used disk",
};

/**
 * The timeout of one call. A host-server move gets the mutation timeout (the fixed part: checks,
 * stop, start, DNS) plus movePerGbMs for every GB of used disk (the copy: 5–10 min per GB).
 */
export function timeoutMs(
  kind: TimeoutKind,
  timeouts: { readMs: number; mutationMs: number; movePerGbMs: number },
  usedDiskMb?: number,
): number {
  if (kind === "read") return timeouts.readMs;
  if (kind === "mutation" || usedDiskMb === undefined) return timeouts.mutationMs;
  return timeouts.mutationMs + Math.ceil((Math.max(0, usedDiskMb) / 1024) * timeouts.movePerGbMs);
}
