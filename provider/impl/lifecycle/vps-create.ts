/**
 * Ordering a VPS exactly once, and never taking over another state's VPS.
 *
 * Two values travel with every order, in its meta_data:
 *   - the creation TOKEN (creation-token.ts): derived from project/stack/resource name and the
 *     replace-forcing inputs. It finds the orders this resource *could* have placed.
 *   - the creation NONCE: random, made by check() the first time it sees the resource and kept from
 *     the old inputs afterwards, so it lives in this state only. It says which state placed an order.
 * An order found by token is this resource's own lost create only when it carries this state's nonce;
 * any other order with the token (another backend, a re-created stack, a colleague's stack of the
 * same name, or an earlier run killed before it could record anything) stops the create with
 * VpsForeignOrderError naming the order and how to adopt it on purpose (adoptOrderOid).
 *
 * When the outcome of the POST stays unknown, create() records a PENDING resource instead of failing
 * plainly: id `pending-<token>`, properties with the nonce. The next `pulumi up` runs update() on it,
 * which finds the order by token and nonce (or orders it now); refresh turns the id into the order
 * oid; destroy cancels the order if it appeared. Design and remaining risk: docs/vps.md#exactly-once-creation.
 */
import type { AboutOrder, PostNewVpsResponse } from "../../../contract/index.js";
import {
  DEFAULT_CREATE_LOOKUP_GRACE_MS,
  carriesCreationToken,
  isReconciled,
  RimuError,
  type RimuClient,
} from "../../client/index.js";
import { RimuNotFoundError } from "../../client/errors.js";
import {
  CREATION_NONCE_KEY,
  creationNonceOf,
  creationTokenFor,
  newCreationNonce,
  takeTokenUnused,
} from "./creation-token.js";
import {
  VPS_ERROR_CODES,
  VpsAdoptionError,
  VpsError,
  VpsForeignOrderError,
  VpsIncompleteError,
  messageOf,
} from "../engine/errors.js";
import { log } from "../engine/log.js";
import { stackMarks } from "../ownership/new-order-marks.js";
import { RUN_RECORD_KEY, runIdOf } from "../ownership/run-records.js";
import { notProvablyOurs } from "../ownership/take-back.js";
import type { RunContext } from "../engine/run-context.js";
import { isOrderGone } from "../../wire-mapping/order-fields.js";
import {
  orderOutputs,
  recordedInputs,
  type RecordedOutputs,
  type VpsOutputs,
} from "../inputs/vps-outputs.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import { newVpsRequest } from "../inputs/vps-requests.js";
import { secretsWrapped } from "../inputs/secret-values.js";

/** Prefix of the id of a pending resource: a create whose outcome is unknown. */
const PENDING_ID_PREFIX = "pending-";
/** Output key holding a pending resource's creation token (hidden from displays: starts with "__"). */
const PENDING_TOKEN_KEY = "__creationToken" satisfies keyof VpsOutputs;

export const isPendingId = (id: string): boolean => id.startsWith(PENDING_ID_PREFIX);

/** How many orders carrying this resource's token but not matching its inputs create() steps over. */
const MAX_SUPERSEDED = 3;

/**
 * How long to keep looking for an order whose answer was lost: the client's grace, but never past the operation's
 * deadline (its time limit, time-limits.ts), so a create with a short limit fails soon after it (one look-up at
 * least), recorded as pending.
 */
function lookupGraceUntil(deadlineMs: number | undefined): number | undefined {
  if (deadlineMs === undefined) return undefined;
  return Math.min(DEFAULT_CREATE_LOOKUP_GRACE_MS, Math.max(0, deadlineMs - Date.now()));
}

export interface Ordered {
  order: AboutOrder;
  /** The password RimuHosting generated, when the response carried it. */
  password?: string;
  /** True when the order was found (a lost response of this state's create), not placed now. */
  found: boolean;
}

/** The nonce of these inputs: check() sets it; direct calls without check() get a fresh one. */
export function nonceOf(inputs: VpsInputs): string {
  const nonce = inputs.__creationNonce;
  return typeof nonce === "string" && nonce !== "" ? nonce : newCreationNonce();
}

/**
 * POSTs new-vps with this resource's token and this state's nonce, or returns this state's own order
 * found by them. `provider`: the `__provider` text, recorded with a pending resource.
 */
