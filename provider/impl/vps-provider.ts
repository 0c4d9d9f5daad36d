/**
 * The Vps resource's lifecycle: check, diff, create, read, update, delete. Called by the thin shim
 * (../vps-shim.ts) inside the dynamic-provider host; every function works on plain property bags.
 *
 * Reading order for one field, e.g. memoryMb: its row in vps-fields.ts says everything the code below
 * asks of it (a `parameters` input, reported by the service, sent as given at vps_parameters.memory_mb).
 * check() runs its validator (vps-inputs.ts), the catalogue (catalog.ts) and the one refusal rule
 * (changeRefusals: reinstall consent, grow-only), and returns secret inputs wrapped; diff() asks
 * computeChanges() (vps-changes.ts) what its change kind does; create() orders it (vps-create.ts, the
 * request from toWire() in vps-requests.ts); update() converges (vps-converge.ts: the same refusal rule
 * before the first call, then resize, move, reinstall, reverse DNS, running state); read() maps the order
 * back (orderFields() in vps-outputs.ts). Every error a user sees leaves here as one VpsError (errors.ts).
 */
import type { AboutOrder } from "../../contract/index.js";
import { CREATION_TOKEN_KEY, RimuNotFoundError, type RimuClient } from "../client/index.js";
import { catalogFindings, catalogFor } from "./catalog.js";
import { creationNonceOf, creationTokenFor, newCreationNonce, noteTokenLookup } from "./creation-token.js";
import { VPS_ERROR_CODES, VpsError, presentError } from "./errors.js";
import { log } from "./log.js";
import { clientFor, configuredBaseUrl, hasApiKey } from "./runtime-config.js";
import { containsUnknown } from "./unknowns.js";
import { computeChanges, hasChanges, REPLACE_FORCING_INPUTS } from "./vps-changes.js";
import { converge, orderRef } from "./vps-converge.js";
import {
  adoptionProblem,
  findPendingOrder,
  foreignOrder,
  isPendingId,
  nonceOf,
  orderOnce,
  orderToAdopt,
} from "./vps-create.js";
import { REPORTED_FIELDS, SECRET_FIELDS } from "./vps-fields.js";
import {
  quietFailure,
  setValues,
  transitionFailures,
  unknownKeyFailures,
  validateInputs,
  type CheckFailure,
  type VpsInputs,
} from "./vps-inputs.js";
import { isOrderGone, orderFields, orderOutputs, refreshedInputs, type VpsOutputs } from "./vps-outputs.js";
import { minutesToMs } from "./vps-requests.js";
import { asSecret } from "./secret-values.js";
import {
  deleteBillLine,
  feeLine,
  isPreview,
  previewCreatePrice,
  previewReplacePrice,
  previewResizePrice,
} from "./money.js";

type Bag = Record<string, unknown>;

/** The order oid of a resource id ("1234567"), or of a pending resource's recorded order. */
function orderOidOf(id: string, props: Bag = {}): number | undefined {
  if (isPendingId(id)) return typeof props.orderOid === "number" ? props.orderOid : undefined;
  const oid = Number(id);
  if (!Number.isSafeInteger(oid) || oid <= 0) {
    throw new VpsError(
      VPS_ERROR_CODES.invalidInput,
      `"${id}" is not a RimuHosting order oid: a Vps id is the order's number, e.g. "1234567".`,
    );
  }
  return oid;
}

/**
 * The order of a resource id: the oid itself, or for a pending create the recorded order or this
 * state's order found by token and nonce (undefined while it has not appeared).
 */
async function resolveOrderOid(client: RimuClient, id: string, recorded: Bag): Promise<number | undefined> {
  const oid = orderOidOf(id, recorded);
  if (oid !== undefined || !isPendingId(id)) return oid;
  const pending = await findPendingOrder(client, recorded);
  if (pending) log(`Vps ${id}: found this stack's own order ${pending.order_oid} (${pending.domain_name}).`);
  return pending?.order_oid;
}

/** Runs one lifecycle step and presents whatever it throws as the one clean error. */
async function step<T>(context: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw presentError(error, context);
  }
}

