/**
 * The Vps resource's lifecycle: diff, create, read, update, delete (check is vps-check.ts, re-exported here), for
 * both front ends: the thin shim (../vps-shim.ts) inside the dynamic-provider host, and the native plugin
 * (../native/vps-resource.ts). They take the inputs as the input schema gives them (VpsInputs) and the state as
 * recorded (RecordedOutputs), parsed where it comes in (recordedState() in vps-values.ts; the native plugin's
 * protocol.ts does the same).
 *
 * Two layers. checkVps() and diffVps() are the core: they return what they found as data (failures with
 * their codes, notes such as warnings and prices, the planned change, the outputs a move makes unknown),
 * for any front end. check() and diff() are the dynamic provider's front end over them: they show the notes
 * (on the resource, notes.ts), present each failure as one coded line (presentFailure) and, in a preview,
 * return a move's changed outputs as unknown inputs (docs/dynamic-providers.md §10).
 *
 * Reading order for one field, e.g. memoryMb: its row in vps-fields.ts says everything the code below
 * asks of it (a `parameters` input, reported by the service, sent as given at vps_parameters.memory_mb).
 * check() parses the inputs once and runs its rules on them (vps-check.ts); diff() asks computeChanges()
 * (vps-changes.ts) what its change kind does and effectsOf() (vps-effects.ts) what that does to the VPS; create()
 * orders it (vps-create.ts, the request from toWire() in vps-requests.ts); update() converges what diff() planned
 * (planned-update.ts; vps-converge.ts: the same refusal rule before the first call, then resize, move, reinstall,
 * reverse DNS, running state); read() maps the order back (orderFields() in ../wire-mapping/order-fields.ts).
 * Every error a user sees leaves here as one VpsError (errors.ts).
 */
import type { AboutOrder } from "../../contract/index.js";
import type { RimuClient } from "../client/index.js";
import { noteAppliedEverywhere, noteStartingEverywhere } from "./account/account-view.js";
import { same } from "./inputs/canonical-json.js";
import { presentError } from "./engine/errors.js";
import { log } from "./engine/log.js";
import {
  billedWords,
  isPreview,
  pricedOf,
  replacementLine,
  resizeLine,
  type QuotedValues,
} from "./budget/money.js";
import { emitNotes, info, previewUrnOf, resourceKey, resourceName, type Note } from "./engine/notes.js";
import {
  accountView,
  clientFor,
  configuredBaseUrl,
  hasApiKey,
  readLimit,
} from "./lifecycle/runtime-config.js";
import { timeLimitOf, type EngineRequest } from "./engine/time-limits.js";
import { secretKeys } from "./inputs/secret-values.js";
import { computeChanges, hasChanges, REPLACE_FORCING_INPUTS, type VpsChanges } from "./inputs/vps-changes.js";
import { converge, orderRef, type ConvergeOptions } from "./lifecycle/vps-converge.js";
import { keepingRecorded, plannedUpdate } from "./lifecycle/planned-update.js";
import { isPendingId, nonceOf, orderOnce, orderToAdopt, readBackFailed } from "./lifecycle/vps-create.js";
import { effectNotes, effectsOf } from "./lifecycle/vps-effects.js";
import { orderNow, resolveOrderOid } from "./lifecycle/order-of-id.js";
import { sweepStackStrays } from "./ownership/stack-strays.js";
import { noteOrderingOn } from "./ownership/record-pruning.js";
import { noteDeleting } from "./ownership/run-deletes.js";
import { cancelRecorded } from "./ordering/order-cancel.js";
import { failingStep } from "./ordering/replaced-orders.js";
import { goneRead, refreshDrift } from "./lifecycle/vps-drift.js";
import { withObservedChanges } from "./lifecycle/service-drift.js";
import { goneError, orderStanding } from "./lifecycle/gone-order.js";
import { noteRead, takeRefreshDiff } from "./lifecycle/refresh-diff.js";
import { importedInputs } from "./lifecycle/imported-inputs.js";
import type { VpsInputs } from "./inputs/vps-input-schema.js";
import { recordedState, refreshableState, setValues } from "./inputs/vps-values.js";
import { isOrderGone, orderFields } from "../wire-mapping/order-fields.js";
import { priceOf } from "./lookahead/vps-lookahead.js";
import { guardedChange, guardedOrder } from "./ordering/order-guard.js";
import { currentRun, type RunContext } from "./engine/run-context.js";
import {
  orderOutputs,
  refreshedInputs,
  type RecordedOutputs,
  type VpsOutputs,
} from "./inputs/vps-outputs.js";

