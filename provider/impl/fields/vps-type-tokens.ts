/**
 * The types a stack's state records a VPS of this provider under, and how to tell one among a state's resources:
 * one source for every reader of states and engine output (import-file's stack orders, the drift report, the bill).
 * - the native plugin's `rimuhosting:index:Vps` (provider/native/schema.json);
 * - the dynamic `Vps` class's `pulumi-nodejs:dynamic/rimuhosting:Vps` (provider/vps.ts registers it so);
 * - the generic dynamic type `pulumi-nodejs:dynamic:Resource`, which a `dynamic.Resource` gets when it names no type
 *   of its own (a program that wrapped this package's provider in one, or a state of a release that did): a Vps when
 *   its provider text is this package's, or its outputs are a Vps's (an order number and that order's path
 *   segment, `order-<oid>-…`, which no other resource has).
 */

export const NATIVE_VPS_TYPE = "rimuhosting:index:Vps";
export const DYNAMIC_VPS_TYPE = "pulumi-nodejs:dynamic/rimuhosting:Vps";
export const GENERIC_DYNAMIC_TYPE = "pulumi-nodejs:dynamic:Resource";

/** The package's name, which the dynamic provider's text (`__provider`) requires. */
const PACKAGE_NAME = "pulumi-rimuhosting";

/** A resource as a state, a refresh's JSON or an engine event holds it. */
export interface StateResource {
  type?: string;
  inputs?: Record<string, unknown> | null;
  outputs?: Record<string, unknown> | null;
}

/** True when the outputs are a Vps's: an order number and the path segment of that order. */
function hasVpsOutputs(outputs: Record<string, unknown>): boolean {
  const oid = outputs.orderOid;
  const slug = outputs.slug;
  return typeof oid === "number" && typeof slug === "string" && slug.startsWith(`order-${oid}-`);
}

/** True when `resource` is a VPS of this provider, on any front end (the types above). */
export function isVpsResource(resource: StateResource): boolean {
  if (resource.type === NATIVE_VPS_TYPE || resource.type === DYNAMIC_VPS_TYPE) return true;
  if (resource.type !== GENERIC_DYNAMIC_TYPE) return false;
  const provider = resource.inputs?.__provider ?? resource.outputs?.__provider;
  if (typeof provider === "string" && provider.includes(PACKAGE_NAME)) return true;
  return hasVpsOutputs(resource.outputs ?? {});
}

/** The order a state's VPS holds (undefined for another resource, or a VPS whose order is not known yet). */
export function orderOfVpsResource(resource: StateResource): number | undefined {
  const oid = resource.outputs?.orderOid;
  return typeof oid === "number" && isVpsResource(resource) ? oid : undefined;
}
