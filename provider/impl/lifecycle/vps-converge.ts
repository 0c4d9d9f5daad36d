/**
 * Brings a live order to the inputs, one step at a time. A step that fails after an earlier one changed
 * the VPS leaves it changed, the state records what was done, and the next `pulumi up`
 * finishes (3. below); what is refused before the first call changes nothing (2.). A create or an adoption
 * brings the order to the program's inputs; update() to the target of planned-update.ts (what diff() planned,
 * the order as it stands elsewhere).
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
import type { AboutOrder } from "../../../contract/index.js";
import type { OrderRef, RimuClient } from "../../client/index.js";
import { catalogFor, catalogFindings } from "../account/catalog.js";
import type { AccountView } from "../account/account-view.js";
import { VPS_ERROR_CODES, VpsError, VpsIncompleteError, nested, presentError } from "../engine/errors.js";
import { log, type LogSink } from "../engine/log.js";
import type { RunContext } from "../engine/run-context.js";
import { configuredBaseUrl } from "./runtime-config.js";
import { assertChangesAllowed, computeChanges, type VpsChanges } from "../inputs/vps-changes.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import { orderOutputs, type RecordedOutputs, type VpsOutputs } from "../inputs/vps-outputs.js";
import { feeWords, resizeFeeWords } from "../budget/money.js";
import { parametersRequest, reinstallRequest } from "../inputs/vps-requests.js";
import { secretsWrapped } from "../inputs/secret-values.js";
import { LIVE_STEP_INPUTS, keepingRecorded } from "./planned-update.js";
import type { VpsInputName } from "../fields/vps-fields.js";

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
  run: RunContext,
  client: RimuClient,
  changes: VpsChanges,
  current: VpsOutputs,
  news: VpsInputs,
): Promise<{ reinstallFirst: boolean }> {
  assertChangesAllowed(changes, current, news);
  if (changes.reinstall.length === 0) return { reinstallFirst: false };
  const catalog = await catalogFor(run, client, configuredBaseUrl(run));
  const findings = catalogFindings(catalog, { distro: news.distro }, () => true);
  for (const warning of findings.warnings) log(run, `Vps ${String(current.orderOid)}: ${warning}`);
  return { reinstallFirst: findings.warnings.length > 0 };
}

/** What converge() brings to what. */
export interface ConvergeOptions {
  /** The run this converge() belongs to (its catalogue is read once per run). */
  run: RunContext;
  client: RimuClient;
  /** The order as read now. */
  live: AboutOrder;
  /** What the state records (inputs the service does not report are taken from here). */
  recorded: RecordedOutputs;
  /** The inputs to reach. */
  news: VpsInputs;
  /** What happened to the order, for the message of a failed step ("… was created, but a step failed"). */
  what: ConvergeWhat;
  /** The `__provider` text, recorded with the order when a step fails. */
  provider: VpsInputs["__provider"];
  /** Inputs an update leaves as the order has them, recorded as they were when a step fails (planned-update.ts). */
  leftAlone?: readonly VpsInputName[];
  /**
   * Where a new or adopted order's reverse DNS and running state are said: their words are gathered here, for the one
   * line that says the order (vps-provider.ts, convergeNew), not each a line of its own before it. A step that fails
   * says the words gathered so far in a line before its error. Without it (an update), each is a line of its own.
   */
  gathered?: string[];
  /**
   * The run's shared reads of the account: the read-back after the changes is served by a listing read after them,
   * shared with the other VPSs' read-backs (account/read-backs.ts). Without it, the order is read by itself.
   */
  view?: AccountView;
}

