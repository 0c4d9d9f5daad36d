/**
 * The Vps resource's lifecycle: check, diff, create, read, update, delete. Called by the thin shim
 * (../vps-shim.ts) inside the dynamic-provider host; every function works on plain property bags.
 */
import type { AboutOrder, PostNewVpsResponse } from "../../contract/index.js";
import { isReconciled, type OrderRef, type RimuClient } from "../client/index.js";
import { RimuConflictError, RimuError, RimuNotFoundError } from "../client/errors.js";
import { creationTokenFor } from "./creation-token.js";
import { clientFor } from "./runtime-config.js";
import {
  setValues,
  transitionFailures,
  validateInputs,
  type CheckFailure,
  type VpsInputs,
} from "./vps-inputs.js";
import { isOrderGone, orderOutputs, refreshedInputs, type VpsOutputs } from "./vps-outputs.js";
import { assertChangesAllowed, computeChanges, hasChanges, REPLACE_FORCING_INPUTS } from "./vps-changes.js";
import { VPS_INPUT_FIELDS } from "./vps-fields.js";
import { minutesToMs, newVpsRequest, parametersRequest, reinstallRequest } from "./vps-requests.js";
import { VpsAdoptionError, VpsIncompleteError, messageOf } from "./errors.js";
import { log } from "./log.js";

type Bag = Record<string, unknown>;

/** Injected clock, for the "is this cancellation in the past" test. */
let now: () => number = () => Date.now();
export function setClock(clock: () => number): void {
  now = clock;
}

/**
 * How long create() keeps looking an order up by its creation token after an ambiguous failure;
 * undefined = the client's default (DEFAULT_CREATE_LOOKUP_GRACE_MS). Injected by tests.
 */
let createLookupGraceMs: number | undefined;
export function setCreateLookupGrace(ms: number | undefined): void {
  createLookupGraceMs = ms;
}

/** The order oid of a resource id ("1234567"). */
function orderOidOf(id: string): number {
  const oid = Number(id);
  if (!Number.isSafeInteger(oid) || oid <= 0) {
    throw new Error(
      `"${id}" is not a RimuHosting order oid: a Vps id is the order's number, e.g. "1234567".`,
    );
  }
  return oid;
}

function orderRef(oid: number, domainName: unknown): OrderRef {
  return typeof domainName === "string" ? { orderOid: oid, domainName } : oid;
}

export async function check(olds: Bag, news: Bag): Promise<{ inputs: Bag; failures?: CheckFailure[] }> {
  const failures = [...validateInputs(news), ...transitionFailures(setValues(olds ?? {}), news)];
  return failures.length > 0 ? { inputs: news, failures } : { inputs: news };
}

export async function diff(
  id: string,
  olds: Bag,
  news: Bag,
): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
  const before = setValues(olds);
  const after = setValues(news);
  const changes = computeChanges(id, before, after);
  assertChangesAllowed(changes, before, after);
  for (const field of changes.orderOnly) {
    log(
      `Vps ${id}: ${field} is used only when ordering and the API cannot change it on an existing order; ` +
        `the change is recorded in the inputs but not applied (the outputs show the order's value).`,
    );
  }
  return { changes: hasChanges(changes), replaces: changes.replaces, deleteBeforeReplace: false };
}

export async function create(inputs: Bag): Promise<{ id: string; outs: VpsOutputs }> {
  const news = setValues(inputs) as VpsInputs;
  const client = clientFor("Creating a Vps", minutesToMs(news.timeouts?.createMinutes));
  if (news.adoptOrderOid !== undefined) return adopt(client, news);

  const created = await orderOnce(client, news);
  const order = created.about_order;
  const id = String(order.order_oid);
  const password = news.password ?? created.new_order_request?.instantiation_options?.password ?? undefined;
  const recorded = { ...news, password };
  log(
    isReconciled(created)
      ? `Vps ${id}: found order ${order.domain_name} by this resource's creation token; adopting it.`
      : `Vps ${id}: ordered ${order.domain_name}.`,
  );
  if (password === undefined && isReconciled(created)) {
    log(
      `Vps ${id}: the order was found by its creation token (its response was lost earlier), so the ` +
        `root password RimuHosting generated is unknown. Set the password input with allowReinstall, or reset it in the control panel.`,
    );
  }
  const result = await converge(client, order, recorded, news, "was created");
  return { id, outs: orderOutputs(result.order, { ...recorded, password: result.password ?? password }) };
}

