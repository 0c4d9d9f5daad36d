/**
 * The client's error hierarchy. Every failure a caller can see is a `RimuError` subclass with a
 * stable `code`, so callers branch on `instanceof` or on `code`, never on message text.
 *
 * Messages are built from the endpoint, the HTTP status and the service's human-readable message;
 * the constructor prefixes the code. Each code is documented in docs/errors.md (the catalogue with
 * its advice is ../impl/engine/errors.ts).
 * They never contain the API key: the client redacts it from every text it did not write itself,
 * and it never keeps got's error (whose enumerable `options` hold the Authorization header); at most
 * a scrubbed copy of its name, code and message is attached as a non-enumerable `cause`.
 */

/** Stable error codes, one per class. */
export const RIMU_ERROR_CODES = {
  RimuAuthError: "RIMU_ERR_AUTH",
  RimuNotFoundError: "RIMU_ERR_NOT_FOUND",
  RimuValidationError: "RIMU_ERR_VALIDATION",
  RimuConflictError: "RIMU_ERR_CONFLICT",
  RimuTransientError: "RIMU_ERR_TRANSIENT",
  RimuTimeoutError: "RIMU_ERR_TIMEOUT",
  RimuResponseShapeError: "RIMU_ERR_RESPONSE_SHAPE",
  RimuConfigError: "RIMU_ERR_CONFIG",
  RimuHttpError: "RIMU_ERR_HTTP",
} as const;
export type RimuErrorCode = (typeof RIMU_ERROR_CODES)[keyof typeof RIMU_ERROR_CODES];

/** What a timed-out attempt was still waiting for (RimuErrorDetails.waitedFor). */
export type TimeoutWait = "connection" | "answer" | "rest of the answer";

/** What is known about a failure. All fields are safe to log: none can hold the API key. */
export interface RimuErrorDetails {
  /** HTTP status of the response, if one arrived. */
  status?: number;
  /** `error_info.error_class` from the service (Java class name, e.g. `PermissionException`). */
  errorClass?: string;
  /** `error_info.field_name`: the offending request field of a validation error. */
  fieldName?: string;
  /** `error_info.human_readable_message` from the service. */
  humanMessage?: string;
  /** The route, as in the contract: `GET /orders/{order}`. */
  endpoint?: string;
  /** Network error code (`ECONNRESET`, `ECONNREFUSED`, `ETIMEDOUT`), for transport failures. */
  networkCode?: string;
  /** Timeouts only: true when not even the first byte of an answer arrived (waitedFor "connection" or "answer"). */
  noAnswer?: boolean;
  /**
   * Timeouts only: what the attempt was still waiting for. "connection": no connection was made (the address drops
   * connection attempts, or its listener never accepts), so nothing was sent; "answer": the request was sent and
   * not even the first byte of an answer came; "rest of the answer": an answer began and did not finish.
   */
  waitedFor?: TimeoutWait;
  /** Timeouts only: which of the client's time limits was reached (`timeouts.readMs`, or the mutation one). */
  timeoutKind?: "read" | "mutation" | "move";
  /** Timeouts only: the time limit that was reached, in ms. */
  timeoutMs?: number;
  /** How many HTTP attempts were made before giving up. */
  attempts?: number;
  /** The wait the service asked for in Retry-After (429/503), in ms. */
  retryAfterMs?: number;
  /** createVps only: the token stored in the order's meta_data, to find an order whose creation was ambiguous. */
  creationToken?: string;
  /**
   * createVps only: true when the outcome is unknown (the request may have reached the service, which
   * may still be creating the order); false when nothing was created. Retry with the same creationToken.
   */
  orderMayExist?: boolean;
  /** The scrubbed underlying error (kept non-enumerable). */
  cause?: Error;
}

export class RimuError extends Error {
  /** The code of errors of this class (also on each instance as `code`). */
  static readonly code: RimuErrorCode = RIMU_ERROR_CODES.RimuHttpError;
  readonly code: RimuErrorCode = (this.constructor as typeof RimuError).code;
  // `declare`: set only when known, so JSON and util.inspect show no empty fields.
  declare readonly status?: number;
  declare readonly errorClass?: string;
  declare readonly fieldName?: string;
  declare readonly humanMessage?: string;
  declare readonly endpoint?: string;
  declare readonly networkCode?: string;
  declare readonly noAnswer?: boolean;
  declare readonly waitedFor?: TimeoutWait;
  declare readonly timeoutKind?: "read" | "mutation" | "move";
  declare readonly timeoutMs?: number;
  declare readonly attempts?: number;
  declare readonly retryAfterMs?: number;
  declare readonly creationToken?: string;
  declare readonly orderMayExist?: boolean;

  /**
   * `message` without the code: the code is put in front here, once, so it is never typed by hand
   * (a message that already carries it, such as a rebuilt one, keeps it as it is).
   */
  constructor(message: string, details: RimuErrorDetails = {}) {
    const prefix = `[${new.target.code}] `;
    super(message.startsWith(prefix) ? message : prefix + message);
    this.name = new.target.name;
    const { cause, ...rest } = details;
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined)
        Object.defineProperty(this, key, { value, enumerable: true, configurable: true });
    }
    if (cause) Object.defineProperty(this, "cause", { value: cause, enumerable: false, writable: true });
  }

  /** Plain data for logs and JSON: name, code, message and the known details (never the cause). */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), name: this.name, code: this.code, message: this.message };
  }
}

/** 401/403, or an `error_class` of PermissionException / LoginRequired: the key is missing, wrong or lacks rights. */
export class RimuAuthError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuAuthError;
}

/** 404: unknown order or route. Another account's order gets the same 404 as a missing one. */
export class RimuNotFoundError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuNotFoundError;
}

/** 400/422 from the service, or a request the client rejected before sending; `fieldName` says which field. */
export class RimuValidationError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuValidationError;
}

/** 409: the request conflicts with the order's state or the host's capacity (e.g. disk shrink, order cancelled). */
export class RimuConflictError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuConflictError;
}

/** 429, 5xx, or the connection failed: worth trying again later. */
export class RimuTransientError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuTransientError;
}

/** No response within the operation's timeout (see ClientConfig.timeouts). */
export class RimuTimeoutError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuTimeoutError;
}

/** A 2xx response the contract cannot read: not JSON, no expected root key, or fields of the wrong type. */
export class RimuResponseShapeError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuResponseShapeError;
}

/** The client configuration is unusable (bad baseUrl, missing apiKey for an authenticated call). */
export class RimuConfigError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuConfigError;
}

/** Any other non-2xx status (e.g. 405), or `response_type: ERROR` with no better classification. */
export class RimuHttpError extends RimuError {
  static override readonly code = RIMU_ERROR_CODES.RimuHttpError;
}
