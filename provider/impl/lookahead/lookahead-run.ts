/**
 * What every check of the look-ahead (vps-lookahead.ts, host-checks.ts) works on: one check()'s view of the
 * resource (LookaheadCheck), and how a read or a quote that fails becomes a failure, a warning or the end of the look-ahead.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { RIMU_ERROR_CODES, RimuError } from "../../client/index.js";
import { same } from "../inputs/canonical-json.js";
import type { CheckFailure } from "../engine/check-failure.js";
import { presentError, serviceText, type ErrorCode, type VpsError } from "../engine/errors.js";
import { warning, type Note } from "../engine/notes.js";
import type { FeeCheck, PlannedFee } from "../budget/planned-fee.js";
import { readFailure } from "../account/read-failures.js";
import type { VpsInputName } from "../fields/vps-fields.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import type { RunContext } from "../engine/run-context.js";

/** What the look-ahead found: failures (the preview fails), notes (warnings, prices) and the outputs a move changes. */
export interface LookAhead {
  failures: CheckFailure[];
  notes: Note[];
  /** Outputs a planned move changes: check() returns them unknown in a preview, so dependents show a change. */
  unknownOutputs: string[];
  /** The fee once this run's change is applied (planned-fee.ts); absent when a check failed. */
  fee?: PlannedFee;
  /** The order check() records in the inputs (RECORDED_ORDER_KEY, vps-lookahead.ts), when there is one. */
  recordedOrderOid?: number;
  /** The live order this run's change is made on or replaces (an adopted order too), when there is one. */
  liveOrderOid?: number;
  /** A killed run's order this new resource takes back (ownership/take-back.ts): check() gives it that order's nonce. */
  takenBack?: AboutOrder;
  /** The creation token of the checked inputs (creation-token.ts), when the look-ahead worked it out. */
  creationToken?: string;
}

/**
 * One check()'s view of the resource, read-only: a check adds its failures, warnings and unknown outputs to `out`
 * and returns what it found (the answers the planned fee depends on, planned-fee.ts's FeeFindings); it never writes
 * onto the LookaheadCheck (test/provider/impl/process-state.test.ts fails when one does). What outlives the check belongs to
 * the run context, `context` (run-context.ts), which check() hands in, and its account's `view`.
 */
export interface LookaheadCheck extends FeeCheck {
  /** The run this check belongs to: the catalogue, the token look-ups and the preview's price lines are its. */
  readonly context: RunContext;
  /** New inputs whose values are known. */
  readonly known: VpsInputs;
  readonly preview: boolean;
  /**
   * The check may belong to `pulumi up` though it runs a preview's checks: the native plugin's, whose protocol
   * carries no preview flag (host-room.ts words its advice for both).
   */
  readonly mayApply?: boolean;
  /** The account's active orders (the shared listing), when it could be read: which of its VPSs are on which host. */
  readonly orders?: readonly AboutOrder[];
  readonly name: string;
  readonly resource: string;
  /** What the look-ahead returns: each check adds to its lists. */
  readonly out: LookAhead;
}

/** Stops the look-ahead: a wrong key or address makes every later check meaningless. */
export class Stop extends Error {}

export const changed = (run: LookaheadCheck, name: VpsInputName): boolean =>
  run.isNew || !same(run.before[name], run.after[name]);

/**
 * One shared read. A wrong key or address fails the preview (and stops the look-ahead); a temporary fault
 * skips what needed it, with a warning saying which check did not run.
 */
export async function shared<T>(
  run: LookaheadCheck,
  check: string,
  read: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    couldNotRead(run, check, error);
    return undefined;
  }
}

/**
 * What a failed read means for `check`: wrong settings or a refusal fail the preview (Stop); anything else (a 5xx,
 * a timeout) becomes a warning that names the check that did not run.
 */
export function couldNotRead(run: LookaheadCheck, check: string, error: unknown): void {
  const failure = readFailure(error, run.baseUrl);
  if (failure.kind === "settings") {
    run.out.failures.push(failureOf(failure.error));
    throw new Stop();
  }
  if (failure.kind === "refused") {
    run.out.failures.push(failureOf(presentError(failure.error, "")));
    throw new Stop();
  }
  const code = error instanceof RimuError ? error.code : RIMU_ERROR_CODES.RimuTransientError;
  run.out.notes.push(
    warning(
      `[${code}] ${run.name}: ${check} did not run: ${failure.why}. \`pulumi up\` finds out when it gets there.`,
    ),
  );
}

/**
 * A quote that judges the request: a refusal is a failure naming the input (the service's words). A refusal
 * that names no field (no host has room) is the input's that asked for the room: `blame`.
 */
export async function judge<T>(
  run: LookaheadCheck,
  check: string,
  blame: string,
  read: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    const failure = readFailure(error, run.baseUrl);
    if (failure.kind === "refused") {
      const refusal = serviceFailure(failure.error);
      run.out.failures.push(refusal.property === "" ? { ...refusal, property: blame } : refusal);
      return undefined;
    }
    return shared(run, check, () => Promise.reject(error));
  }
}

/** A client error of the service's about the request, as a failure naming the input in the user's words. */
export function serviceFailure(error: Parameters<typeof serviceText>[0]): CheckFailure {
  const presented = presentError(error, "");
  return failureOf(presented);
}

/**
 * A presented error as a check failure: its code, the input it names, its detail without the input's name in
 * front ("hostServerOid: …" or the service's "hostServerOid '9999' is …"), which presentFailure() puts back once.
 */
export function failureOf(error: VpsError): CheckFailure {
  const property = error.fieldName ?? "";
  let detail = error.detail;
  if (property && detail.startsWith(`${property}: `)) detail = detail.slice(property.length + 2);
  else if (property && detail.startsWith(`${property} `)) detail = detail.slice(property.length + 1);
  return { property, reason: detail.replace(/[.\s]+$/, ""), code: error.code as ErrorCode };
}