const label = (inputs: Bag): string =>
  typeof inputs.domainName === "string" ? ` (${inputs.domainName})` : "";

// ---------------------------------------------------------------------------------------------- check

/**
 * Validates the inputs (every failure names the input and says how to fix it), keeps this state's
 * creation nonce (or makes one for a new resource), wraps secret inputs as secrets, and, where it can
 * know without changing anything, looks ahead: the catalogue (plan, data centre, distro), the API key,
 * the order to adopt, and an order of another state carrying this resource's creation token.
 * Never throws: problems are failures, which the engine shows per input without a stack.
 */
export async function check(olds: Bag, news: Bag): Promise<{ inputs: Bag; failures?: CheckFailure[] }> {
  try {
    return await checkInputs(olds, news);
  } catch (error) {
    // Never a stack from check: whatever went wrong is one failure the engine prints cleanly.
    return {
      inputs: news,
      failures: [{ property: "", reason: presentError(error, "Checking Vps").message }],
    };
  }
}

async function checkInputs(olds: Bag, news: Bag): Promise<{ inputs: Bag; failures?: CheckFailure[] }> {
  const before = setValues(olds ?? {});
  const nonce =
    typeof before.__creationNonce === "string"
      ? before.__creationNonce
      : (news.__creationNonce ?? newCreationNonce());
  const inputs: Bag = { ...news, __creationNonce: nonce };
  for (const name of SECRET_FIELDS) {
    if (inputs[name] !== undefined && inputs[name] !== null && !containsUnknown(inputs[name]))
      inputs[name] = asSecret(inputs[name]);
  }
  const failures = [
    ...unknownKeyFailures(news),
    ...validateInputs(setValues(news)),
    ...transitionFailures(before, setValues(news)),
  ];
  if (failures.length === 0) failures.push(...(await lookAhead(before, setValues(inputs))));
  // A new VPS in a preview: its quoted price (diff() quotes changes of an existing one).
  if (failures.length === 0 && Object.keys(before).length === 0 && isPreview(news))
    await previewCreatePrice(quoteClient(), setValues(inputs));
  const quiet = failures.map((failure) => quietFailure(failure, setValues(news)));
  return quiet.length > 0 ? { inputs, failures: quiet } : { inputs };
}

/** The read-only checks of check(): catalogue, API key, adoption, another state's order. */
async function lookAhead(before: Bag, after: Bag): Promise<CheckFailure[]> {
  if (!hasApiKey()) {
    return [{ property: "", reason: presentError(safeClient("Previewing a Vps"), "Vps").message }];
  }
  const client = clientFor("Previewing a Vps");
  const isNew = Object.keys(before).length === 0;
  const changed = (name: string) => isNew || JSON.stringify(before[name]) !== JSON.stringify(after[name]);
  const failures: CheckFailure[] = [];
  const catalog = await catalogFor(client, configuredBaseUrl());
  const known = Object.fromEntries(Object.entries(after).filter(([, value]) => !containsUnknown(value)));
  const findings = catalogFindings(catalog, known, changed);
  failures.push(...findings.failures);
  for (const warning of findings.warnings) log(`Vps${label(after)}: ${warning}`);
  if (failures.length > 0) return failures;
  if (typeof known.adoptOrderOid === "number" && changed("adoptOrderOid")) {
    failures.push(...(await previewAdoption(client, known as VpsInputs)));
  } else if (typeof known.creationScope === "string" && !containsUnknownIn(after, REPLACE_FORCING_INPUTS)) {
    const foreign = await previewForeignOrder(client, known as VpsInputs, isNew);
    // A new resource must not take another state's order; an existing one is only told about a stray
    // order (a lost create of a killed run that appeared late is billed and no state knows it).
    if (isNew) failures.push(...foreign);
    else for (const stray of foreign) log(`Vps${label(after)}: warning: ${stray.reason}`);
  }
  return failures;
}

function containsUnknownIn(bag: Bag, names: readonly string[]): boolean {
  return names.some((name) => containsUnknown(bag[name]));
}