// The check has its own file; its names are the lifecycle's too.
export { check, checkVps, presentFailure, previewRefusal, type CheckResult } from "./vps-check.js";

/** Runs one lifecycle step and presents whatever it throws as the one clean error. */
async function step<T>(context: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw presentError(error, context);
  }
}

const label = (values: VpsInputs | RecordedOutputs): string =>
  typeof values.domainName === "string" ? ` (${values.domainName})` : "";

// ----------------------------------------------------------------------------------------------- diff

/** What diffVps() found. */
export interface DiffResult {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** The planned change, input by input (absent for a pending create); effectsOf() says what it does. */
  planned?: VpsChanges;
  /** Its effects in words, and in a preview its price. */
  notes: Note[];
  /** A refresh's diff: each property found changed outside Pulumi (inputs and facts, service-drift.ts). */
  drifted?: string[];
}

/**
 * What a change does: replaces, or changes in place, and its effects. Never refuses: a change that will be
 * refused (disk shrink, reinstall without allowReinstall) is reported by check() and refused by update()
 * before anything is changed, so the user sees it once, without a stack. A refresh's diff (refresh-diff.ts:
 * the live order against the recorded inputs) plans nothing: its notes are the drift (vps-drift.ts), never the
 * effects or the price of a change.
 */
export async function diffVps(id: string, olds: RecordedOutputs, news: VpsInputs): Promise<DiffResult> {
  const run = currentRun(); // this call's run, handed down to what keeps the run's state
  const before = recordedState(olds, `Vps ${id}`);
  const after = setValues(news);
  // Both sides' keys: the outputs a read marked may lack the creationScope of the recorded inputs (refresh-diff.ts).
  const refresh = takeRefreshDiff(run, resourceKey(before), resourceKey(after));
  if (isPendingId(id) && before.orderOid === undefined) {
    // A create whose outcome was unknown: update() finds or places the order, unless what it orders changed.
    const replaces = REPLACE_FORCING_INPUTS.filter(
      (name) => !same(before[name] ?? null, after[name] ?? null),
    );
    return { changes: true, replaces: [...replaces], deleteBeforeReplace: false, notes: [] };
  }
  const changes = computeChanges(isPendingId(id) ? String(before.orderOid) : id, before, after);
  const name = resourceName(after);
  if (refresh) {
    const drift = refreshDrift(name, before, after, changes, secretKeys(news));
    return { ...drift, replaces: changes.replaces, deleteBeforeReplace: false, planned: changes };
  }
  // An order RimuHosting no longer has: never unchanged, never priced; one it will cancel: said (gone-order.ts).
  const standing =
    isPreview(news) && !isPendingId(id) && hasApiKey(run)
      ? await orderStanding(accountView(run, "Checking a Vps"), name, Number(id))
      : undefined;
  if (standing?.gone)
    return { changes: true, replaces: [], deleteBeforeReplace: false, notes: standing.notes };
  const notes = [...(standing?.notes ?? []), ...effectNotes(name, effectsOf(changes, after))];
  if (isPreview(news)) {
    const priced = await previewPrice(run, before, after, changes);
    if (priced) notes.push(priced);
  }
  return {
    changes: hasChanges(changes),
    replaces: changes.replaces,
    deleteBeforeReplace: false,
    planned: changes,
    notes,
  };
}

/** The price line of a replacement or a resize (each distinct quote asked once per run). */
async function previewPrice(
  run: RunContext,
  before: RecordedOutputs,
  after: VpsInputs,
  changes: VpsChanges,
): Promise<Note | undefined> {
  if (changes.replaces.length === 0 && changes.parameters.length === 0) return undefined;
  const quote = (inputs: QuotedValues) =>
    hasApiKey(run)
      ? priceOf({ view: accountView(run, "Quoting a Vps"), baseUrl: configuredBaseUrl(run) }, inputs)
      : Promise.resolve({ problem: "no API key is configured" });
  const resource = resourceKey(after);
  const name = resourceName(after);
  if (changes.replaces.length > 0)
    return info(replacementLine(run, resource, name, before, await quote(after)));
  const quoted = await quote({ ...pricedOf(before), ...pricedOf(after) });
  return info(resizeLine(run, resource, name, before, after, changes.parameters, quoted));
}

