/**
 * Client-side validation of request bodies with the contract's request schemas, so a mistake is
 * reported before anything is sent, naming the field as the service would (snake_case path).
 */
import type * as z from "zod";
import { RimuValidationError } from "./errors.js";
import { formatIssues } from "./read-response.js";

export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, label: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const fieldName = first && first.path.length > 0 ? first.path.map(String).join(".") : undefined;
  throw new RimuValidationError(
    `${label}: invalid request, nothing was sent: ${formatIssues(parsed.error.issues)}`,
    { fieldName, endpoint: label },
  );
}