/** The client for a quote, or undefined without an API key (the quote line then says so). */
function quoteClient(): RimuClient | undefined {
  return hasApiKey() ? clientFor("Quoting a Vps") : undefined;
}

/** The missing-key error as a value (clientFor throws it). */
function safeClient(what: string): unknown {
  try {
    clientFor(what);
    return undefined;
  } catch (error) {
    return error;
  }
}

async function previewAdoption(client: RimuClient, news: VpsInputs): Promise<CheckFailure[]> {
  const oid = news.adoptOrderOid as number;
  const order = await client.getOrder(oid).then(
    (response) => response.about_order,
    (error: unknown) => (error instanceof RimuNotFoundError ? null : undefined),
  );
  if (order === null) {
    return [
      {
        property: "adoptOrderOid",
        reason: `order ${oid} does not exist on this account; list your orders with getOrders() and use one of their orderOid values`,
      },
    ];
  }
  if (order === undefined) return []; // could not look: create() checks again
  const problem = adoptionProblem(order, news, Date.now());
  if (problem) return [{ property: "adoptOrderOid", reason: problem.replace(/^adoptOrderOid: /, "") }];
  log(
    `Vps${label(news)}: will adopt existing order ${oid} (${order.domain_name}, ${order.running_state ?? "state unknown"}) ` +
      `instead of ordering a new VPS.`,
  );
  return [];
}

/**
 * The orders of another state carrying this resource's creation token. `nonceIsNew`: the resource has no state
 * yet, so this check() just made its nonce; only then may create() rely on this lookup and skip its own
 * (noteTokenLookup).
 */
async function previewForeignOrder(
  client: RimuClient,
  news: VpsInputs,
  nonceIsNew: boolean,
): Promise<CheckFailure[]> {
  const token = creationTokenFor(news);
  const nonce = news.__creationNonce;
  let listed: AboutOrder[];
  try {
    listed =
      (await client.listOrders({ metaSearch: { [CREATION_TOKEN_KEY]: token }, includeInactive: false }))
        .about_orders ?? [];
  } catch {
    return []; // could not look: create() looks again
  }
  const carrying = listed.filter((order) =>
    order.meta_data?.some((m) => m.key_name === CREATION_TOKEN_KEY && m.value === token),
  );
  // The latest lookup counts: any other finding clears what an earlier check() noted.
  if (typeof nonce === "string") noteTokenLookup(token, nonce, nonceIsNew && carrying.length === 0);
  return carrying
    .filter((order) => creationNonceOf(order) !== nonce)
    .slice(0, 1)
    .map((order) => ({ property: "", reason: foreignOrder(order, news, token).message }));
}

// ----------------------------------------------------------------------------------------------- diff

/**
 * What a change does: replaces, or changes in place. Never throws: a change that will be refused
 * (disk shrink, reinstall without allowReinstall) is reported by check() and refused by update()
 * before anything is changed, so the user sees it once, without a stack.
 */
export async function diff(
  id: string,
  olds: Bag,
  news: Bag,
): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
  const before = setValues(olds);
  const after = setValues(news);
  if (isPendingId(id) && before.orderOid === undefined) {
    // A create whose outcome was unknown: update() finds or places the order, unless what it orders changed.
    const replaces = REPLACE_FORCING_INPUTS.filter(
      (name) => JSON.stringify(before[name] ?? null) !== JSON.stringify(after[name] ?? null),
    );
    return { changes: true, replaces: [...replaces], deleteBeforeReplace: false };
  }
  const changes = computeChanges(isPendingId(id) ? String(before.orderOid) : id, before, after);
  if (isPreview(news)) {
    if (changes.replaces.length > 0) await previewReplacePrice(quoteClient(), before, after);
    else if (changes.parameters.length > 0)
      await previewResizePrice(quoteClient(), before, after, changes.parameters);
  }
  for (const field of changes.orderOnly) {
    log(
      `Vps ${id}: ${field} is used only when ordering and the API cannot change it on an existing order; ` +
        `the change is recorded in the inputs but not applied (the outputs show the order's value).`,
    );
  }
  return { changes: hasChanges(changes), replaces: changes.replaces, deleteBeforeReplace: false };
}