export async function converge(options: ConvergeOptions): Promise<{ order: AboutOrder; password?: string }> {
  const { client, live, recorded, news, what, provider, leftAlone = [] } = options;
  const current = orderOutputs(live, recorded);
  const id = String(live.order_oid);
  const changes = computeChanges(id, current, news);
  const run: Convergence = {
    client,
    live,
    ref: orderRef(live.order_oid, live.domain_name),
    id,
    news,
    changes,
    current,
    log: options.run.log,
    gathered: options.gathered,
  };
  // A move gives new addresses (without their PTR records): the name is set again on the new one.
  const setPtr = news.reverseDns !== undefined && (changes.reverseDns || changes.move);
  const progress: Progress = { changed: false, ptrDone: false };
  // The read-backs' shared listing waits for this change to return, not a gap after the first to return.
  const changeOver = options.view?.changeBegins();
  try {
    const { reinstallFirst } = await validatePlan(options.run, client, changes, current, news);
    for (const step of planSteps(changes, reinstallFirst)) await applyStep(run, step, progress);
    // Read back after any change: a resize response's about_order may still show the old sizes, and a resize or
    // reinstall restarts the VPS. From a listing read after the change, shared with the fleet's other read-backs;
    // the order's own GET only when that listing does not hold it or could not be read (AccountView.orderAfterChange).
    const readOrder = async () => (await client.getOrder(run.ref)).about_order;
    let order = !progress.changed
      ? live
      : options.view
        ? await options.view.orderAfterChange(live.order_oid, readOrder, changeOver)
        : await readOrder();
    changeOver?.();
    if (changes.move) log(run, movedLine(run, order));
    if (setPtr) await setReverseDns(run, order, progress);
    order = await setRunningState(run, order, progress);
    return progress.password === undefined ? { order } : { order, password: progress.password };
  } catch (error) {
    if (run.gathered?.length) log(run, `Vps ${id}: ${run.gathered.join("; ")}.`);
    throw await failureToRecord(error, run, progress, { recorded, what, provider, setPtr, leftAlone });
  } finally {
    changeOver?.();
    // Whatever it did, or a call that failed may have done: the VPS's next look-up is from a listing read after now.
    options.view?.noteChanged(live.order_oid);
  }
}

/** What every step of one converge() works on. */
interface Convergence {
  client: RimuClient;
  /** The order as it was when converge() started. */
  live: AboutOrder;
  ref: OrderRef;
  id: string;
  news: VpsInputs;
  changes: VpsChanges;
  /** `live` as outputs (what the changes were computed against). */
  current: VpsOutputs;
  /** Where the run's lines go (RunContext.log). */
  log: LogSink;
  /** A new or adopted order's words for its reverse DNS and running state (ConvergeOptions.gathered). */
  gathered?: string[];
}

/** Says what a step did: in the order's one line when its words are gathered, else a line of its own. */
function said(run: Convergence, words: string): void {
  if (run.gathered) run.gathered.push(words);
  else log(run, `Vps ${run.id}: ${words}.`);
}

/**
 * `Vps 123: moved to host server 835, its primary address now 192.0.2.7; the monthly fee stays $10.00.`: one line,
 * once the move is read back (a move takes minutes; the diff's warning said before it that the addresses change).
 */
function movedLine(run: Convergence, order: AboutOrder): string {
  const ip = order.allocated_ips?.primary_ip;
  const address = ip ? `, its primary address now ${ip}` : "";
  const fee = feeWords(orderFields(order).monthlyFeeUsd, run.current.monthlyFeeUsd);
  return `Vps ${run.id}: moved to host server ${String(run.news.hostServerOid)}${address}; ${fee}.`;
}

/** What has been done so far, for the record a failure leaves. */
interface Progress {
  /** Some call changed the VPS. */
  changed: boolean;
  /** A password a reinstall generated (or the input's). */
  password?: string;
  ptrDone: boolean;
}

/** Resize, move or reinstall (each one call; a resize also reconciles a lost answer). */
async function applyStep(run: Convergence, step: Step, progress: Progress): Promise<void> {
  const { client, ref, id, news, changes } = run;
  if (step === "resize") await resize(run, client, ref, id, news, changes);
  if (step === "move") {
    await client.moveVps(
      ref,
      {
        selected_host_server_oid: news.hostServerOid,
        pricing_change_option: "CHOOSE_SAME_RESOURCES",
        is_update_dns: true,
        move_reason: "Requested through pulumi-rimuhosting (hostServerOid)",
      },
      { usedDiskMb: run.current.diskSpaceMb },
    );
  }
  if (step === "reinstall") {
    log(run, `Vps ${id}: reinstalling (${changes.reinstall.join(", ")}); the disk is erased.`);
    const reinstalled = await client.reinstallVps(ref, reinstallRequest(news, run.live.distro ?? undefined));
    progress.password =
      news.password ?? reinstalled.new_order_request?.instantiation_options?.password ?? undefined;
  }
  progress.changed = true;
}

/** The PTR name of the primary address, as the VPS now stands (after a move: its new address). */
async function setReverseDns(run: Convergence, order: AboutOrder, progress: Progress): Promise<void> {
  const ip = order.allocated_ips?.primary_ip ?? undefined;
  const name = run.news.reverseDns as string;
  await run.client.setReverseDns(run.ref, ip, name);
  progress.ptrDone = true;
  progress.changed = true;
  said(
    run,
    name === ""
      ? `removed the reverse DNS name of ${ip ?? "the primary address"}`
      : `reverse DNS of ${ip ?? "the primary address"} set to ${name}`,
  );
}