export async function orderOnce(
  run: RunContext,
  client: RimuClient,
  news: VpsInputs,
  nonce: string,
  provider: unknown,
  deadlineMs?: number,
  /**
   * The state records this resource as a create whose outcome was lost (an update of its pending id): an order
   * carrying its token and nonce is that create's, and the state is the record that proves it.
   */
  pendingOfThisState = false,
): Promise<Ordered> {
  const superseded: number[] = [];
  const marks = await stackMarks(run, news.creationScope, news.domainName ?? "this VPS");
  const thisRun = marks.find((mark) => mark.key_name === RUN_RECORD_KEY)?.value;
  for (;;) {
    const token = creationTokenFor(news, superseded);
    const request = newVpsRequest(news);
    request.meta_data = [
      ...(request.meta_data ?? []),
      { key_name: CREATION_NONCE_KEY, value: nonce },
      ...marks,
    ];
    let created: PostNewVpsResponse;
    try {
      created = await client.createVps(request, {
        creationToken: token,
        lookupGraceMs: run.tuning.createLookupGraceMs ?? lookupGraceUntil(deadlineMs),
        // check() of this deployment just found no order carrying the token: no pre-flight lookup again
        tokenKnownUnused: superseded.length === 0 && takeTokenUnused(run, token, nonce),
      });
    } catch (error) {
      throw outcomeUnknown(error, news, token, nonce, provider);
    }
    const order = created.about_order;
    if (!isReconciled(created)) {
      const password = created.new_order_request?.instantiation_options?.password ?? undefined;
      return password === undefined ? { order, found: false } : { order, password, found: false };
    }
    if (creationNonceOf(order) !== nonce) throw foreignOrder(order, news, token);
    const mismatch = notOrderedBy(order, news);
    if (mismatch === undefined) {
      // Placed by another run (not this one's answer lost): the nonce alone is no proof (take-back.ts).
      const placedBy = runIdOf(order);
      const why =
        pendingOfThisState || placedBy === undefined || placedBy === thisRun
          ? undefined
          : await notProvablyOurs(run, news, order);
      if (why !== undefined) throw foreignOrder(order, news, token, why);
      return { order, found: true };
    }
    if (superseded.length >= MAX_SUPERSEDED) {
      throw new VpsError(
        VPS_ERROR_CODES.foreignOrder,
        `Ordering VPS ${news.domainName}: order ${order.order_oid} carries this resource's creation token but ${mismatch}, ` +
          `and so did ${superseded.join(", ")}. Not ordering another VPS: cancel the orders you do not want, or adopt one with adoptOrderOid.`,
      );
    }
    log(
      run,
      `Vps: order ${order.order_oid} carries this resource's creation token but ${mismatch}: it is not what these inputs order ` +
        `(most likely the VPS being replaced), so a new VPS is ordered.`,
    );
    superseded.push(order.order_oid);
  }
}

/** Why `order` cannot be the order these inputs placed, or undefined if it can. */
function notOrderedBy(order: AboutOrder, news: VpsInputs): string | undefined {
  if (order.domain_name !== news.domainName) return `is ${order.domain_name}, not ${news.domainName}`;
  const dc = order.location?.data_center_location_code;
  if (news.dcLocation !== undefined && dc && dc !== news.dcLocation)
    return `is in ${dc}, not ${news.dcLocation}`;
  return undefined;
}

/** The stop for an order this state did not place (or cannot tell that it did). */
export function foreignOrder(
  order: AboutOrder,
  news: VpsInputs,
  token: string,
  notTakenBack?: string,
): VpsForeignOrderError {
  const scope = typeof news.creationScope === "string" ? news.creationScope : "this resource";
  return new VpsForeignOrderError(
    order.order_oid,
    `Ordering VPS ${news.domainName}: order ${order.order_oid} (${order.domain_name}) already carries the creation ` +
      `token of ${scope} (${token}), but it was not ordered by this stack's state: another state of the same ` +
      `project/stack/name placed it (another backend, a stack re-created with \`pulumi stack rm\`, a colleague's ` +
      `stack), or an earlier \`pulumi up\` of this stack was killed before it could record it. ` +
      (notTakenBack === undefined
        ? `Pulumi cannot tell which, so it neither adopts it nor orders a second VPS. `
        : `It is not taken back (${notTakenBack}), and no second VPS is ordered. `) +
      `If this stack should manage it, set ` +
      `adoptOrderOid: ${order.order_oid} on this resource; if another stack manages it, give this ` +
      `resource another name, or cancel the order you do not want.`,
  );
}

/**
 * A create whose outcome the client could not establish: recorded as a pending resource (an init
 * failure with a pending id), so the next `pulumi up` finds this state's order by token and nonce.
 * Other errors pass as they are.
 */
function outcomeUnknown(
  error: unknown,
  news: VpsInputs,
  token: string,
  nonce: string,
  provider: unknown,
): unknown {
  if (!(error instanceof RimuError) || error.orderMayExist !== true) return error;
  const properties: Record<string, unknown> = {
    ...secretsWrapped(recordedInputs({ ...news, __creationNonce: nonce })),
    [PENDING_TOKEN_KEY]: token,
    __provider: provider,
  };
  return new VpsIncompleteError(
    VPS_ERROR_CODES.outcomeUnknown,
    `Ordering VPS ${news.domainName}: RimuHosting did not confirm the order (${messageOf(error).replace(/\s*Find it with .*$/, "")}), ` +
      `and it may still be created (creation token ${token}).`,
    PENDING_ID_PREFIX + token,
    properties,
    error,
  );
}

/**
 * An order placed whose read-back failed (order-withdrawal.ts: the account read again to judge it against the
 * budget): it is billed, so the create fails as incomplete with the order's id and what is known of it, never as a
 * plain error that no state records. The next `pulumi up` finishes it (update() converges the live order), refresh
 * reads it, destroy cancels it. Its PTR is left out of the record, so the next update sets it.
 */