/** The dynamic provider's diff: diffVps(), with its notes shown on the resource. */
export async function diff(
  id: string,
  olds: RecordedOutputs,
  news: VpsInputs,
): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
  const run = currentRun(); // where this call's notes go: the run it serves
  const result = await diffVps(id, olds, news);
  await emitNotes(run, result.notes, previewUrnOf(news));
  return {
    changes: result.changes,
    replaces: result.replaces,
    deleteBeforeReplace: result.deleteBeforeReplace,
  };
}

// --------------------------------------------------------------------------------------------- create

/** `engine`: the native plugin's request (its timeout: engine/time-limits.ts); the dynamic host sends none. */
export async function create(
  inputs: VpsInputs,
  engine?: EngineRequest,
): Promise<{ id: string; outs: VpsOutputs }> {
  const news = setValues(inputs);
  const run = currentRun(); // this call's run, handed down to the guard as its context
  const limit = timeLimitOf("create", news.timeouts?.createMinutes, engine);
  const deadlineMs = Date.now() + limit.ms;
  return step(`Creating Vps${label(news)}`, () =>
    applying(run, news, "Creating a Vps", async () => {
      const client = clientFor(run, "Creating a Vps", limit);
      if (news.adoptOrderOid !== undefined) return adopt(run, client, news, inputs.__provider);
      return orderAndConverge(run, client, news, nonceOf(inputs), inputs.__provider, deadlineMs);
    }),
  );
}

/**
 * Runs a create or an update, then, whatever its outcome, tells the run's shared reads that it ran: what its
 * check claimed of hosts is given up, and those hosts' figures are read again when next needed (host-room.ts).
 * Before it runs, they learn that it started: a room check failing later in the run must not advise leaving it out.
 * One that fails fails the run: the orders it replaced are judged then (replaced-orders.ts).
 */
async function applying<T>(
  run: RunContext,
  news: VpsInputs,
  what: string,
  change: () => Promise<T>,
): Promise<T> {
  noteStartingEverywhere(run, resourceKey(news));
  let made = false;
  try {
    const result = await failingStep(run, resourceName(news), what, change);
    made = true;
    return result;
  } finally {
    noteAppliedEverywhere(run, resourceKey(news), made);
  }
}

async function orderAndConverge(
  run: RunContext,
  client: RimuClient,
  news: VpsInputs,
  nonce: string,
  provider: VpsInputs["__provider"],
  deadlineMs: number,
  /** The state records this resource as a create whose outcome was lost (orderOnce). */
  pendingOfThisState = false,
): Promise<{ id: string; outs: VpsOutputs }> {
  const view = accountView(run, "Creating a Vps");
  // The account this run's record names; its listing tells which of the stack's tags prove nothing (record-pruning.ts).
  noteOrderingOn(run, view);
  // Cancels an order another run's took past the budget, before any state holds it (order-withdrawal.ts).
  const withdraw = (placed: AboutOrder) => client.deleteVps(orderRef(placed.order_oid, placed.domain_name));
  const placeOrder = () => {
    // Before the POST: no other provider of this command takes this order for a killed run's (stack-strays.ts).
    view.sharedPlan?.noteOrdering(nonce);
    return orderOnce(run, client, news, nonce, provider, deadlineMs, pendingOfThisState);
  };
  const unread = readBackFailed(news, nonce, provider);
  // Judged against the budget: a new order, one found after its lost answer, or a killed run's taken back.
  const ordered = await guardedOrder(run, view, news, nonce, placeOrder, withdraw, unread, deadlineMs);
  const order = ordered.order;
  // The run's listing holds it now (the next token look-up sees it); other providers count it in a listing that
  // shows it, and as its plan's entry in one read before it (shared-plan.ts).
  view.notePlaced(order);
  view.sharedPlan?.made(resourceKey(news), order.order_oid);
  const id = String(order.order_oid);
  const password = news.password ?? ordered.password;
  const recorded = { ...news, __creationNonce: nonce, password };
  const said = ordered.found
    ? `Vps ${id}: found this stack's own order ${order.domain_name} (its response was lost, or a killed run left it); using it`
    : `Vps ${id}: ordered ${order.domain_name}`;
  if (password === undefined && ordered.found) {
    log(
      run,
      `Vps ${id}: the root password RimuHosting generated was in the lost response and is unknown. ` +
        `Set the password input with allowReinstall, or reset it in the control panel.`,
    );
  }
  return convergeNew({ run, client, view, live: order, recorded, news, what: "was created", provider, said });
}

