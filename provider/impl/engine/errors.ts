/**
 * The one error catalogue (code, class, advice) and the errors the provider raises.
 *
 * Every error a user sees from the Vps resource is a VpsError: one line that names the input, says
 * what is wrong and what to do, carries a stable code (documented in docs/errors.md, checked by
 * test/provider/impl/error-catalogue.test.ts), and no stack. Client errors (../client/errors.ts) are
 * turned into VpsErrors at the provider's edge by presentError().
 *
 * They live in the implementation package, which the dynamic-provider host loads with require():
 * classes defined in serialized code lose their `message`; these do not. Messages never contain the
 * API key or a password.
 */
import { RIMU_ERROR_CODES, RimuError, type RimuErrorCode } from "../../client/errors.js";
import { TIMEOUT_OPTIONS, type TimeoutKind } from "../../client/retry-policy.js";
import { READ_TIMEOUT_ENV_VAR } from "../../config.js";
import { howToSet, settingName, settingsPlace } from "./settings-source.js";
import { inputNameOfWireField } from "../fields/vps-fields.js";

/** What the user should do about an error: decides the advice's tone. */
export type ErrorKind = "fix-input" | "fix-config" | "temporary" | "check-state" | "bug";

interface CatalogueEntry {
  /** The class that carries the code. */
  className: string;
  kind: ErrorKind;
  /** Appended to the message: what to do next. */
  advice: string;
}

/** The codes the provider itself raises (the client's are RIMU_ERROR_CODES). */
export const VPS_ERROR_CODES = {
  incomplete: "RIMU_ERR_VPS_INCOMPLETE",
  changeRefused: "RIMU_ERR_CHANGE_REFUSED",
  adoption: "RIMU_ERR_ADOPTION",
  outcomeUnknown: "RIMU_ERR_CREATE_OUTCOME_UNKNOWN",
  foreignOrder: "RIMU_ERR_FOREIGN_ORDER",
  orderGone: "RIMU_ERR_ORDER_GONE",
  invalidInput: "RIMU_ERR_INVALID_INPUT",
  stateUnreadable: "RIMU_ERR_STATE_UNREADABLE",
  backendUnread: "RIMU_ERR_BACKEND_UNREAD",
  internal: "RIMU_ERR_INTERNAL",
  budget: "RIMU_ERR_BUDGET",
  leftBilled: "RIMU_ERR_LEFT_BILLED",
  runInProgress: "RIMU_ERR_RUN_IN_PROGRESS",
} as const;
export type VpsErrorCode = (typeof VPS_ERROR_CODES)[keyof typeof VPS_ERROR_CODES];
export type ErrorCode = RimuErrorCode | VpsErrorCode;

const AGAIN = "This is temporary: run the same pulumi command again; nothing was lost.";