export function readBackFailed(
  news: VpsInputs,
  nonce: string,
  provider: unknown,
): (placed: Ordered, error: unknown) => VpsIncompleteError {
  return ({ order, password }, error) => {
    const recorded = { ...news, __creationNonce: nonce, password: news.password ?? password };
    const { reverseDns: _notSet, ...beforePtr } = recorded;
    const id = String(order.order_oid);
    return new VpsIncompleteError(
      VPS_ERROR_CODES.incomplete,
      `Ordering VPS ${news.domainName}: order ${id} was placed, but reading the account's orders again to judge it ` +
        `against the monthly budget failed (${messageOf(error)}). It is kept and recorded in this stack: run ` +
        `\`pulumi up\` again to finish it (a preview says whether the account is over its budget), or ` +
        `\`pulumi destroy\` to cancel it.`,
      id,
      { ...secretsWrapped(orderOutputs(order, beforePtr, recorded)), __provider: provider },
      error,
    );
  };
}

/**
 * This state's order of a pending resource (by token and nonce), if it has appeared. `carrying` lists the
 * active orders whose meta_data carries a token (the run's shared listing, or a fresh read).
 */
export async function findPendingOrder(
  carrying: (token: string) => Promise<readonly AboutOrder[]>,
  props: RecordedOutputs,
): Promise<AboutOrder | undefined> {
  const token = props[PENDING_TOKEN_KEY];
  const nonce = props.__creationNonce;
  if (typeof token !== "string" || typeof nonce !== "string") return undefined;
  return (await carrying(token)).find((order) => creationNonceOf(order) === nonce);
}

/** Takes over an existing order (adoptOrderOid) after checking it may be adopted. */
export async function orderToAdopt(client: RimuClient, news: VpsInputs, now: number): Promise<AboutOrder> {
  const oid = news.adoptOrderOid as number;
  let order: AboutOrder;
  try {
    order = (await client.getOrder(oid)).about_order;
  } catch (error) {
    if (error instanceof RimuNotFoundError) {
      throw new VpsAdoptionError(
        `adoptOrderOid: order ${oid} does not exist on this account (another account's order looks the same). ` +
          `List your orders with getOrders() and use one of their orderOid values.`,
      );
    }
    throw error;
  }
  const problem = adoptionProblem(order, news, now);
  if (problem) throw new VpsAdoptionError(problem);
  return order;
}

/** Why `order` cannot be adopted with these inputs, or undefined. Also used by check() in a preview. */
export function adoptionProblem(order: AboutOrder, news: VpsInputs, now: number): string | undefined {
  const oid = order.order_oid;
  if (isOrderGone(order, now))
    return `adoptOrderOid: order ${oid} (${order.domain_name}) is cancelled and cannot be adopted. Remove adoptOrderOid to order a new VPS.`;
  if (order.server_type && order.server_type !== "VPS")
    return `adoptOrderOid: order ${oid} is a ${order.server_type} server, not a VPS.`;
  if (news.domainName !== undefined && order.domain_name !== news.domainName)
    return (
      `adoptOrderOid: order ${oid} is ${order.domain_name}, but domainName is ${news.domainName}. ` +
      `Set domainName: "${order.domain_name}" to adopt it (the API cannot rename an order).`
    );
  const dc = order.location?.data_center_location_code;
  if (news.dcLocation !== undefined && dc && dc !== news.dcLocation)
    return `adoptOrderOid: order ${oid} is in ${dc}, but dcLocation is ${news.dcLocation}. Set dcLocation: "${dc}" (or leave it out) to adopt it.`;
  if (createdElsewhere(order, news))
    return (
      `adoptOrderOid: order ${oid} (${order.domain_name}) was created by another Pulumi stack (it carries that ` +
      `stack's creation nonce and not this resource's creation token), which may still manage it: two stacks ` +
      `changing one VPS undo each other's changes. Remove adoptOrderOid and leave it to that stack; or, if that ` +
      `stack no longer manages it (\`pulumi state delete\` there), take it over with \`pulumi import ` +
      `rimuhosting:index:Vps <name> ${oid}\` (the plugin ships with this package; docs/native-plugin.md).`
    );
  return undefined;
}

/**
 * True when a Pulumi stack other than this resource's created `order`: it carries a creation nonce (only the
 * provider's create writes one; a script's order carries none) that is not this state's, and not the token this
 * resource orders with. The token's match is the one way to adopt a stack's order on purpose: a create of this
 * same project/stack/name whose run was killed before it recorded the order (vps-create-once.test.ts), which the
 * foreign-order message tells the user to adopt.
 */
function createdElsewhere(order: AboutOrder, news: VpsInputs): boolean {
  const nonce = creationNonceOf(order);
  if (nonce === undefined || nonce === news.__creationNonce) return false;
  if (typeof news.creationScope !== "string" || news.creationScope === "") return false;
  const { adoptOrderOid: _adopting, ...ordering } = news;
  return !carriesCreationToken(order, creationTokenFor(ordering));
}
