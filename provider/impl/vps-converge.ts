/**
 * Brings a live order to the inputs: all or nothing.
 *
 * 1. Plan: compare the live order with the inputs (computeChanges).
 * 2. Validate every planned change before the first call: refusals (disk shrink, reinstall without
 *    allowReinstall), and catalogue lookups (an unlisted distro makes the reinstall the first step,
 *    so a refused code changes nothing).
 * 3. Apply in a safe order: resize, move, reinstall, reverse DNS (on the address the VPS has after a
 *    move), running state last (a resize or reinstall restarts the VPS). A step that fails after an
 *    earlier one changed something raises VpsIncompleteError carrying the order id and the order as
 *    it stands (with `__provider`), so the engine records it; the next `pulumi up` compares again
 *    with the live order and finishes.
 * 4. A lost response to an idempotent step is reconciled by reading the order: a resize retried and
 *    answered "the requested sizes are the current sizes" succeeded.
 */
import type { AboutOrder } from "../../contract/index.js";
import type { OrderRef, RimuClient } from "../client/index.js";
import { catalogFor, catalogFindings } from "./catalog.js";
import { VPS_ERROR_CODES, VpsError, VpsIncompleteError, nested, presentError } from "./errors.js";
import { log } from "./log.js";
import { configuredBaseUrl } from "./runtime-config.js";
import { assertChangesAllowed, computeChanges, type VpsChanges } from "./vps-changes.js";
import type { VpsInputs } from "./vps-inputs.js";
import { orderFields, orderOutputs } from "./vps-outputs.js";
import { feeLine, resizeBillLine } from "./money.js";
import { parametersRequest, reinstallRequest } from "./vps-requests.js";
import { secretsWrapped } from "./vps-create.js";
import { REPORTED_FIELDS, inputsOfKind } from "./vps-fields.js";

type Bag = Record<string, unknown>;

export type ConvergeWhat = "was created" | "was adopted" | "was being updated";

export function orderRef(oid: number, domainName: unknown): OrderRef {
  return typeof domainName === "string" ? { orderOid: oid, domainName } : oid;
}

type Step = "resize" | "move" | "reinstall" | "runningState";

/** The planned steps, in order; an unlisted distro moves the reinstall first. */
function planSteps(changes: VpsChanges, reinstallFirst: boolean): Step[] {
  const steps: Step[] = [];
  if (changes.parameters.length > 0) steps.push("resize");
  if (changes.move) steps.push("move");
  if (changes.reinstall.length > 0) {
    if (reinstallFirst) steps.unshift("reinstall");
    else steps.push("reinstall");
  }
  return steps;
}

/** Refusals and catalogue lookups for the planned changes; throws before anything is changed. */
async function validatePlan(
  client: RimuClient,
  changes: VpsChanges,
  current: Bag,
  news: VpsInputs,
): Promise<{ reinstallFirst: boolean }> {
  assertChangesAllowed(changes, current, news as Bag);
  if (changes.reinstall.length === 0) return { reinstallFirst: false };
  const catalog = await catalogFor(client, configuredBaseUrl());
  const findings = catalogFindings(catalog, { distro: news.distro }, () => true);
  for (const warning of findings.warnings) log(`Vps ${String(current.orderOid)}: ${warning}`);
  return { reinstallFirst: findings.warnings.length > 0 };
}

