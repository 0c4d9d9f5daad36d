/**
 * Records shared by many responses: Timestamp, IErrorInfo, Amount and the response envelope
 * (docs/rimuhosting-api.md §3.0–§3.2, §3.6, §4.1).
 *
 * Response records are `z.looseObject`: the live API adds fields over time (§6 item 10) and a
 * client must not break on them. Fields the reference says may be `null` are `.nullish()`.
 */
import * as z from "zod";
import { Currency, ResponseDisplayDurationType, ResponseType } from "./enums.js";

/** Wire form of java.sql.Timestamp (§3.1). Dates are never bare strings. */
export const Timestamp = z.looseObject({
  ms_since_epoch: z.number(),
  iso_format: z.string(),
  users_tz_offset_ms: z.number().nullish(),
});
export type Timestamp = z.infer<typeof Timestamp>;

/** IErrorInfo (§3.2): what went wrong, and for validation errors which field. */
export const ErrorInfo = z.looseObject({
  error_class: z.string().nullish(),
  error_title: z.string().nullish(),
  field_name: z.string().nullish(),
  full_error_message: z.string().nullish(),
  human_readable_message: z.string().nullish(),
});
export type ErrorInfo = z.infer<typeof ErrorInfo>;

/** Amount (§3.6): money with its currency. */
export const Amount = z.looseObject({
  amt: z.number(),
  amt_usd: z.number().nullish(),
  currency: Currency.nullish(),
});
export type Amount = z.infer<typeof Amount>;

/** The common envelope carried by every *Response record (§3.0). */
export const Envelope = z.looseObject({
  status_code: z.number().int(),
  status_message: z.string().nullish(),
  response_type: ResponseType,
  human_readable_message: z.string().nullish(),
  error_info: ErrorInfo.nullish(),
  extended_error_infos: z.array(ErrorInfo).nullish(),
  redirect_uri: z.string().nullish(),
  response_display_duration_type: ResponseDisplayDurationType.nullish(),
  response_created_time: Timestamp.nullish(),
  response_created_time_epoch_ms: z.number().nullish(),
});
export type Envelope = z.infer<typeof Envelope>;

/** `jaxrs_response`: the envelope alone. Errors (§4.3) and PTR updates use it. */
export const JaxrsResponse = Envelope;
export type JaxrsResponse = z.infer<typeof JaxrsResponse>;

/**
 * A number in a request body. Real clients sometimes send sizes as strings ("8192", §4.2), and
 * the live API accepts them, so requests accept both and yield a number.
 */
export const WireInt = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/, { message: "must be a whole number" })
    .transform((s) => Number(s)),
]);

/** A boolean in a request body; "true"/"false" strings are accepted for the same reason. */
export const WireBool = z.union([z.boolean(), z.enum(["true", "false"]).transform((s) => s === "true")]);