/** The running state last (a resize or reinstall restarts the VPS); returns the order as it now stands. */
async function setRunningState(run: Convergence, order: AboutOrder, progress: Progress): Promise<AboutOrder> {
  const wanted = run.news.runningState;
  if (wanted === undefined || order.running_state === wanted) return order;
  // An update's line comes before the call (a stop can take a while); a new order's is its one line, after.
  if (!run.gathered) log(run, `Vps ${run.id}: setting the running state to ${wanted}.`);
  const answer = await run.client.setRunningState(run.ref, wanted);
  progress.changed = true;
  run.gathered?.push(`its running state set to ${wanted}`);
  // The answer holds the order as it now stands (docs/rimuhosting-api.md, R11); read it only if it does not.
  return answer.about_order ?? (await run.client.getOrder(run.ref)).about_order;
}

/**
 * The error a failed step leaves: the plain error when nothing changed (and nothing must be recorded),
 * otherwise VpsIncompleteError carrying the order as it stands, so the engine records it.
 */
async function failureToRecord(
  error: unknown,
  run: Convergence,
  progress: Progress,
  context: {
    recorded: RecordedOutputs;
    what: ConvergeWhat;
    provider: VpsInputs["__provider"];
    setPtr: boolean;
    leftAlone: readonly VpsInputName[];
  },
): Promise<Error> {
  const { client, live, ref, id, news, current } = run;
  const { recorded, what, provider, setPtr, leftAlone } = context;
  // Read the order as it stands: a step whose answer was lost (timeout, dropped connection) may
  // have been applied, and the state must then say so, not the old values.
  const order = await client.getOrder(ref).then(
    (response) => response.about_order,
    () => undefined,
  );
  const moved = order !== undefined && differsFrom(order, current, recorded);
  // A new or adopted order must be recorded whatever failed.
  const mustRecord = what !== "was being updated";
  if (!progress.changed && !moved && !mustRecord)
    return presentError(error, `VPS order ${id} (${live.domain_name})`);
  const presented = presentError(error, "");
  // A PTR not (yet) set keeps the recorded name, so the next update sets it.
  const reverseDns = setPtr && !progress.ptrDone ? recorded.reverseDns : news.reverseDns;
  const standing = orderOutputs(
    order ?? live,
    { ...recorded, ...news, reverseDns, password: progress.password ?? recorded.password },
    news,
  );
  const properties = secretsWrapped(keepingRecorded(standing, recorded, leftAlone));
  return new VpsIncompleteError(
    VPS_ERROR_CODES.incomplete,
    `VPS order ${id} (${live.domain_name}) ${what}, but a step failed: ${nested(presented)}`,
    id,
    { ...properties, __provider: provider },
    error,
  );
}

/** True if the order no longer matches `before` (the outputs it had when converge started). */
function differsFrom(order: AboutOrder, before: VpsOutputs, recorded: RecordedOutputs): boolean {
  const now = orderOutputs(order, recorded);
  return LIVE_STEP_INPUTS.some((field) => now[field] !== before[field]);
}

/**
 * One resize of the changed sizes. The call is retried on a lost response; the retry of an applied
 * resize is answered "not changed" (the sizes are already the requested ones), so "not changed" is
 * checked against the order before it counts as a failure.
 */
async function resize(
  run: Convergence,
  client: RimuClient,
  ref: OrderRef,
  id: string,
  news: VpsInputs,
  changes: VpsChanges,
): Promise<void> {
  const request = parametersRequest(news, changes.parameters);
  const resized = await client.changeParameters(ref, request);
  const result = resized.resource_change_result;
  if (result.were_resources_changed) {
    // One line, after the fact: the diff of the same deployment already warned that the resize restarts the VPS.
    log(
      run,
      `Vps ${id}: resized ${changes.parameters.join(", ")}, which restarts the VPS; ${resizeFeeWords(result)}.`,
    );
    return;
  }
  const order = (await client.getOrder(ref)).about_order;
  const params = order.vps_parameters;
  const reached =
    (request.memory_mb === undefined || params?.memory_mb === request.memory_mb) &&
    (request.disk_space_mb === undefined || params?.disk_space_mb === request.disk_space_mb) &&
    (request.disk_space_2_mb === undefined || (params?.disk_space_2_mb ?? 0) === request.disk_space_2_mb);
  if (reached) {
    log(run, `Vps ${id}: the order already has the requested sizes (an earlier answer was lost).`);
    return;
  }
  throw new VpsError(
    VPS_ERROR_CODES.changeRefused,
    `${changes.parameters.join(", ")}: RimuHosting did not resize the VPS: ${
      (result.resource_change_messages ?? []).join(" ") || "no reason given"
    }.`,
  );
}