/** Every code a user can see, its class and its advice. docs/errors.md has one section per code. */
export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, CatalogueEntry>> = {
  [RIMU_ERROR_CODES.RimuAuthError]: {
    className: "RimuAuthError",
    kind: "fix-config",
    // Getters: the setting to fix is the one the user wrote (settings-source.ts), read when the error is made.
    get advice() {
      return (
        `The API key is missing, wrong or lacks rights: ${howToSet("apiKey")}. ` +
        "Running again with the same key fails the same way."
      );
    },
  },
  [RIMU_ERROR_CODES.RimuNotFoundError]: {
    className: "RimuNotFoundError",
    kind: "check-state",
    advice:
      "The order does not exist on this account (another account's order looks the same). " +
      "Run `pulumi refresh` to drop a VPS that was cancelled outside Pulumi.",
  },
  [RIMU_ERROR_CODES.RimuValidationError]: {
    className: "RimuValidationError",
    kind: "fix-input",
    advice: "Fix the input named above; running again without changing it fails the same way.",
  },
  [RIMU_ERROR_CODES.RimuConflictError]: {
    className: "RimuConflictError",
    kind: "fix-input",
    advice:
      "RimuHosting refuses it as things stand (for example a host without room for the VPS or its growth). " +
      "Change the input, or ask RimuHosting support; running again unchanged fails the same way.",
  },
  [RIMU_ERROR_CODES.RimuTransientError]: {
    className: "RimuTransientError",
    kind: "temporary",
    advice: AGAIN,
  },
  [RIMU_ERROR_CODES.RimuTimeoutError]: {
    className: "RimuTimeoutError",
    kind: "temporary",
    // The message says whether a change may still be going on at RimuHosting (a change that timed out) or not (a
    // read, or a request never sent), and names the setting of the limit reached (timeoutSetting); the advice
    // holds for all of them.
    advice:
      "Run the command again once RimuHosting answers: `pulumi up` reads the order first and finishes only what is " +
      "left.",
  },
  [RIMU_ERROR_CODES.RimuResponseShapeError]: {
    className: "RimuResponseShapeError",
    kind: "temporary",
    advice:
      "RimuHosting's answer could not be read. Run `pulumi up` again: it reads the order before acting.",
  },
  [RIMU_ERROR_CODES.RimuConfigError]: {
    className: "RimuConfigError",
    kind: "fix-config",
    get advice() {
      return `Fix the setting named above in ${settingsPlace()} (or its environment variable).`;
    },
  },
  [RIMU_ERROR_CODES.RimuHttpError]: {
    className: "RimuHttpError",
    kind: "check-state",
    advice: "RimuHosting answered with an unexpected status. Run `pulumi refresh` to see the order as it is.",
  },
  [VPS_ERROR_CODES.incomplete]: {
    className: "VpsIncompleteError",
    kind: "temporary",
    advice:
      "Pulumi recorded the order as it stands; `pulumi up` finishes the change, `pulumi destroy` removes it.",
  },
  [VPS_ERROR_CODES.changeRefused]: {
    className: "VpsChangeRefusedError",
    kind: "fix-input",
    advice: "Nothing was changed.",
  },
  [VPS_ERROR_CODES.adoption]: {
    className: "VpsAdoptionError",
    kind: "fix-input",
    advice: "Nothing was changed or ordered.",
  },
  [VPS_ERROR_CODES.outcomeUnknown]: {
    className: "VpsIncompleteError",
    kind: "temporary",
    advice:
      "Pulumi recorded the pending order; `pulumi up` picks it up (or orders it) and `pulumi destroy` cancels it if it appears.",
  },
  [VPS_ERROR_CODES.foreignOrder]: {
    className: "VpsForeignOrderError",
    kind: "check-state",
    advice: "Nothing was ordered.",
  },
  [VPS_ERROR_CODES.leftBilled]: {
    className: "VpsError",
    kind: "check-state",
    advice:
      "Fix what could not be read, or cancel each order named above in the control panel (or adopt it with " +
      "`adoptOrderOid`); then run `pulumi destroy` again: it cancels the VPS it kept and judges again.",
  },
  [VPS_ERROR_CODES.runInProgress]: {
    className: "VpsError",
    kind: "temporary",
    advice: "Nothing was cancelled.",
  },
  [VPS_ERROR_CODES.orderGone]: {
    className: "VpsError",
    kind: "check-state",
    advice: "Run `pulumi refresh` to drop it from the stack; the next `pulumi up` then orders a new VPS.",
  },
  [VPS_ERROR_CODES.invalidInput]: {
    className: "VpsError",
    kind: "fix-input",
    advice: "Fix the input named above.",
  },
  [VPS_ERROR_CODES.budget]: {
    className: "VpsError",
    kind: "fix-config",
    advice: "See docs/cost.md.",
  },
  [VPS_ERROR_CODES.stateUnreadable]: {
    className: "VpsError",
    kind: "check-state",
    advice:
      "Nothing was changed. Run `pulumi refresh`: it reads the order from RimuHosting again and records it as this " +
      "version does; then run the command again.",
  },
  [VPS_ERROR_CODES.backendUnread]: {
    className: "VpsError",
    kind: "temporary",
    advice:
      "Nothing was written, cancelled or taken back. Fix the cause named above and run the command again; where " +
      "`pulumi stack ls --all` does not finish on a PostgreSQL or S3 backend, run it with " +
      "PULUMI_DIY_BACKEND_PARALLEL=1 (docs/troubleshooting.md).",
  },
  [VPS_ERROR_CODES.internal]: {
    className: "VpsError",
    kind: "bug",
    advice: "This is a bug in pulumi-rimuhosting: please report it with this message.",
  },
};

