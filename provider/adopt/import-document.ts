/**
 * The account's VPSs as a `pulumi import --file` document: `{"resources": [{"type", "name", "id"}]}`, the CLI's
 * import file (its `importFile` type: a resource's type token, its logical name and the provider's ID of it, here
 * the order's number, which the plugin reads the VPS by). Which orders go in:
 * - the account's active VPS orders (cancelled orders and physical servers are never adopted);
 * - of those, the ones the filters select (data centres, domain-name patterns), when any are given;
 * - and never an order a Pulumi stack created (its meta_data carries a creation token, create-vps.ts), unless the
 *   user asks for those explicitly: that stack may still manage it, and two stacks changing one server undo each
 *   other's changes. Such orders are listed apart, for the message that says how to include them.
 */
import type { AboutOrder } from "../../contract/index.js";
import { CREATION_TOKEN_KEY } from "../client/index.js";
import { uniqueNames } from "./resource-names.js";

/** The type token of the native plugin's VPS (provider/native/schema.json). */
export const VPS_TYPE_TOKEN = "rimuhosting:index:Vps";

/** One resource of the document, as the CLI reads it. */
export interface ImportSpec {
  type: string;
  name: string;
  id: string;
}

export interface ImportDocument {
  resources: ImportSpec[];
}

export interface Selection {
  /** Data-centre codes (DCDALLAS…); empty: every data centre. */
  dataCentres: readonly string[];
  /** Domain-name patterns, `*` for any characters, `?` for one, without case; empty: every name. */
  names: readonly string[];
  /** Also the orders that carry a Pulumi stack's creation token. */
  includeManaged: boolean;
}

/** An order left out because a Pulumi stack created it. */
export interface ManagedOrder {
  orderOid: number;
  domainName: string;
}

export interface Adoption {
  document: ImportDocument;
  /** Selected orders left out as another stack's (empty when includeManaged). */
  leftOut: ManagedOrder[];
  /** Managed orders that are in the document because the user asked for them. */
  includedManaged: ManagedOrder[];
}

/** True when a Pulumi stack created the order: its meta_data carries a creation token. */
export function isStackManaged(order: AboutOrder): boolean {
  return order.meta_data?.some((m) => m.key_name === CREATION_TOKEN_KEY && !!m.value) ?? false;
}

/** A domain-name pattern as a regular expression: `*` any characters, `?` one, the rest literal, any case. */
function patternOf(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "i");
}

const dataCentreOf = (order: AboutOrder): string | undefined =>
  order.location?.data_center_location_code ?? undefined;

/** The orders of `orders` the selection asks for, managed or not, in the order of their domain names. */
function selected(orders: readonly AboutOrder[], selection: Selection): AboutOrder[] {
  const dcs = new Set(selection.dataCentres.map((dc) => dc.toUpperCase()));
  const patterns = selection.names.map(patternOf);
  return orders
    .filter((order) => order.server_type !== "PHYSICAL")
    .filter((order) => dcs.size === 0 || dcs.has((dataCentreOf(order) ?? "").toUpperCase()))
    .filter((order) => patterns.length === 0 || patterns.some((p) => p.test(order.domain_name)))
    .sort((a, b) => a.domain_name.localeCompare(b.domain_name) || a.order_oid - b.order_oid);
}

/** The document for the account's active orders `orders`. */
export function adoptionOf(orders: readonly AboutOrder[], selection: Selection): Adoption {
  const chosen = selected(orders, selection);
  const managed = (order: AboutOrder): ManagedOrder => ({
    orderOid: order.order_oid,
    domainName: order.domain_name,
  });
  const leftOut = selection.includeManaged ? [] : chosen.filter(isStackManaged).map(managed);
  const adopted = selection.includeManaged ? chosen : chosen.filter((order) => !isStackManaged(order));
  const names = uniqueNames(adopted.map((order) => order.domain_name));
  return {
    document: {
      resources: adopted.map((order, i) => ({
        type: VPS_TYPE_TOKEN,
        name: names[i]!,
        id: String(order.order_oid),
      })),
    },
    leftOut,
    includedManaged: selection.includeManaged ? chosen.filter(isStackManaged).map(managed) : [],
  };
}
