/**
 * Turns one HTTP response into either the endpoint's record (unwrapped from its root key and
 * validated by the contract schema) or a RimuError of the right class.
 *
 * Handles: the error envelope under `jaxrs_response` (docs/rimuhosting-api.md §4.3), an error under the operation's own
 * root key or at the top level, `response_type: ERROR` inside a 2xx, a body without the expected
 * root key, and non-JSON bodies such as a proxy's HTML 502/503 page.
 */
import type * as z from "zod";
import { AUTH_ERROR_CLASSES, ERROR_ROOT_KEY, ErrorInfo, type Endpoint } from "../../contract/index.js";
import {
  RimuAuthError,
  RimuConflictError,
  RimuError,
  RimuHttpError,
  RimuNotFoundError,
  RimuResponseShapeError,
  RimuTransientError,
  RimuValidationError,
  type RimuErrorDetails,
} from "./errors.js";
import type { Redactor } from "./redact.js";
import { endpointLabel } from "./request-path.js";

export interface RawResponse {
  status: number;
  contentType?: string;
  body: string;
}

/** How many zod issues a shape error lists before "(+N more)". */
const MAX_ISSUES = 5;
/** How much of a non-JSON body is quoted in a message. */
const SNIPPET_CHARS = 120;

export function readResponse<S extends z.ZodType>(
  endpoint: Endpoint<S>,
  response: RawResponse,
  redact: Redactor,
): z.infer<S> {
  const label = endpointLabel(endpoint);
  const ok = response.status >= 200 && response.status < 300;
  const json = parseJson(response.body);

  if (json === undefined) {
    const what = `a non-JSON body (${response.contentType || "no content type"}${snippet(response.body, redact)})`;
    if (ok) {
      throw new RimuResponseShapeError(`${label} ${response.status}: ${what}`, {
        status: response.status,
        endpoint: label,
      });
    }
    throw errorForStatus(response.status, {}, label, redact, `HTTP ${response.status} with ${what}`);
  }

  const record = isObject(json) ? json[endpoint.rootKey] : undefined;
  const errorRecord = findErrorRecord(json);
  if (!ok) {
    return throwError(response.status, errorRecord ?? (isObject(record) ? record : {}), label, redact);
  }
  if (errorRecord) {
    const envelopeStatus = typeof errorRecord.status_code === "number" ? errorRecord.status_code : undefined;
    return throwError(envelopeStatus ?? response.status, errorRecord, label, redact);
  }
  if (record === undefined) {
    const keys = isObject(json) ? Object.keys(json).slice(0, 5).join(", ") || "none" : typeof json;
    throw new RimuResponseShapeError(
      `${label} ${response.status}: the body lacks the root key "${endpoint.rootKey}" (found: ${redact(keys)})`,
      { status: response.status, endpoint: label },
    );
  }
  const parsed = endpoint.response.safeParse(record);
  if (!parsed.success) {
    throw new RimuResponseShapeError(
      `${label} ${response.status}: unexpected response shape: ${formatIssues(parsed.error.issues, redact)}`,
      { status: response.status, endpoint: label },
    );
  }
  return parsed.data;
}

/** "about_order.order_oid: expected number, received string; …": zod issues without the raw dump. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], redact: Redactor = (s) => s): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
    return `${path}: ${redact(issue.message.replace(/^Invalid input: /, ""))}`;
  });
  const more = issues.length > MAX_ISSUES ? ` (+${issues.length - MAX_ISSUES} more)` : "";
  return shown.join("; ") + more;
}

/**
 * The record carrying `response_type: ERROR`, wherever the service put it: under `jaxrs_response`,
 * under the operation's root key or any single root key, or at the top level.
 */
function findErrorRecord(json: unknown): Record<string, unknown> | undefined {
  if (!isObject(json)) return undefined;
  const candidates = [json[ERROR_ROOT_KEY], ...Object.values(json), json];
  for (const candidate of candidates) {
    if (isObject(candidate) && (candidate.response_type === "ERROR" || isObject(candidate.error_info))) {
      return candidate;
    }
  }
  return undefined;
}

function throwError(status: number, record: Record<string, unknown>, label: string, redact: Redactor): never {
  const info = ErrorInfo.safeParse(record.error_info);
  const details = info.success && info.data ? info.data : {};
  const human =
    details.human_readable_message ??
    details.full_error_message ??
    (typeof record.human_readable_message === "string" ? record.human_readable_message : undefined);
  throw errorForStatus(
    status,
    {
      errorClass: details.error_class ?? undefined,
      fieldName: details.field_name ?? undefined,
      humanMessage: human ? redact(human) : undefined,
    },
    label,
    redact,
  );
}

/** Maps an HTTP status (and the service's error class) to the hierarchy. */
function errorForStatus(
  status: number,
  details: Pick<RimuErrorDetails, "errorClass" | "fieldName" | "humanMessage">,
  label: string,
  redact: Redactor,
  fallbackText = `HTTP ${status}`,
): RimuError {
  const isAuthClass = (AUTH_ERROR_CLASSES as readonly string[]).includes(details.errorClass ?? "");
  const ErrorClass =
    status === 401 || status === 403 || isAuthClass
      ? RimuAuthError
      : status === 404 || status === 410
        ? RimuNotFoundError
        : status === 400 || status === 422
          ? RimuValidationError
          : status === 409
            ? RimuConflictError
            : status === 408 || status === 429 || status >= 500
              ? RimuTransientError
              : RimuHttpError;
  const text = details.humanMessage ?? fallbackText;
  const field = details.fieldName ? ` (field: ${redact(details.fieldName)})` : "";
  const errorClass = details.errorClass ? ` [${redact(details.errorClass)}]` : "";
  return new ErrorClass(`${label} ${status}: ${text}${field}${errorClass}`, {
    status,
    endpoint: label,
    errorClass: details.errorClass ? redact(details.errorClass) : undefined,
    fieldName: details.fieldName ? redact(details.fieldName) : undefined,
    humanMessage: details.humanMessage,
  });
}

function parseJson(body: string): unknown {
  if (body.trim() === "") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** `: "Bad Gateway"`: the HTML title, or the start of the text with tags removed. */
function snippet(body: string, redact: Redactor): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1];
  const text = (title ?? body.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim().slice(0, SNIPPET_CHARS);
  return text ? `: "${redact(text)}"` : ", empty";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
