/**
 * Secret values as the engine marshals them: `{ [SECRET_SIG_KEY]: SECRET_SIG, value }`.
 *
 * check() returns secret inputs (cloudConfig, files, password) in this form even when the program gave
 * plain strings: the engine keeps the secret bit of a Check response (it unmarshals it with secrets
 * kept), so the state's inputs hold them encrypted, and it marks outputs of the same name secret too.
 * The dynamic-provider host does not accept secrets, so create/update/read receive plain values again.
 * The constants are spelled out so this package does not load @pulumi/pulumi; a test checks them
 * against the SDK's (pulumi.runtime.specialSigKey / specialSecretSig).
 */
import { containsUnknown } from "./unknowns.js";
import { SECRET_FIELDS } from "../fields/vps-fields.js";

export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export function isSecretValue(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)[SECRET_SIG_KEY] === SECRET_SIG
  );
}

/** The keys of a property bag whose values are secrets (marked by the program, or by check()). */
export function secretKeys(bag: Record<string, unknown>): string[] {
  return Object.keys(bag).filter((key) => isSecretValue(bag[key]));
}

/** The value inside a secret, or the value itself. */
export function unwrapSecret(value: unknown): unknown {
  return isSecretValue(value) ? value.value : value;
}

/** The value as a secret (an already secret value unchanged). */
export function asSecret(value: unknown): unknown {
  return isSecretValue(value) ? value : { [SECRET_SIG_KEY]: SECRET_SIG, value };
}

/**
 * The values with the field table's secret inputs (password, cloudConfig, files) wrapped as secrets, where set
 * and known: check()'s inputs, and the properties the engine records from an error. The same type: to the type
 * system an envelope stands for the value it holds (setValues() takes it out again).
 */
export function secretsWrapped<T extends Record<string, unknown>>(values: T): T {
  const wrapped: Record<string, unknown> = { ...values };
  for (const name of SECRET_FIELDS) {
    const value = wrapped[name];
    if (value !== undefined && value !== null && !containsUnknown(value)) wrapped[name] = asSecret(value);
  }
  return wrapped as T;
}