/**
 * A new or adopted order brought to the inputs, then said in one line with its fee, its reverse DNS and its running
 * state (`said`: "Vps 123: ordered web1.example.com"; "…, billed $10.00 a month; its running state set to
 * NOTRUNNING."; a failed step's error says the order exists). `recorded` is what to record of the inputs; its PTR is
 * not set yet: without reverseDns in what converge() compares with, it sees it as a change.
 */
async function convergeNew(
  options: ConvergeOptions & { recorded: VpsInputs; said: string },
): Promise<{ id: string; outs: VpsOutputs }> {
  const { reverseDns: _unset, ...recordedBeforePtr } = options.recorded;
  const gathered: string[] = [];
  const result = await converge({ ...options, recorded: recordedBeforePtr, gathered });
  const id = String(result.order.order_oid);
  const billed = billedWords(orderFields(result.order).monthlyFeeUsd);
  log(options.run, `${[`${options.said}, ${billed}`, ...gathered].join("; ")}.`);
  const password = result.password ?? options.recorded.password;
  return { id, outs: orderOutputs(result.order, { ...options.recorded, password }, options.news) };
}

/** Takes over an existing order (adoptOrderOid): verify it, then bring it to the inputs like update(). */
async function adopt(
  run: RunContext,
  client: RimuClient,
  news: VpsInputs,
  provider: VpsInputs["__provider"],
): Promise<{ id: string; outs: VpsOutputs }> {
  const order = await orderToAdopt(client, news, Date.now());
  const id = String(order.order_oid);
  // Install-time options cannot be read back: they are recorded as given, not reinstalled.
  const view = accountView(run, "Creating a Vps");
  return guardedChange(run, view, { live: order, recorded: news, news }, "adopted", () =>
    convergeNew({
      run,
      client,
      view,
      live: order,
      recorded: news,
      news,
      what: "was adopted",
      provider,
      said: `Vps ${id}: adopted existing order ${order.domain_name}`,
    }),
  );
}

// ----------------------------------------------------------------------------------------------- read

export async function read(
  id: string,
  props?: RecordedOutputs,
  engine?: EngineRequest,
): Promise<{ id?: string; props?: RecordedOutputs; inputs?: VpsInputs }> {
  const run = currentRun(); // this call's run, handed down to what keeps the run's state
  const recorded = refreshableState(props);
  // The engine's next diff of this resource, unless its check comes first, is the refresh's (refresh-diff.ts).
  if (Object.keys(recorded).length > 0) noteRead(run, resourceKey(recorded));
  return step(`Refreshing Vps ${id}${label(recorded)}`, async () => {
    const client = clientFor(run, "Refreshing a Vps", readLimit(engine));
    const view = accountView(run, "Refreshing a Vps");
    const oid = await resolveOrderOid(run, view, id, recorded);
    // Not there yet: keep the pending record (its nonce is how the next `pulumi up` recognises the order).
    if (oid === undefined) return { id, props };
    // From the run's listing, one read for the fleet; its own GET only where the listing cannot answer (orderNow).
    const order = await orderNow(view, client, oid, recorded.domainName);
    if (order === null || isOrderGone(order, Date.now())) return goneRead(run, recorded, oid);
    // No recorded state: `pulumi import` (native provider). The inputs are then what the service reports.
    const imported = Object.keys(recorded).length === 0;
    const outs = orderOutputs(order, imported ? importedInputs(order) : recorded);
    // What changed that the program does not set (host, addresses): the refresh's diff shows it (service-drift.ts).
    const refreshed = withObservedChanges(outs, recorded);
    return { id: String(order.order_oid), props: refreshed, inputs: refreshedInputs(outs) };
  });
}