/** How many orders carrying this resource's token but not matching its inputs create() steps over. */
const MAX_SUPERSEDED = 3;

/**
 * POST new-vps with this resource's creation token: stable for retries, different for a replacement
 * (creation-token.ts), so an order from an earlier run whose response was lost is returned instead of
 * a second one. An order found that way must also be what these inputs order: one that carries the
 * token but not the domainName or dcLocation can only be an older VPS of this resource whose order
 * drifted outside Pulumi (the one being replaced), so it is stepped over with a token naming it.
 */
async function orderOnce(client: RimuClient, news: VpsInputs): Promise<PostNewVpsResponse> {
  const superseded: number[] = [];
  for (;;) {
    const creationToken = creationTokenFor(news, superseded);
    let created: PostNewVpsResponse;
    try {
      created = await client.createVps(newVpsRequest(news), {
        creationToken,
        lookupGraceMs: createLookupGraceMs,
      });
    } catch (error) {
      throw outcomeUnknownError(error, news, creationToken);
    }
    const mismatch = isReconciled(created) ? notOrderedBy(created.about_order, news) : undefined;
    if (mismatch === undefined) return created;
    const oid = created.about_order.order_oid;
    if (superseded.length >= MAX_SUPERSEDED) {
      throw new Error(
        `Ordering VPS ${news.domainName}: order ${oid} carries this resource's creation token but ${mismatch}, ` +
          `and so did ${superseded.join(", ")}. Not ordering another VPS: cancel the orders you do not want, or adopt one with adoptOrderOid.`,
      );
    }
    log(
      `Vps: order ${oid} carries this resource's creation token but ${mismatch}: it is not what these inputs order ` +
        `(most likely the VPS being replaced), so a new VPS is ordered.`,
    );
    superseded.push(oid);
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

/**
 * A create whose outcome the client could not establish becomes an error that says so plainly: no
 * `id` (nothing is recorded), the token, and what the next `pulumi up` will do. Other errors pass as is.
 */
function outcomeUnknownError(error: unknown, news: VpsInputs, token: string): unknown {
  if (!(error instanceof RimuError) || error.orderMayExist !== true) return error;
  const keep = REPLACE_FORCING_INPUTS.filter((name) => VPS_INPUT_FIELDS[name] === "replace").join(", ");
  const next =
    news.creationScope !== undefined
      ? `The next \`pulumi up\` looks for an active order carrying creation token ${token} and adopts it ` +
        `instead of ordering a second VPS. Keep ${keep} unchanged until then: changing one orders a new VPS, ` +
        `and an order that appears late with this token would then have to be cancelled by hand.`
      : `This resource has no creationScope (set by the Vps class of pulumi-rimuhosting), so the next ` +
        `\`pulumi up\` cannot find it: look for an order carrying creation token ${token} with getOrders() ` +
        `and adopt it with adoptOrderOid, or cancel it.`;
  const wrapped = new Error(
    `Ordering VPS ${news.domainName}: the outcome is unknown, and the order may still be created by ` +
      `RimuHosting (creation token ${token}). ${next} Cause: ${messageOf(error)}`,
  );
  Object.defineProperty(wrapped, "code", { value: "RIMU_ERR_CREATE_OUTCOME_UNKNOWN", enumerable: true });
  Object.defineProperty(wrapped, "creationToken", { value: token, enumerable: true });
  Object.defineProperty(wrapped, "cause", { value: error, enumerable: false });
  return wrapped;
}

/** Takes over an existing order (adoptOrderOid): verify it, then bring it to the inputs like update(). */
async function adopt(client: RimuClient, news: VpsInputs): Promise<{ id: string; outs: VpsOutputs }> {
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
  if (isOrderGone(order, now())) {
    throw new VpsAdoptionError(
      `adoptOrderOid: order ${oid} (${order.domain_name}) is cancelled and cannot be adopted. ` +
        `Remove adoptOrderOid to order a new VPS.`,
    );
  }
  if (order.server_type && order.server_type !== "VPS") {
    throw new VpsAdoptionError(`adoptOrderOid: order ${oid} is a ${order.server_type} server, not a VPS.`);
  }
  if (order.domain_name !== news.domainName) {
    throw new VpsAdoptionError(
      `adoptOrderOid: order ${oid} is ${order.domain_name}, but domainName is ${news.domainName}. ` +
        `Set domainName: "${order.domain_name}" to adopt it (the API cannot rename an order).`,
    );
  }
  const dc = order.location?.data_center_location_code;
  if (news.dcLocation !== undefined && dc && dc !== news.dcLocation) {
    throw new VpsAdoptionError(
      `adoptOrderOid: order ${oid} is in ${dc}, but dcLocation is ${news.dcLocation}. ` +
        `Set dcLocation: "${dc}" (or leave it out) to adopt it.`,
    );
  }
  const id = String(oid);
  log(`Vps ${id}: adopting existing order ${order.domain_name}.`);
  // Install-time options cannot be read back: they are recorded as given, not reinstalled.
  const result = await converge(client, order, { ...news }, news, "was adopted");
  return { id, outs: orderOutputs(result.order, { ...news, password: result.password ?? news.password }) };
}

export async function read(
  id: string,
  props?: Bag,
): Promise<{ id?: string; props?: VpsOutputs; inputs?: Bag }> {
  const oid = orderOidOf(id);
  const recorded = setValues(props ?? {});
  const client = clientFor("Refreshing a Vps");
  let order: AboutOrder;
  try {
    order = (await client.getOrder(orderRef(oid, recorded.domainName))).about_order;
  } catch (error) {
    if (error instanceof RimuNotFoundError) return {};
    throw error;
  }
  if (isOrderGone(order, now())) return {};
  const outs = orderOutputs(order, recorded);
  return { id: String(order.order_oid), props: outs, inputs: refreshedInputs(outs) };
}

export async function update(id: string, olds: Bag, inputs: Bag): Promise<{ outs: VpsOutputs }> {
  const oid = orderOidOf(id);
  const news = setValues(inputs) as VpsInputs;
  const recorded = setValues(olds);
  const client = clientFor("Updating a Vps", minutesToMs(news.timeouts?.updateMinutes));
  let order: AboutOrder;
  try {
    order = (await client.getOrder(orderRef(oid, recorded.domainName))).about_order;
  } catch (error) {
    if (error instanceof RimuNotFoundError) throw goneError(id);
    throw error;
  }
  if (isOrderGone(order, now())) throw goneError(id);
  // Compare with the live order, not the old outputs: this is also how a failed create or update resumes.
  const result = await converge(client, order, recorded, news, "was being updated");
  const password = result.password ?? news.password ?? (recorded.password as string | undefined);
  return { outs: orderOutputs(result.order, { ...news, password }) };
}

function goneError(id: string): Error {
  return new Error(
    `VPS order ${id} no longer exists or was cancelled outside Pulumi. ` +
      `Run \`pulumi refresh\` to drop it from the stack; the next \`pulumi up\` then orders a new VPS.`,
  );
}

export async function deleteVps(id: string, props: Bag): Promise<void> {
  const oid = orderOidOf(id);
  const recorded = setValues(props ?? {}) as VpsInputs;
  const client = clientFor("Deleting a Vps", minutesToMs(recorded.timeouts?.deleteMinutes));
  const ref = orderRef(oid, recorded.domainName);
  try {
    await client.deleteVps(ref);
    log(`Vps ${id}: shut down and cancelled.`);
  } catch (error) {
    // Already gone counts as deleted: the engine keeps the resource if delete throws.
    if (error instanceof RimuNotFoundError) return;
    if (error instanceof RimuConflictError) {
      const order = await client.getOrder(ref).then(
        (response) => response.about_order,
        () => undefined,
      );
      if (order && isOrderGone(order, now())) return;
    }
    throw error;
  }
}

/**
 * Brings a live order to the inputs, in a safe order: resize, then move, then reinstall, and the
 * running state last (a resize or reinstall restarts the VPS). Refusals are raised before the first
 * call. A failure once the order is new or adopted, or after a change has been made, is raised as
 * VpsIncompleteError carrying the order id, so the engine records where things stand.
 */
async function converge(
  client: RimuClient,
  live: AboutOrder,
  recorded: Bag,
  news: VpsInputs,
  what: "was created" | "was adopted" | "was being updated",
): Promise<{ order: AboutOrder; password?: string }> {
  const id = String(live.order_oid);
  const ref = orderRef(live.order_oid, live.domain_name);
  const current = orderOutputs(live, recorded) as unknown as Bag;
  const changes = computeChanges(id, current, news as Bag);
  assertChangesAllowed(changes, current, news as Bag);

  // A new or adopted order must be recorded whatever fails next.
  const mustRecord = what !== "was being updated";
  let changed = false;
  let password: string | undefined;
  try {
    if (changes.parameters.length > 0) {
      log(`Vps ${id}: resizing (${changes.parameters.join(", ")}); the VPS restarts.`);
      const resized = await client.changeParameters(ref, parametersRequest(news, changes.parameters));
      changed = true;
      const result = resized.resource_change_result;
      if (!result.were_resources_changed) {
        throw new Error(
          `the resize was not applied: ${(result.resource_change_messages ?? []).join(" ") || "no reason given"}`,
        );
      }
    }
    if (changes.move) {
      log(`Vps ${id}: moving to host server ${news.hostServerOid}; its IP addresses may change.`);
      await client.moveVps(
        ref,
        {
          selected_host_server_oid: news.hostServerOid,
          pricing_change_option: "CHOOSE_SAME_RESOURCES",
          is_update_dns: true,
          move_reason: "Requested through pulumi-rimuhosting (hostServerOid)",
        },
        { usedDiskMb: typeof current.diskSpaceMb === "number" ? current.diskSpaceMb : undefined },
      );
      changed = true;
    }
    if (changes.reinstall.length > 0) {
      log(`Vps ${id}: reinstalling (${changes.reinstall.join(", ")}); the disk is erased.`);
      const reinstalled = await client.reinstallVps(ref, reinstallRequest(news, live.distro ?? undefined));
      changed = true;
      password = news.password ?? reinstalled.new_order_request?.instantiation_options?.password ?? undefined;
    }
    // Re-read after any change: a resize response's about_order may still show the old sizes
    // (rimuhosting-api.md R9), and a resize or reinstall restarts the VPS. One GET per step, never two.
    let order = changed ? (await client.getOrder(ref)).about_order : live;
    if (news.runningState !== undefined && order.running_state !== news.runningState) {
      log(`Vps ${id}: setting the running state to ${news.runningState}.`);
      await client.setRunningState(ref, news.runningState);
      changed = true;
      order = (await client.getOrder(ref)).about_order;
    }
    return password === undefined ? { order } : { order, password };
  } catch (error) {
    if (!changed && !mustRecord) throw error;
    const order = await client.getOrder(ref).then(
      (response) => response.about_order,
      () => live,
    );
    throw new VpsIncompleteError(
      `VPS order ${id} (${live.domain_name}) ${what}, but a step failed (${messageOf(error)}). ` +
        `Pulumi has recorded the order as it stands; run \`pulumi up\` again to finish.`,
      id,
      orderOutputs(order, {
        ...recorded,
        ...news,
        password: password ?? recorded.password,
      }) as unknown as Bag,
      error,
    );
  }
}
