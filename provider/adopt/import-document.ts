/**
 * The account's VPSs as a `pulumi import --file` document: `{"resources": [{"type", "name", "id"}]}`, the CLI's
 * import file (its `importFile` type: a resource's type token, its logical name and the provider's ID of it, here
 * the order's number, which the plugin reads the VPS by). Which orders go in:
 * - the account's active VPS orders (cancelled orders and physical servers are never adopted);
 * - of those, the ones the filters select (data centres, domain-name patterns), when any are given;
 * - and never an order a Pulumi stack manages, unless the user asks for those explicitly: two stacks changing one
 *   server undo each other's changes. A stack manages an order it created (the order carries the creation nonce,
 *   which only the provider's create writes: not the creation token, which the client puts on a script's orders
 *   too) and one its state holds (adopted or imported: impl/ownership/backend-states.ts reads the backend's
 *   states). Such orders are listed apart, with who manages them, for the message that says how to include them;
 * - and never an order whose domain name no program could say: RimuHosting documents `domain_name` as a fully
 *   qualified domain name, which DNS writes in letters, digits and hyphens (an international name in its punycode
 *   form, `xn--caf-dma.example.com`), and the Vps's check refuses any other (docs/rimuhosting-api.md, "Domain names").
 *   Imported, such a VPS would leave a program that never previews; it is listed apart, with why.
 */
import { Fqdn, type AboutOrder } from "../../contract/index.js";
import { CREATION_NONCE_KEY } from "../client/index.js";
import { NATIVE_VPS_TYPE } from "../impl/fields/vps-type-tokens.js";
import { uniqueNames } from "./resource-names.js";
import type { StackNames } from "./stack-names.js";

/** The type token of the native plugin's VPS, which `pulumi import` brings a VPS in as. */
export const VPS_TYPE_TOKEN = NATIVE_VPS_TYPE;

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
  /** Also the orders a Pulumi stack manages. */
  includeManaged: boolean;
}

/** An order a Pulumi stack manages. */
export interface ManagedOrder {
  orderOid: number;
  domainName: string;
  /** Who manages it, for messages: `a stack created it`, or `in stack <name>`. */
  by: string;
}

/** An order left out because no program could say its domain name. */
export interface UnnamableOrder {
  orderOid: number;
  domainName: string;
}

export interface Adoption {
  document: ImportDocument;
  /** Selected orders left out because their domain name is no fully qualified domain name (see above). */
  unnamable: UnnamableOrder[];
  /** Selected orders left out as another stack's (empty when includeManaged). */
  leftOut: ManagedOrder[];
  /** Managed orders that are in the document because the user asked for them. */
  includedManaged: ManagedOrder[];
}

/** True when a Pulumi stack created the order: its meta_data carries the provider's creation nonce. */
export function isStackCreated(order: AboutOrder): boolean {
  return order.meta_data?.some((m) => m.key_name === CREATION_NONCE_KEY && !!m.value) ?? false;
}

/** Who manages `order`, in words, or undefined; `stackOrders`: the orders the backend's states hold, by stack. */
function managerOf(order: AboutOrder, stackOrders: ReadonlyMap<number, string>): string | undefined {
  const stack = stackOrders.get(order.order_oid);
  if (stack !== undefined) return `in stack ${stack}`;
  return isStackCreated(order) ? "a stack created it" : undefined;
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

/**
 * The document for the account's active orders `orders`; `stackOrders`: the orders the backend's stacks hold
 * (impl/ownership/backend-states.ts), by stack name; `stack`: the names the resources of the stack they will be
 * imported into have already, and the name it gives each order it holds (adopt/stack-names.ts).
 */
export function adoptionOf(
  orders: readonly AboutOrder[],
  selection: Selection,
  stackOrders: ReadonlyMap<number, string> = new Map(),
  stack: StackNames = { names: new Set(), byOrder: new Map() },
): Adoption {
  const unnamable: UnnamableOrder[] = [];
  const chosen = selected(orders, selection).filter((order) => {
    if (Fqdn.safeParse(order.domain_name).success) return true;
    unnamable.push({ orderOid: order.order_oid, domainName: order.domain_name });
    return false;
  });
  const managed: ManagedOrder[] = [];
  const free: AboutOrder[] = [];
  for (const order of chosen) {
    const by = managerOf(order, stackOrders);
    if (by === undefined) free.push(order);
    else managed.push({ orderOid: order.order_oid, domainName: order.domain_name, by });
  }
  const adopted = selection.includeManaged ? chosen : free;
  const names = namesOf(orders, stack);
  return {
    document: {
      resources: adopted.map((order) => ({
        type: VPS_TYPE_TOKEN,
        name: names.get(order.order_oid)!,
        id: String(order.order_oid),
      })),
    },
    unnamable,
    leftOut: selection.includeManaged ? [] : managed,
    includedManaged: selection.includeManaged ? managed : [],
  };
}

/**
 * Order number → name, for every VPS of the account, oldest order first (order numbers grow): a VPS's name never
 * depends on the filters, on which VPSs a stack manages, or on VPSs ordered after it (resource-names.ts).
 */
function namesOf(orders: readonly AboutOrder[], stack: StackNames): Map<number, string> {
  const byAge = orders
    .filter((order) => order.server_type !== "PHYSICAL")
    .sort((a, b) => a.order_oid - b.order_oid);
  const names = uniqueNames(
    byAge.map((order) => order.domain_name),
    stack.names,
    byAge.map((order) => stack.byOrder.get(order.order_oid)),
  );
  return new Map(byAge.map((order, i) => [order.order_oid, names[i]!]));
}
