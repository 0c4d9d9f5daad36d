/**
 * Request bodies. Any content type is read as text and parsed as JSON (clients differ in what they
 * send); form bodies (R12 PTR) become a FormBody. Wrapped records are unwrapped whatever the wrapper
 * key is (docs/rimuhosting-api.md 4.2), then validated with the contract's request schema; a failure names the field.
 */
import type { FastifyInstance } from "fastify";
import type * as z from "zod";
import { type EmulatorErrorCode, emuError } from "../errors.js";

export class FormBody {
  constructor(readonly fields: Readonly<Record<string, string>>) {}
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, new FormBody(Object.fromEntries(new URLSearchParams(String(body)))));
  });
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(
        emuError("EMU_ERR_BODY_NOT_JSON", {
          fieldName: "body",
          message:
            'The request body is not valid JSON. Send a JSON object such as {"new_order_request": {...}}.',
        }),
      );
    }
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `{"any_wrapper": {...record...}}` -> the record. A single key that is itself a field of the record
 * (e.g. `{"running_state": "RUNNING"}` or `{"instantiation_options": {...}}`) is not a wrapper.
 */
export function unwrapBody(body: unknown, recordFields: readonly string[]): unknown {
  if (!isPlainObject(body)) return body;
  const keys = Object.keys(body);
  if (keys.length !== 1 || recordFields.includes(keys[0]!)) return body;
  const inner = body[keys[0]!];
  return isPlainObject(inner) ? inner : body;
}

/** Which catalogue code a bad field maps to (unknown enum values are catalog misses). */
const FIELD_CODES: Record<string, EmulatorErrorCode> = { dc_location: "EMU_ERR_UNKNOWN_DC" };

/** Unwraps and validates a body; `undefined` (no body) is validated as `{}`. */
export function parseBody<S extends z.ZodObject>(schema: S, body: unknown): z.output<S> {
  if (body instanceof FormBody) {
    throw emuError("EMU_ERR_VALIDATION", { fieldName: "body", message: "This resource takes a JSON body." });
  }
  const record = unwrapBody(body ?? {}, Object.keys(schema.shape));
  if (!isPlainObject(record)) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: "body",
      message: "The request body must be a JSON object (optionally wrapped in one key).",
    });
  }
  const parsed = schema.safeParse(record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const fieldName = issue.path.map(String).join(".") || "body";
  const top = String(issue.path[0] ?? "");
  throw emuError(FIELD_CODES[top] ?? "EMU_ERR_VALIDATION", {
    fieldName,
    message: `${fieldName}: ${issue.message}.`,
  });
}
