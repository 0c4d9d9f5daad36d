/**
 * The values a property bag sets, as the lifecycle reads them: the engine hands it inputs and outputs with
 * explicit nulls, secret envelopes (check() returns secret inputs wrapped) and its own `__provider`.
 */
import { unwrapSecret } from "./secret-values.js";

/**
 * Drops null values (an explicit null means "not set") and the engine's own `__provider`, and takes
 * secret values out of their wrapping (check() returns secret inputs wrapped, see secret-values.ts).
 */
export function setValues<T extends object>(bag: T): T {
  // The same type: what is dropped is optional, and an envelope stands for the value it holds.
  return Object.fromEntries(
    Object.entries(bag)
      .map(([key, value]) => [key, unwrapSecret(value)] as const)
      .filter(([key, value]) => key !== "__provider" && value !== null && value !== undefined),
  ) as T;
}
