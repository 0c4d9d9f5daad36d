/**
 * Rendering a success record as bytes around parts that are already JSON: the envelope is built
 * fresh (its time changes on every answer), the rest may come from a cache. The result is exactly
 * JSON.stringify({[rootKey]: {...envelope, ...rest}}) when `rest` is the JSON of the remaining
 * fields, without their opening brace: `,"about_order":{...}}` (test/emulator/listing-cache.test.ts).
 */
import { okEnvelope } from "./envelope.js";

export function renderAround(rootKey: string, nowMs: number, message: string | null, rest: Buffer): Buffer[] {
  const envelope = JSON.stringify(okEnvelope(nowMs, message));
  // The envelope without its closing brace; `rest` closes the record and the root object.
  return [Buffer.from(`{"${rootKey}":${envelope.slice(0, -1)}`), rest];
}
