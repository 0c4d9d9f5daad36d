/**
 * Reading a VPS's properties the way a policy sees them during a preview: a value is known, left out, or not
 * known yet. @pulumi/policy hands policies its properties behind a proxy that throws when the program gave a value
 * that is only known after an update (another resource's output); this module turns that throw into a reading, so
 * each policy can say plainly that it could not judge instead of being skipped.
 */
import {
  DYNAMIC_PROVIDER_INPUT,
  DYNAMIC_RESOURCE_TYPE_PREFIX,
  DYNAMIC_VPS_TYPE,
  NATIVE_VPS_TYPE,
  PROVIDER_PACKAGE,
} from "./vps-names";

export type Reading =
  | { readonly kind: "known"; readonly value: unknown }
  | { readonly kind: "absent" }
  | { readonly kind: "unknown" };

/** One property of a resource, read without letting a value unknown in preview escape as an exception. */
export function readProperty(props: Record<string, unknown>, name: string): Reading {
  let value: unknown;
  try {
    value = props[name];
  } catch {
    // The policy framework's proxy throws on a value unknown in preview; a plain object never throws here.
    return { kind: "unknown" };
  }
  return value === undefined || value === null ? { kind: "absent" } : { kind: "known", value };
}

/**
 * Whether a resource is a RimuHosting VPS: the native plugin's `rimuhosting:index:Vps`, the npm package's dynamic
 * `Vps` (its own type token), or a dynamic resource of the generic type whose `__provider` loads this package
 * (what the package's `Vps` registered as in its first releases).
 */
export function isRimuHostingVps(type: string, props: Record<string, unknown>): boolean {
  if (type === NATIVE_VPS_TYPE || type === DYNAMIC_VPS_TYPE) return true;
  if (!type.startsWith(DYNAMIC_RESOURCE_TYPE_PREFIX)) return false;
  const provider = readProperty(props, DYNAMIC_PROVIDER_INPUT);
  return (
    provider.kind === "known" &&
    typeof provider.value === "string" &&
    provider.value.includes(PROVIDER_PACKAGE)
  );
}