// --------------------------------------------------------------------------------------------- create

export async function create(inputs: Bag): Promise<{ id: string; outs: VpsOutputs }> {
  const news = setValues(inputs) as VpsInputs;
  return step(`Creating Vps${label(news)}`, async () => {
    const client = clientFor("Creating a Vps", minutesToMs(news.timeouts?.createMinutes));
    if (news.adoptOrderOid !== undefined) return adopt(client, news, inputs.__provider);
    return orderAndConverge(client, news, nonceOf(inputs), inputs.__provider);
  });
}

async function orderAndConverge(
  client: RimuClient,
  news: VpsInputs,
  nonce: string,
  provider: unknown,
): Promise<{ id: string; outs: VpsOutputs }> {
  const ordered = await orderOnce(client, news, nonce, provider);
  const order = ordered.order;
  const id = String(order.order_oid);
  const password = news.password ?? ordered.password;
  const recorded = { ...news, __creationNonce: nonce, password };
  log(
    ordered.found
      ? `Vps ${id}: found this stack's own order ${order.domain_name} (its response was lost earlier); using it.`
      : `Vps ${id}: ordered ${order.domain_name}.`,
  );
  if (password === undefined && ordered.found) {
    log(
      `Vps ${id}: the root password RimuHosting generated was in the lost response and is unknown. ` +
        `Set the password input with allowReinstall, or reset it in the control panel.`,
    );
  }
  // The PTR is not set yet: without reverseDns in what is recorded, converge() sees it as a change.
  const { reverseDns: _unset, ...recordedBeforePtr } = recorded;
  const result = await converge(client, order, recordedBeforePtr, news, "was created", provider);
  log(feeLine(id, orderFields(result.order).monthlyFeeUsd));
  return {
    id,
    outs: orderOutputs(result.order, { ...recorded, password: result.password ?? password }, news),
  };
}

/** Takes over an existing order (adoptOrderOid): verify it, then bring it to the inputs like update(). */
async function adopt(
  client: RimuClient,
  news: VpsInputs,
  provider: unknown,
): Promise<{ id: string; outs: VpsOutputs }> {
  const order = await orderToAdopt(client, news, Date.now());
  const id = String(order.order_oid);
  log(`Vps ${id}: adopting existing order ${order.domain_name}.`);
  // Install-time options cannot be read back: they are recorded as given, not reinstalled.
  const { reverseDns: _unset, ...recordedBeforePtr } = news;
  const result = await converge(client, order, recordedBeforePtr, news, "was adopted", provider);
  log(feeLine(id, orderFields(result.order).monthlyFeeUsd));
  return {
    id,
    outs: orderOutputs(result.order, { ...news, password: result.password ?? news.password }, news),
  };
}

// ----------------------------------------------------------------------------------------------- read

export async function read(
  id: string,
  props?: Bag,
): Promise<{ id?: string; props?: VpsOutputs; inputs?: Bag }> {
  const recorded = setValues(props ?? {});
  return step(`Refreshing Vps ${id}${label(recorded)}`, async () => {
    const client = clientFor("Refreshing a Vps");
    const oid = await resolveOrderOid(client, id, recorded);
    // Not there yet: keep the pending record (its nonce is how the next `pulumi up` recognises the order).
    if (oid === undefined) return { id, props: props as unknown as VpsOutputs };
    let order: AboutOrder;
    try {
      order = (await client.getOrder(orderRef(oid, recorded.domainName))).about_order;
    } catch (error) {
      if (error instanceof RimuNotFoundError) return {};
      throw error;
    }
    if (isOrderGone(order, Date.now())) return {};
    // No recorded state: `pulumi import` (native provider). The inputs are then what the service reports.
    const imported = Object.keys(recorded).length === 0;
    const outs = orderOutputs(order, imported ? importedInputs(order) : recorded);
    return { id: String(order.order_oid), props: outs, inputs: refreshedInputs(outs) };
  });
}

