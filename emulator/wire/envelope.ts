/** The response envelope every record carries (docs/rimuhosting-api.md, 3.0 The envelope, 4.1 Responses, 4.3 Errors). */
import type { Envelope, ErrorInfo } from "../../contract/index.js";
import { toTimestamp } from "./timestamp.js";

/** Envelope of a successful response. */
export function okEnvelope(nowMs: number, humanMessage: string | null, statusCode = 200): Envelope {
  return {
    status_code: statusCode,
    status_message: null,
    response_type: "OK",
    human_readable_message: humanMessage,
    error_info: null,
    extended_error_infos: null,
    redirect_uri: null,
    response_display_duration_type: "REGULAR",
    response_created_time: toTimestamp(nowMs),
    response_created_time_epoch_ms: nowMs,
  };
}

/** Envelope of an error response (root key `jaxrs_response`). */
export function errorEnvelope(nowMs: number, statusCode: number, info: ErrorInfo): Envelope {
  return {
    status_code: statusCode,
    status_message: info.error_title ?? null,
    response_type: "ERROR",
    human_readable_message: info.human_readable_message ?? null,
    error_info: info,
    extended_error_infos: null,
    redirect_uri: null,
    response_display_duration_type: "REGULAR",
    response_created_time: toTimestamp(nowMs),
    response_created_time_epoch_ms: nowMs,
  };
}