// --------------------------------------------------------------------------------------------- update

export async function update(
  id: string,
  olds: RecordedOutputs,
  inputs: VpsInputs,
  engine?: EngineRequest,
): Promise<{ outs: VpsOutputs }> {
  const news = setValues(inputs);
  const recorded = recordedState(olds, `Vps ${id}${label(news)}`);
  const run = currentRun();
  const limit = timeLimitOf("update", news.timeouts?.updateMinutes, engine);
  const deadlineMs = Date.now() + limit.ms;
  return step(`Updating Vps ${id}${label(news)}`, () =>
    applying(run, news, "Updating a Vps", async () => {
      const client = clientFor(run, "Updating a Vps", limit);
      const view = accountView(run, "Updating a Vps");
      const oid = await resolveOrderOid(run, view, id, recorded);
      if (oid === undefined) {
        // A pending create whose order has not appeared: order it now (same token and nonce), once.
        const nonce =
          typeof recorded.__creationNonce === "string" ? recorded.__creationNonce : nonceOf(inputs);
        return {
          outs: (await orderAndConverge(run, client, news, nonce, inputs.__provider, deadlineMs, true)).outs,
        };
      }
      // From the run's listing, one read for the fleet; its own GET only where the listing cannot answer (orderNow).
      const order = await orderNow(view, client, oid, recorded.domainName);
      if (order === null || isOrderGone(order, Date.now())) throw goneError(id);
      // What diff() planned, on the live order; a change made outside Pulumi stays (planned-update.ts).
      const { target: planned, leftAlone } = plannedUpdate(order, recorded, news);
      const target = { live: order, recorded, news: planned };
      const how = {
        run,
        client,
        view,
        what: "was being updated" as const,
        provider: inputs.__provider,
        leftAlone,
      };
      const result = await guardedChange(
        run,
        view,
        target,
        "changed",
        () => converge({ ...target, ...how }),
        deadlineMs,
      );
      const password = result.password ?? news.password ?? recorded.password;
      const nonce = recorded.__creationNonce ?? news.__creationNonce;
      const outs = orderOutputs(result.order, { ...news, __creationNonce: nonce, password }, news);
      return { outs: keepingRecorded(outs, recorded, leftAlone) };
    }),
  );
}

// --------------------------------------------------------------------------------------------- delete

export async function deleteVps(id: string, props: RecordedOutputs, engine?: EngineRequest): Promise<void> {
  const recorded = recordedState(props, `Vps ${id}`);
  const run = currentRun();
  // Registered before anything awaits: a sweep names a stray as left billed only once this delete ended.
  const deleting = deleteStep(run, id, recorded, engine);
  noteDeleting(run, id, deleting);
  await deleting;
}

async function deleteStep(
  run: RunContext,
  id: string,
  recorded: RecordedOutputs,
  engine: EngineRequest | undefined,
): Promise<void> {
  await step(`Deleting Vps ${id}${label(recorded)}`, async () => {
    const client = clientFor(
      run,
      "Deleting a Vps",
      timeLimitOf("delete", recorded.timeouts?.deleteMinutes, engine),
    );
    // Read now, not from the run's listing: an order that appeared since must be cancelled, not left billed.
    const view = accountView(run, "Deleting a Vps");
    await failingStep(run, resourceName(recorded), "Deleting a Vps", async () => {
      const oid = await resolveOrderOid(run, view, id, recorded, true);
      // A destroy also cancels the orders a killed run of the stack left in no state (stack-strays.ts), judged
      // before this VPS is cancelled: a delete that fails keeps its VPS in the state, so it fails with that VPS billed.
      await sweepStackStrays(run, view, client, recorded.creationScope, {
        oid,
        words: `Vps ${id}${label(recorded)}`,
      });
      if (oid === undefined)
        log(run, `Vps ${id}: no order carrying this stack's creation nonce exists; nothing to cancel.`);
      else await cancelRecorded(run, view, client, oid, recorded);
    });
  });
}