export async function converge(
  client: RimuClient,
  live: AboutOrder,
  recorded: Bag,
  news: VpsInputs,
  what: ConvergeWhat,
  provider: unknown,
): Promise<{ order: AboutOrder; password?: string }> {
  const id = String(live.order_oid);
  const ref = orderRef(live.order_oid, live.domain_name);
  const current = orderOutputs(live, recorded) as unknown as Bag;
  const changes = computeChanges(id, current, news as Bag);
  // A new or adopted order must be recorded whatever fails next.
  const mustRecord = what !== "was being updated";
  let changed = false;
  let password: string | undefined;
  // A move gives new addresses (without their PTR records): the name is set again on the new one.
  const setPtr = news.reverseDns !== undefined && (changes.reverseDns || changes.move);
  let ptrDone = false;
  try {
    const { reinstallFirst } = await validatePlan(client, changes, current, news);
    for (const step of planSteps(changes, reinstallFirst)) {
      if (step === "resize") await resize(client, ref, id, news, changes);
      if (step === "move") {
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
      }
      if (step === "reinstall") {
        log(`Vps ${id}: reinstalling (${changes.reinstall.join(", ")}); the disk is erased.`);
        const reinstalled = await client.reinstallVps(ref, reinstallRequest(news, live.distro ?? undefined));
        password =
          news.password ?? reinstalled.new_order_request?.instantiation_options?.password ?? undefined;
      }
      changed = true;
    }
    // Re-read after any change: a resize response's about_order may still show the old sizes, and a
    // resize or reinstall restarts the VPS. One GET per step, never two.
    let order = changed ? (await client.getOrder(ref)).about_order : live;
    if (changes.move)
      log(feeLine(id, orderFields(order).monthlyFeeUsd, current.monthlyFeeUsd as number | undefined));
    if (setPtr) {
      const ip = order.allocated_ips?.primary_ip ?? undefined;
      const name = news.reverseDns as string;
      await client.setReverseDns(ref, ip, name);
      ptrDone = true;
      changed = true;
      log(
        name === ""
          ? `Vps ${id}: removed the reverse DNS name of ${ip ?? "the primary address"}.`
          : `Vps ${id}: reverse DNS of ${ip ?? "the primary address"} set to ${name}.`,
      );
    }
    if (news.runningState !== undefined && order.running_state !== news.runningState) {
      log(`Vps ${id}: setting the running state to ${news.runningState}.`);
      const answer = await client.setRunningState(ref, news.runningState);
      changed = true;
      // The answer holds the order as it now stands (docs/rimuhosting-api.md, R11); read it only if it does not.
      order = answer.about_order ?? (await client.getOrder(ref)).about_order;
    }
    return password === undefined ? { order } : { order, password };
  } catch (error) {
    // Read the order as it stands: a step whose answer was lost (timeout, dropped connection) may
    // have been applied, and the state must then say so, not the old values.
    const order = await client.getOrder(ref).then(
      (response) => response.about_order,
      () => undefined,
    );
    const moved = order !== undefined && differsFrom(order, current, recorded);
    if (!changed && !moved && !mustRecord) throw presentError(error, `VPS order ${id} (${live.domain_name})`);
    const presented = presentError(error, "");
    // A PTR not (yet) set keeps the recorded name, so the next update sets it.
    const reverseDns = setPtr && !ptrDone ? recorded.reverseDns : news.reverseDns;
    const properties = secretsWrapped(
      orderOutputs(
        order ?? live,
        { ...recorded, ...news, reverseDns, password: password ?? recorded.password },
        news,
      ) as unknown as Bag,
    );
    throw new VpsIncompleteError(
      VPS_ERROR_CODES.incomplete,
      `VPS order ${id} (${live.domain_name}) ${what}, but a step failed: ${nested(presented)}`,
      id,
      { ...properties, __provider: provider },
      error,
    );
  }
}

/** The fields a step changes that the order reports (so a lost answer can be seen on the order). */
const STEP_FIELDS = inputsOfKind("parameters", "move", "reinstall", "running-state").filter((name) =>
  REPORTED_FIELDS.includes(name),
);

/** True if the order no longer matches `before` (the outputs it had when converge started). */
function differsFrom(order: AboutOrder, before: Bag, recorded: Bag): boolean {
  const now = orderOutputs(order, recorded) as unknown as Bag;
  return STEP_FIELDS.some((field) => now[field] !== before[field]);
}

/**
 * One resize of the changed sizes. The call is retried on a lost response; the retry of an applied
 * resize is answered "not changed" (the sizes are already the requested ones), so "not changed" is
 * checked against the order before it counts as a failure.
 */
async function resize(
  client: RimuClient,
  ref: OrderRef,
  id: string,
  news: VpsInputs,
  changes: VpsChanges,
): Promise<void> {
  log(`Vps ${id}: resizing (${changes.parameters.join(", ")}); the VPS restarts.`);
  const request = parametersRequest(news, changes.parameters);
  const resized = await client.changeParameters(ref, request);
  const result = resized.resource_change_result;
  if (result.were_resources_changed) {
    log(resizeBillLine(id, result));
    return;
  }
  const order = (await client.getOrder(ref)).about_order;
  const params = order.vps_parameters;
  const reached =
    (request.memory_mb === undefined || params?.memory_mb === request.memory_mb) &&
    (request.disk_space_mb === undefined || params?.disk_space_mb === request.disk_space_mb) &&
    (request.disk_space_2_mb === undefined || (params?.disk_space_2_mb ?? 0) === request.disk_space_2_mb);
  if (reached) {
    log(`Vps ${id}: the order already has the requested sizes (an earlier answer was lost).`);
    return;
  }
  throw new VpsError(
    VPS_ERROR_CODES.changeRefused,
    `${changes.parameters.join(", ")}: RimuHosting did not resize the VPS: ${
      (result.resource_change_messages ?? []).join(" ") || "no reason given"
    }.`,
  );
}
