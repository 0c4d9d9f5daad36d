/**
 * The emulator's one error catalogue. Every failure the emulator answers with, including injected
 * faults, is built from an entry here and rendered by the single error handler (http/error-handler.ts)
 * into the RimuHosting error envelope (docs/rimuhosting-api.md, 4.3 Errors).
 */

export interface ErrorCatalogueEntry {
  /** HTTP status of the response. */
  readonly status: number;
  /** `error_info.error_class`: the Java-ish class name the real API reports. */
  readonly errorClass: string;
  /** Default human-readable message; a thrower may give a more specific one. */
  readonly message: string;
}

export const EMU_ERRORS = {
  EMU_ERR_LOGIN_REQUIRED: {
    status: 403,
    errorClass: "LoginRequired",
    message: "This resource needs an API key. Send the header 'Authorization: rimuhosting apikey=<KEY>'.",
  },
  EMU_ERR_PERMISSION: {
    status: 403,
    errorClass: "PermissionException",
    message: "The API key is not valid. Check the key at https://rimuhosting.com/cp/apikeys.jsp.",
  },
  EMU_ERR_ROUTE_NOT_FOUND: {
    status: 404,
    errorClass: "NotFoundException",
    message: "There is no such resource.",
  },
  EMU_ERR_METHOD_NOT_ALLOWED: {
    status: 405,
    errorClass: "NotAllowedException",
    message: "This resource does not take that method; the Allow header lists the ones it takes.",
  },
  EMU_ERR_BAD_URL: {
    status: 400,
    errorClass: "BadRequestException",
    message: "The path is not valid percent-encoding.",
  },
  EMU_ERR_URI_TOO_LONG: {
    status: 414,
    errorClass: "UriTooLongException",
    message: "A path segment is longer than 1000 characters. Shorten the domain part of the order segment.",
  },
  EMU_ERR_BODY_TOO_LARGE: {
    status: 413,
    errorClass: "RequestEntityTooLargeException",
    message:
      "The request body is larger than 1 MiB. No RimuHosting request needs that much; check what is being sent.",
  },
  EMU_ERR_BAD_REQUEST: {
    status: 400,
    errorClass: "BadRequestException",
    message: "The request is not valid HTTP/1.1 (request line or headers malformed).",
  },
  EMU_ERR_HEADERS_TOO_LARGE: {
    status: 431,
    errorClass: "RequestHeaderFieldsTooLargeException",
    message:
      "The request headers are larger than the server accepts (16 KiB in all). Send fewer or shorter headers.",
  },
  EMU_ERR_REQUEST_TIMEOUT: {
    status: 408,
    errorClass: "RequestTimeoutException",
    message: "The request was not received in time.",
  },
  EMU_ERR_EXPECTATION_FAILED: {
    status: 417,
    errorClass: "ExpectationFailedException",
    message:
      "The Expect header can only ask for 100-continue. Send the request without it, or with Expect: 100-continue.",
  },
  EMU_ERR_ORDER_NOT_FOUND: {
    status: 404,
    errorClass: "NotFoundException",
    message: "No order with that id was found on your account.",
  },
  EMU_ERR_VPS_NOT_FOUND: {
    status: 404,
    errorClass: "NotFoundException",
    message: "That order has no running VPS.",
  },
  EMU_ERR_BODY_NOT_JSON: {
    status: 400,
    errorClass: "ValidationException",
    message: "The request body is not valid JSON.",
  },
  EMU_ERR_VALIDATION: {
    status: 400,
    errorClass: "ValidationException",
    message: "A request field is not valid.",
  },
  EMU_ERR_UNKNOWN_DISTRO: {
    status: 400,
    errorClass: "ValidationException",
    message: "Unknown distribution. List the offered ones with GET /r/distributions.",
  },
  EMU_ERR_UNKNOWN_PLAN: {
    status: 400,
    errorClass: "ValidationException",
    message: "Unknown pricing plan. List the plans with GET /r/pricing-plans.",
  },
  EMU_ERR_UNKNOWN_DC: {
    status: 400,
    errorClass: "ValidationException",
    message: "Unknown or disabled data centre. List them with GET /r/data-centers.",
  },
  EMU_ERR_UNKNOWN_HOST: {
    status: 400,
    errorClass: "ValidationException",
    message: "Unknown host server.",
  },
  EMU_ERR_UNKNOWN_BILLING: {
    status: 400,
    errorClass: "ValidationException",
    message: "Unknown billing method. List yours with GET /r/billing-methods.",
  },
  EMU_ERR_MISSING_DOMAIN: {
    status: 400,
    errorClass: "ValidationException",
    message:
      "A new VPS needs instantiation_options.domain_name (a fully qualified domain name such as web1.example.com) or instantiation_via_clone_options.",
  },
  EMU_ERR_DISK_SHRINK: {
    status: 409,
    errorClass: "ResourceChangeException",
    message: "Disks cannot be made smaller. Ask for the current size or more.",
  },
  EMU_ERR_HOST_CAPACITY: {
    status: 409,
    errorClass: "CapacityException",
    message: "The host server does not have enough free memory, disk or IP addresses for this change.",
  },
  EMU_ERR_ORDER_CANCELLED: {
    status: 409,
    errorClass: "OrderCancelledException",
    message: "That order has been cancelled.",
  },
  EMU_ERR_MOVE_SAME_HOST: {
    status: 409,
    errorClass: "MoveException",
    message: "The VPS is already on that host server.",
  },
  EMU_ERR_FAULT_INJECTED: {
    status: 503,
    errorClass: "ServiceUnavailable",
    message: "The service is temporarily unavailable (fault injected by the emulator).",
  },
  EMU_ERR_RATE_LIMITED: {
    status: 429,
    errorClass: "TooManyRequests",
    message:
      "Too many requests; retry after the time in the Retry-After header (fault injected by the emulator).",
  },
  EMU_ERR_STATE_INVALID: {
    status: 500,
    errorClass: "StateException",
    message: "The emulator state file is not valid.",
  },
  EMU_ERR_STATE_WRITE: {
    status: 500,
    errorClass: "StateException",
    message: "The emulator could not write its state file.",
  },
  EMU_ERR_INTERNAL: {
    status: 500,
    errorClass: "InternalError",
    message: "The emulator hit an internal error.",
  },
} as const satisfies Record<string, ErrorCatalogueEntry>;

export type EmulatorErrorCode = keyof typeof EMU_ERRORS;

export interface EmulatorErrorOptions {
  /** Replaces the catalogue message. */
  message?: string;
  /** `error_info.field_name`: the request field at fault, as a dotted path. */
  fieldName?: string;
  /** Overrides the catalogue status (injected faults choose theirs). */
  status?: number;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
}

/** A deliberate failure: carries its catalogue code, HTTP status and, for bad input, the field. */
export class EmulatorError extends Error {
  readonly code: EmulatorErrorCode;
  readonly status: number;
  readonly errorClass: string;
  readonly fieldName: string | undefined;
  readonly headers: Record<string, string>;

  constructor(code: EmulatorErrorCode, options: EmulatorErrorOptions = {}) {
    const entry: ErrorCatalogueEntry = EMU_ERRORS[code];
    super(options.message ?? entry.message);
    this.name = "EmulatorError";
    this.code = code;
    this.status = options.status ?? entry.status;
    this.errorClass = entry.errorClass;
    this.fieldName = options.fieldName;
    this.headers = options.headers ?? {};
  }
}

export function emuError(code: EmulatorErrorCode, options?: EmulatorErrorOptions): EmulatorError {
  return new EmulatorError(code, options);
}