/**
 * The base of every error the provider raises. The message starts with the code and ends with the
 * catalogue's advice. `stack` is the message alone and toString() the name alone, because the
 * dynamic-provider host prints `${error}: ${error.stack}` for check, diff, read and delete failures:
 * the user then sees the message once, with no JS frames.
 */
export class VpsError extends Error {
  readonly code: ErrorCode;
  /** The message without the code and the advice, for nesting in another message. */
  readonly detail: string;
  /** The input (or setting) at fault, when one is. */
  declare readonly fieldName?: string;

  constructor(code: ErrorCode, message: string, cause?: unknown, fieldName?: string) {
    super(`[${code}] ${message} ${ERROR_CATALOGUE[code].advice}`.trim());
    this.code = code;
    this.detail = message;
    shownAsMessageOnly(this, fieldName, cause);
  }

  override toString(): string {
    return this.name;
  }
}

/**
 * What every error a user sees has, whatever its base class (VpsError, the data sources' RunError): the
 * name "rimuhosting", the input at fault (only when there is one), a `stack` that is the message alone
 * (hosts and runners print the stack), and its cause kept out of util.inspect's output.
 */
export function shownAsMessageOnly(error: Error, fieldName: string | undefined, cause: unknown): void {
  error.name = "rimuhosting";
  if (fieldName !== undefined)
    Object.defineProperty(error, "fieldName", { value: fieldName, enumerable: true });
  Object.defineProperty(error, "stack", { value: error.message, enumerable: false, writable: true });
  if (cause !== undefined) Object.defineProperty(error, "cause", { value: cause, enumerable: false });
}

/**
 * The VPS exists (the order was placed or changed), or may appear (a pending create), but a later
 * step failed. The host turns an error with `id` into pulumirpc.ErrorResourceInitFailed: the engine
 * records `properties` (which must carry `__provider`, or the engine cannot load the provider for a
 * later refresh or destroy) and the next `pulumi up` runs update(), which resumes from the live order.
 */
export class VpsIncompleteError extends VpsError {
  /** The order oid, or a pending id (vps-create.ts), as the resource id. */
  readonly id: string;
  /** The outputs as far as known, with `__provider`. */
  readonly properties: Record<string, unknown>;
  /** Why initialization did not finish (shown by the engine). */
  readonly reasons: string[];

  constructor(
    code: typeof VPS_ERROR_CODES.incomplete | typeof VPS_ERROR_CODES.outcomeUnknown,
    message: string,
    id: string,
    properties: Record<string, unknown>,
    cause?: unknown,
  ) {
    super(code, message, cause);
    this.id = id;
    this.properties = properties;
    this.reasons = [this.message];
  }
}

/** A change the provider will not make as asked (disk shrink, reinstall without allowReinstall, ...). */
export class VpsChangeRefusedError extends VpsError {
  /** The input that asks for the change. */
  readonly property: string;

  constructor(property: string, message: string) {
    super(VPS_ERROR_CODES.changeRefused, `${property}: ${message}`);
    this.property = property;
  }
}

/** adoptOrderOid names an order that cannot be adopted (missing, another account's, cancelled, not a VPS). */
export class VpsAdoptionError extends VpsError {
  constructor(message: string) {
    super(VPS_ERROR_CODES.adoption, message);
  }
}

/** An order carries this resource's creation token but another state's nonce: never adopted silently. */
export class VpsForeignOrderError extends VpsError {
  readonly orderOid: number;

  constructor(orderOid: number, message: string) {
    super(VPS_ERROR_CODES.foreignOrder, message);
    this.orderOid = orderOid;
  }
}

