/**
 * Errors the provider itself raises (the client's own errors come from ../client/errors.ts).
 *
 * They live in the implementation package, which the dynamic-provider host loads with require():
 * classes defined in serialized code lose their `message` (pulumi-dynamic-providers.md §3), these do not.
 * Messages never contain the API key or a password.
 */

/**
 * The VPS exists (the order was placed or changed) but a later step failed. The host turns an error
 * with `id` into pulumirpc.ErrorResourceInitFailed: the engine records the order with `properties`,
 * and the next `pulumi up` runs update(), which resumes from the live state (pulumi-dynamic-providers.md §7).
 */
export class VpsIncompleteError extends Error {
  readonly code = "RIMU_ERR_VPS_INCOMPLETE";
  /** The order oid, as the resource id. */
  readonly id: string;
  /** The outputs as far as known, so the state shows the order. */
  readonly properties: Record<string, unknown>;
  /** Why initialization did not finish (shown by the engine). */
  readonly reasons: string[];

  constructor(message: string, id: string, properties: Record<string, unknown>, cause?: unknown) {
    super(message);
    this.name = "VpsIncompleteError";
    this.id = id;
    this.properties = properties;
    this.reasons = [message];
    if (cause !== undefined) Object.defineProperty(this, "cause", { value: cause, enumerable: false });
  }
}

/** A change the provider will not make as asked (disk shrink, reinstall without allowReinstall, ...). */
export class VpsChangeRefusedError extends Error {
  readonly code = "RIMU_ERR_CHANGE_REFUSED";
  /** The input that asks for the change. */
  readonly property: string;

  constructor(property: string, message: string) {
    super(`${property}: ${message}`);
    this.name = "VpsChangeRefusedError";
    this.property = property;
  }
}

/** adoptOrderOid names an order that cannot be adopted (missing, another account's, cancelled, not a VPS). */
export class VpsAdoptionError extends Error {
  readonly code = "RIMU_ERR_ADOPTION";

  constructor(message: string) {
    super(message);
    this.name = "VpsAdoptionError";
  }
}

/** The text of any thrown value, for wrapping messages. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