/**
 * The inputs of an order read with no recorded state (`pulumi import`): every input the service reports,
 * so the engine records real inputs (and prints them as the code to paste) and the next preview shows no
 * change; and the order's creation nonce, so this state owns the order from now on (check() would
 * otherwise take it for another state's order when it still carries its creation token).
 */
function importedInputs(order: AboutOrder): Bag {
  const fields: Bag = orderFields(order);
  const inputs: Bag = Object.fromEntries(
    REPORTED_FIELDS.filter((name) => fields[name] !== undefined && fields[name] !== null).map((name) => [
      name,
      fields[name],
    ]),
  );
  if (inputs.runningState !== "RUNNING" && inputs.runningState !== "NOTRUNNING") delete inputs.runningState;
  if (Object.keys(inputs.metaData ?? {}).length === 0) delete inputs.metaData;
  const nonce = creationNonceOf(order);
  if (nonce !== undefined) inputs.__creationNonce = nonce;
  return inputs;
}

// --------------------------------------------------------------------------------------------- update

export async function update(id: string, olds: Bag, inputs: Bag): Promise<{ outs: VpsOutputs }> {
  const news = setValues(inputs) as VpsInputs;
  const recorded = setValues(olds);
  return step(`Updating Vps ${id}${label(news)}`, async () => {
    const client = clientFor("Updating a Vps", minutesToMs(news.timeouts?.updateMinutes));
    const oid = await resolveOrderOid(client, id, recorded);
    if (oid === undefined) {
      // A pending create whose order has not appeared: order it now (same token and nonce), once.
      const nonce = typeof recorded.__creationNonce === "string" ? recorded.__creationNonce : nonceOf(inputs);
      return { outs: (await orderAndConverge(client, news, nonce, inputs.__provider)).outs };
    }
    let order: AboutOrder;
    try {
      order = (await client.getOrder(orderRef(oid, recorded.domainName))).about_order;
    } catch (error) {
      if (error instanceof RimuNotFoundError) throw goneError(id);
      throw error;
    }
    if (isOrderGone(order, Date.now())) throw goneError(id);
    // Compare with the live order, not the old outputs: this is also how a failed create or update resumes.
    const result = await converge(client, order, recorded, news, "was being updated", inputs.__provider);
    const password = result.password ?? news.password ?? (recorded.password as string | undefined);
    return {
      outs: orderOutputs(
        result.order,
        { ...news, __creationNonce: recorded.__creationNonce ?? news.__creationNonce, password },
        news,
      ),
    };
  });
}

function goneError(id: string): VpsError {
  return new VpsError(
    VPS_ERROR_CODES.orderGone,
    `VPS order ${id} no longer exists or was cancelled outside Pulumi.`,
  );
}

// --------------------------------------------------------------------------------------------- delete

export async function deleteVps(id: string, props: Bag): Promise<void> {
  const recorded = setValues(props ?? {}) as VpsInputs & Bag;
  await step(`Deleting Vps ${id}${label(recorded)}`, async () => {
    const client = clientFor("Deleting a Vps", minutesToMs(recorded.timeouts?.deleteMinutes));
    const oid = await resolveOrderOid(client, id, recorded);
    if (oid === undefined) {
      log(`Vps ${id}: no order carrying this stack's creation nonce exists; nothing to cancel.`);
      return;
    }
    const ref = orderRef(oid, recorded.domainName);
    try {
      const deleted = await client.deleteVps(ref);
      log(`Vps ${oid}: shut down and cancelled.`);
      log(deleteBillLine(String(oid), deleted.cancel_messages ?? [], recorded.monthlyFeeUsd));
    } catch (error) {
      // Already gone counts as deleted: the engine keeps the resource if delete throws. A delete whose
      // answer was lost (timeout, dropped connection) or refused because it is already cancelled is
      // settled by reading the order.
      if (error instanceof RimuNotFoundError) return;
      const order = await client.getOrder(ref).then(
        (response) => response.about_order,
        (readError: unknown) => (readError instanceof RimuNotFoundError ? null : undefined),
      );
      if (order === null || (order && isOrderGone(order, Date.now()))) return;
      throw error;
    }
  });
}