/** A presented error's detail and advice, without its code: for nesting in another message. */
export function nested(error: VpsError): string {
  return `${error.detail} ${ERROR_CATALOGUE[error.code].advice}`;
}

/** The text of any thrown value, for wrapping messages. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The provider setting of each of the client's time limits, as a timeout's message names it: the reads' limit
 * comes from the environment (runtime-config.ts), a change's from the Vps `timeouts` input.
 */
export function timeoutSetting(kind: TimeoutKind): string {
  if (kind === "read") return `the read timeout, ${READ_TIMEOUT_ENV_VAR}`;
  if (kind === "mutation") return "the Vps `timeouts` input";
  return "the Vps `timeouts` input's updateMinutes, plus 10 minutes per GB of used disk";
}

/**
 * What the service said, in the user's terms: its human-readable message with the wire field
 * (`vps_parameters.memory_mb`) replaced by the input (`memoryMb`), without the client's
 * `[CODE] METHOD /path status:` prefix.
 */
export function serviceText(error: RimuError): string {
  const input = error.fieldName ? inputNameOfWireField(error.fieldName) : undefined;
  const raw = error.humanMessage ?? error.message.replace(/^\[[A-Z_]+\]\s*(\S+ \S+(?: \d{3})?:\s*)?/, "");
  let text = raw;
  // The client names its own option (`timeouts.readMs`); the user sets the provider's.
  if (error.timeoutKind !== undefined)
    text = text.replace(`(${TIMEOUT_OPTIONS[error.timeoutKind]})`, `(${timeoutSetting(error.timeoutKind)})`);
  if (error.fieldName && input) text = text.split(error.fieldName).join(input);
  text = text.replace(/\s*\(field: [^)]*\)/, "").replace(/\s*\[[A-Za-z.]*Exception\]$/, "");
  return input && !text.startsWith(`${input}:`) && !text.startsWith(`${input} `) ? `${input}: ${text}` : text;
}

/**
 * Any error, as the one VpsError the user sees: `context` says what was being done ("Updating Vps
 * 1234 (web1.example.com)"). A VpsError passes unchanged; a client error keeps its code and gets the
 * service's text in the user's terms plus the catalogue's advice for that code.
 */
export function presentError(
  error: unknown,
  context: string,
  /** The settings as the user wrote them (a command of its own names those it read); by default this process's. */
  name: (key: string) => string = settingName,
): VpsError {
  if (error instanceof VpsError) return error;
  if (error instanceof RimuError) {
    const text = serviceText(error).replace(/[.\s]+$/, "");
    const field = error.fieldName ? (inputNameOfWireField(error.fieldName) ?? error.fieldName) : undefined;
    return new VpsError(error.code, `${prefix(context)}${text}.${rateLimitWords(error, name)}`, error, field);
  }
  return new VpsError(VPS_ERROR_CODES.internal, `${prefix(context)}${messageOf(error)}.`, error);
}

/**
 * A 429 left after the client's retries: RimuHosting limits the requests of an API key, and the settings that cope
 * with that (retry-settings.ts; docs/installation-configuration.md, "Retries and pace"). Empty for anything else.
 * The Vps's messages (presentError) and the data sources' (provider/data-sources/errors.ts) both end with it.
 */
export function rateLimitWords(error: RimuError, name: (key: string) => string = settingName): string {
  if (error.status !== 429) return "";
  const attempts = error.attempts ?? 1;
  const wait =
    error.retryAfterMs === undefined ? "" : `, asking to wait ${Math.ceil(error.retryAfterMs / 1000)} s`;
  return (
    ` RimuHosting limits how many requests an API key may make (429 Too Many Requests${wait}), and ` +
    `${attempts === 1 ? "the only attempt was" : `all ${attempts} attempts were`} refused: raise ` +
    `${name("retryLimit")} (how many times a request is sent again), or set ${name("requestsPerSecond")} ` +
    `below the account's quota.`
  );
}

const prefix = (context: string): string => (context === "" ? "" : `${context}: `);
