/**
 * The checks of check() that ask RimuHosting, read-only, so that a preview fails wherever `pulumi up` would
 * fail for a reason known before its first change: the API key and address, the catalogue, the billing
 * method, the order to adopt, another state's order carrying this resource's creation token, the host to run
 * on (it exists, is in the VPS's data centre, has room) and room for a resize. Every read is a shared one
 * (account-view.ts): a preview of N existing VPSs reads the account's orders once, not N times.
 *
 * A read that fails for a temporary reason (read-failures.ts) skips its check with a warning naming it; a
 * wrong key or address fails the preview. What only a preview does (quotes, a host's free memory) is
 * marked below; `pulumi up` (no preview flag) makes only the shared reads.
 */
import type { AboutOrder, HostServerInfo } from "../../contract/index.js";
import {
  RIMU_ERROR_CODES,
  RimuConflictError,
  RimuError,
  RimuNotFoundError,
  carriesCreationToken,
} from "../client/index.js";
import type { AccountView } from "./account-view.js";
import { catalogFindings, catalogFor } from "./catalog.js";
import { same } from "./canonical-json.js";
import { creationNonceOf, creationTokenFor, noteTokenLookup } from "./creation-token.js";
import {
  claimNames,
  needWords,
  shortOf,
  sumOf,
  sumRefusal,
  type HostFree,
  type HostNeed,
} from "./host-room.js";
import { VPS_ERROR_CODES, presentError, serviceText, type ErrorCode, type VpsError } from "./errors.js";
import {
  PRICED_INPUTS,
  adoptionLine,
  amountMoney,
  newVpsLine,
  pricedOf,
  quoteRequest,
  takeReplacementPriced,
  type Quoted,
  type QuotedValues,
} from "./money.js";
import { info, resourceKey, resourceName, warning, type Note } from "./notes.js";
import { MOVE_CHANGES_OUTPUTS } from "./vps-effects.js";
import { readFailure } from "./read-failures.js";
import { accountView, clientFor, configuredBaseUrl, hasApiKey } from "./runtime-config.js";
import { containsUnknown, knownValues } from "./unknowns.js";
import { REPLACE_FORCING_INPUTS } from "./vps-changes.js";
import { orderRef } from "./vps-converge.js";
import { adoptionProblem, foreignOrder } from "./vps-create.js";
import type { CheckFailure } from "./check-failure.js";
import type { VpsInputs } from "./vps-input-schema.js";
import type { VpsInputName } from "./vps-fields.js";
import { changeRefusals } from "./vps-refusals.js";
import { orderFields } from "../wire-mapping/order-fields.js";
import { plannedFeeOf, type FeeSources, type PlannedFee } from "./planned-fee.js";

/** What the look-ahead found: failures (the preview fails), notes (warnings, prices) and the outputs a move changes. */
export interface LookAhead {
  failures: CheckFailure[];
  notes: Note[];
  /** Outputs a planned move changes: check() returns them unknown in a preview, so dependents show a change. */
  unknownOutputs: string[];
  /** The fee once this run's change is applied (planned-fee.ts); absent when a check failed. */
  fee?: PlannedFee;
}

/** One check()'s view of the resource. */
interface Run {
  view: AccountView;
  baseUrl: string;
  /** Old inputs (empty for a new resource). */
  before: VpsInputs;
  /** New inputs, as given (unknowns included). */
  after: VpsInputs;
  /** New inputs whose values are known. */
  known: VpsInputs;
  isNew: boolean;
  preview: boolean;
  /** The account's active orders (the shared listing), when it could be read: which of its VPSs are on which host. */
  orders?: readonly AboutOrder[];
  name: string;
  resource: string;
  out: LookAhead;
  /** What the checks found that the planned fee depends on (planned-fee.ts). */
  fee: Pick<FeeSources, "adopted" | "orderAnswer" | "moveAnswer">;
}

/** Stops the look-ahead: a wrong key or address makes every later check meaningless. */
class Stop extends Error {}

export async function lookAhead(before: VpsInputs, after: VpsInputs, preview: boolean): Promise<LookAhead> {
  const out: LookAhead = { failures: [], notes: [], unknownOutputs: [] };
  if (!hasApiKey()) {
    out.failures.push(failureOf(presentError(missingKey(), "Checking a Vps")));
    return out;
  }
  const run: Run = {
    view: accountView("Checking a Vps"),
    baseUrl: configuredBaseUrl(),
    before,
    after,
    known: knownValues(after),
    isNew: Object.keys(before).length === 0,
    preview,
    name: resourceName(after),
    resource: resourceKey(after),
    out,
    fee: {},
  };
  try {
    await checkAll(run);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  return out;
}

async function checkAll(run: Run): Promise<void> {
  const orders = await shared(run, "looking for another stack's order of this resource", () =>
    run.view.activeOrders(),
  );
  run.orders = orders;
  await checkCatalogue(run);
  if (run.out.failures.length > 0) return;
  await checkBillingMethod(run);
  const adopting = typeof run.known.adoptOrderOid === "number" && changed(run, "adoptOrderOid");
  if (adopting) await checkAdoption(run);
  else if (orders) checkCreationToken(run, orders);
  const live = orders ? liveOrderOf(run, orders) : undefined;
  if (live) checkDistroOfLive(run, live);
  if (run.preview) await checkUnlistedDistro(run, live);
  await checkHost(run, orders, live);
  if (run.preview && live && !run.isNew) await checkResizeRoom(run, live);
  if (run.preview && run.isNew && !adopting) await checkNewOrder(run);
  if (run.out.failures.length === 0) run.out.fee = await plannedFeeOf({ ...run, ...run.fee, live });
}

const changed = (run: Run, name: VpsInputName): boolean =>
  run.isNew || !same(run.before[name], run.after[name]);

/**
 * One shared read. A wrong key or address fails the preview (and stops the look-ahead); a temporary fault
 * skips what needed it, with a warning saying which check did not run.
 */
async function shared<T>(run: Run, check: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    couldNotRead(run, check, error);
    return undefined;
  }
}

/**
 * What a failed read means for `check`: wrong settings or a refusal fail the preview (Stop); anything else (a 5xx,
 * a timeout) becomes a warning that names the check that did not run.
 */
function couldNotRead(run: Run, check: string, error: unknown): void {
  const failure = readFailure(error, run.baseUrl);
  if (failure.kind === "settings") {
    run.out.failures.push(failureOf(failure.error));
    throw new Stop();
  }
  if (failure.kind === "refused") {
    run.out.failures.push(failureOf(presentError(failure.error, "")));
    throw new Stop();
  }
  const code = error instanceof RimuError ? error.code : RIMU_ERROR_CODES.RimuTransientError;
  run.out.notes.push(
    warning(
      `[${code}] ${run.name}: ${check} did not run: ${failure.why}. \`pulumi up\` finds out when it gets there.`,
    ),
  );
}

// ----------------------------------------------------------------------------------------- catalogue

async function checkCatalogue(run: Run): Promise<void> {
  const names = ["distro", "pricingPlanCode", "dcLocation"] as const;
  if (!names.some((name) => run.known[name] !== undefined && changed(run, name))) return;
  const catalog = await catalogFor(run.view.client, run.baseUrl);
  if (catalog.unread !== undefined)
    couldNotRead(
      run,
      "checking distro, pricingPlanCode and dcLocation against RimuHosting's catalogue",
      catalog.unread,
    );
  const findings = catalogFindings(catalog, run.known, (name) => changed(run, name));
  run.out.failures.push(...findings.failures);
  for (const text of findings.warnings) run.out.notes.push(warning(`${run.name}: ${text}`));
}

/**
 * A distro the catalogue does not list, for a reinstall of an existing VPS (preview): older codes are still
 * installed, a typo is not, and only RimuHosting knows which. Its quote judges the distribution the way an order
 * would (docs/rimuhosting-api.md §8.2), so a quote of this VPS (its sizes, data centre and the new distro) asks it.
 * Only a refusal naming distro counts: anything else the quote says (room in the data centre for a whole new VPS)
 * is no answer about the reinstall. A new VPS needs none of this: its own quote (checkNewOrder) names the distro.
 */
async function checkUnlistedDistro(run: Run, live: AboutOrder | undefined): Promise<void> {
  const distro = run.known.distro;
  if (run.isNew || typeof distro !== "string" || !changed(run, "distro")) return;
  if (live?.distro === distro) return;
  const catalog = await catalogFor(run.view.client, run.baseUrl);
  if (!catalog.distros || catalog.distros.has(distro)) return;
  const sizes = { ...(live ? pricedOf(orderFields(live)) : {}), ...pricedOf(run.known) };
  const request = quoteRequest({ ...sizes, distro }, true);
  try {
    await run.view.quote(request);
  } catch (error) {
    const failure = readFailure(error, run.baseUrl);
    if (failure.kind !== "refused") return; // the reinstall finds out first: it runs before any other step
    if (serviceFailure(failure.error).property !== "distro") return;
    const installed = live?.distro ?? run.before.distro;
    run.out.failures.push({
      property: "distro",
      reason:
        `RimuHosting does not install ${distro}, so the reinstall would be refused: use one of ` +
        `${[...catalog.distros].join(", ")} (see getDistributions())` +
        (typeof installed === "string" ? `, or put distro back to ${installed}` : ""),
    });
  }
}

// ------------------------------------------------------------------------------------ billing method

async function checkBillingMethod(run: Run): Promise<void> {
  const oid = run.known.billingOid;
  if (typeof oid !== "number" || !changed(run, "billingOid")) return;
  const methods = await shared(run, "checking billingOid against your billing methods", () =>
    run.view.billingMethods(),
  );
  if (!methods || methods.some((method) => method.billing_oid === oid)) return;
  const listed = methods.map((m) => `${m.billing_oid}${m.description ? ` (${m.description})` : ""}`);
  run.out.failures.push({
    property: "billingOid",
    reason:
      `${oid} is not one of this account's billing methods` +
      (listed.length > 0 ? `: use one of ${listed.join(", ")}` : ": the account has none") +
      ` (getBillingMethods() lists them), or leave billingOid out to let RimuHosting pick`,
  });
}

// ---------------------------------------------------------------------------------------- adoption

async function checkAdoption(run: Run): Promise<void> {
  const oid = run.known.adoptOrderOid as number;
  const order = await shared(run, `reading order ${oid} to adopt`, () =>
    run.view.client.getOrder(oid).then(
      (response): AboutOrder | null => response.about_order,
      (error: unknown) => (error instanceof RimuNotFoundError ? null : Promise.reject(error)),
    ),
  );
  if (order === undefined) return; // could not look: create() checks again
  if (order === null) {
    run.out.failures.push({
      property: "adoptOrderOid",
      code: VPS_ERROR_CODES.adoption,
      reason: `order ${oid} does not exist on this account; list your orders with getOrders() and use one of their orderOid values`,
    });
    return;
  }
  const problem = adoptionProblem(order, run.known, Date.now());
  if (problem) {
    run.out.failures.push({
      property: "adoptOrderOid",
      code: VPS_ERROR_CODES.adoption,
      reason: problem.replace(/^adoptOrderOid: /, ""),
    });
    return;
  }
  run.out.notes.push(
    info(
      `${run.name}: will adopt existing order ${oid} (${order.domain_name}, ${order.running_state ?? "state unknown"}) ` +
        `instead of ordering a new VPS.`,
    ),
  );
  if (!run.preview) return;
  // What the bill will be once the order is changed to match the program: its fee now, and the quote for
  // the program's sizes over the order's.
  const fields = orderFields(order);
  const after = { ...pricedOf(fields), ...pricedOf(run.known), dcLocation: fields.dcLocation };
  const quoted = await priceOf(run, after);
  run.fee.adopted = { order, quoted };
  const now =
    typeof fields.monthlyFeeUsd === "number" ? { amount: fields.monthlyFeeUsd, currency: "USD" } : undefined;
  run.out.notes.push(info(adoptionLine(run.resource, run.name, oid, now, quoted)));
}

// ----------------------------------------------------------------------------------- creation token

/**
 * The orders of another state carrying this resource's creation token: a new resource must not take another
 * state's order (the preview fails); an existing one is told about a stray order (a lost create of a killed
 * run that appeared late is billed and no state knows it).
 */
function checkCreationToken(run: Run, orders: readonly AboutOrder[]): void {
  if (typeof run.known.creationScope !== "string") return;
  if (REPLACE_FORCING_INPUTS.some((name) => containsUnknown(run.after[name]))) return;
  const token = creationTokenFor(run.known);
  const nonce = run.known.__creationNonce;
  const carrying = orders.filter((order) => carriesCreationToken(order, token));
  const others = carrying.filter((order) => creationNonceOf(order) !== nonce);
  // Only a nonce this check() made may let create() skip its own look-up (creation-token.ts, noteTokenLookup).
  if (typeof nonce === "string") noteTokenLookup(token, nonce, run.isNew && carrying.length === 0);
  const first = others[0];
  if (!first) return;
  const error = foreignOrder(first, run.known, token);
  if (run.isNew) run.out.failures.push(failureOf(error));
  else run.out.notes.push(warning(`[${error.code}] ${run.name}: ${error.detail}`));
}

/** The live order of an existing resource: the one carrying its nonce, or the one it adopted. */
function liveOrderOf(run: Run, orders: readonly AboutOrder[]): AboutOrder | undefined {
  if (run.isNew) return undefined;
  const nonce = run.before.__creationNonce;
  const adopted = run.before.adoptOrderOid;
  return (
    (typeof nonce === "string" ? orders.find((order) => creationNonceOf(order) === nonce) : undefined) ??
    (typeof adopted === "number" ? orders.find((order) => order.order_oid === adopted) : undefined)
  );
}

/**
 * A distro set now where none was set before: the VPS has the one RimuHosting installed, which the live order
 * reports. Another one means a reinstall (update() compares with the live order), refused without
 * allowReinstall by the same rule as any reinstall (changeRefusals).
 */
function checkDistroOfLive(run: Run, live: AboutOrder): void {
  const wanted = run.known.distro;
  if (typeof wanted !== "string" || run.before.distro !== undefined || !live.distro || live.distro === wanted)
    return;
  run.out.failures.push(...changeRefusals({ distro: live.distro }, run.after, ["distro"]));
}

// -------------------------------------------------------------------------------------------- hosts

/**
 * hostServerOid, new or changed: the host must be in the VPS's data centre (a move across data centres would
 * make dcLocation differ from the program, and the next update would replace the VPS), exist and have room.
 * The account's orders say which data centre each host it uses is in; for a move, a quote naming the host
 * (R16 judges it as an order would, docs/rimuhosting-api.md §8.2) says the rest. A new VPS's host is judged
 * by its preview quote (checkNewOrder).
 */
async function checkHost(
  run: Run,
  orders: readonly AboutOrder[] | undefined,
  live: AboutOrder | undefined,
): Promise<void> {
  const target = run.after.hostServerOid;
  if (target === undefined || target === null || !changed(run, "hostServerOid")) return;
  if (containsUnknown(target)) {
    if (!run.isNew) run.out.unknownOutputs.push(...MOVE_CHANGES_OUTPUTS);
    return;
  }
  const current = live?.host_server_oid ?? run.before.hostServerOid;
  const isMove = !run.isNew && target !== current;
  if (!run.isNew && !isMove) return;
  const dc = run.isNew
    ? run.known.dcLocation
    : (live?.location?.data_center_location_code ?? run.known.dcLocation);
  const hostDc = orders?.find((order) => order.host_server_oid === target)?.location
    ?.data_center_location_code;
  if (dc && hostDc && hostDc !== dc) {
    run.out.failures.push({
      property: "hostServerOid",
      reason: otherDataCentre(String(target), hostDc, dc, run.isNew),
    });
    return;
  }
  if (!isMove) return;
  run.out.unknownOutputs.push(...MOVE_CHANGES_OUTPUTS);
  // The sizes the VPS has when it moves (a resize runs first): the order's, with the program's over them.
  const sizes = { ...(live ? pricedOf(orderFields(live)) : {}), ...pricedOf(run.known) };
  const request = quoteRequest({ ...sizes, dcLocation: dc, hostServerOid: target }, true);
  const failed = run.out.failures.length;
  const answer = await judge(
    run,
    `checking host ${String(target)} (that it exists, is in ${dc ?? "the VPS's data centre"} and has room)`,
    "hostServerOid",
    () => run.view.quote(request),
  );
  run.fee.moveAnswer = answer;
  if (run.preview && answer && run.out.failures.length === failed)
    await claimRoom(run, String(target), needOf(sizes), "hostServerOid", { ...sizes, dcLocation: dc });
}

function otherDataCentre(host: string, hostDc: string, dc: string, isNew: boolean): string {
  return isNew
    ? `host ${host} is in ${hostDc}, but dcLocation is ${dc}: pick a host in ${dc}, or leave hostServerOid out to let RimuHosting choose`
    : `host ${host} is in ${hostDc}, but this VPS is in ${dc}: a move keeps the data centre (moving it across would leave ` +
        `dcLocation behind, and the next update would replace the VPS). Pick a host in ${dc}, or change dcLocation to order a new VPS there`;
}

/**
 * Room for a resize on the VPS's own host (preview): the host's free memory and disk, which RimuHosting
 * reports for the host of each VPS (R5), must cover the growth, beside what this run's other changes on that host
 * take (host-room.ts). "Free" is no promise (docs/rimuhosting-api.md R5), so enough free space is no guarantee;
 * too little is a certain refusal.
 */
async function checkResizeRoom(run: Run, live: AboutOrder): Promise<void> {
  const fields = orderFields(live);
  const grow = (name: "memoryMb" | "diskSpaceMb" | "diskSpace2Mb") => {
    const wanted = run.known[name];
    const now = fields[name] ?? 0;
    return typeof wanted === "number" && wanted > now ? wanted - now : 0;
  };
  const need = { memoryMb: grow("memoryMb"), diskMb: grow("diskSpaceMb") + grow("diskSpace2Mb") };
  const hostOid = live.host_server_oid;
  if (!hostOid) return;
  if (need.memoryMb === 0 && need.diskMb === 0) return run.view.ledger.drop(hostOid, run.resource);
  const host = await shared(run, `checking that host ${hostOid} has room to grow this VPS`, () =>
    run.view.hostOf(orderRef(live.order_oid, live.domain_name), hostOid),
  );
  if (!host) return;
  const free = freeOf(host);
  const blame = (short: readonly string[]) => (short[0] === "memory" ? "memoryMb" : "diskSpaceMb");
  const alone = shortOf(free, [], need);
  if (alone.length === 0) return judgeTogether(run, hostOid, free, need, blame, true);
  run.view.ledger.drop(hostOid, run.resource);
  const short = [
    alone.includes("memory") ? `${need.memoryMb} MB more memory (it has ${free.memoryMb} MB free)` : "",
    alone.includes("disk")
      ? `${Math.ceil(need.diskMb / 1024)} GB more disk (it has ${free.diskGb} GB free)`
      : "",
  ].filter((part) => part !== "");
  run.out.failures.push({
    property: blame(alone),
    code: RIMU_ERROR_CODES.RimuConflictError,
    reason:
      `host ${hostOid}, which this VPS runs on, has no room to grow it: it needs ${short.join(" and ")}. ` +
      `Ask for less, or move the VPS to a host with room first (hostServerOid)`,
  });
}

/** A host's free figures (R5) in the ledger's terms. */
function freeOf(host: HostServerInfo): HostFree {
  return {
    memoryMb: typeof host.host_mem_mb_free === "number" ? host.host_mem_mb_free : undefined,
    diskGb: typeof host.host_disk_gb_free === "number" ? host.host_disk_gb_free : undefined,
  };
}

/** What a VPS of these sizes takes of a host. */
function needOf(sizes: QuotedValues): HostNeed {
  const mb = (size: number | undefined) => size ?? 0;
  return { memoryMb: mb(sizes.memoryMb), diskMb: mb(sizes.diskSpaceMb) + mb(sizes.diskSpace2Mb) };
}

/**
 * Judges `need` beside this run's other claims on `host` against its free figures, and claims it when it fits.
 * Synchronous (the figures were read before), so two checks never both take the same room.
 */
function judgeTogether(
  run: Run,
  host: string,
  free: HostFree,
  need: HostNeed,
  blame: (short: readonly ("memory" | "disk")[]) => string,
  more: boolean,
): void {
  const ledger = run.view.ledger;
  const others = ledger.others(host, run.resource);
  const short = shortOf(free, others, need);
  if (short.length === 0) {
    ledger.claim(host, run.resource, { ...need, name: run.name });
    return;
  }
  ledger.drop(host, run.resource);
  run.out.failures.push({
    property: blame(short),
    code: RIMU_ERROR_CODES.RimuConflictError,
    reason: sumRefusal(host, free, others, need, more),
  });
}

/**
 * A new VPS or a move onto `host`, which its own quote found room for: judged beside this run's other claims on
 * that host. Where the account has a VPS on the host, against the host's free figures (R5 of that VPS); elsewhere
 * no figures can be read, so RimuHosting's quote judges the sum: one order of all their sizes on that host. Only
 * a refusal for room (409) counts; what else it may refuse (a size over a plan's limit) says nothing of the room.
 */
async function claimRoom(
  run: Run,
  host: string,
  need: HostNeed,
  property: string,
  request: QuotedValues,
): Promise<void> {
  if (need.memoryMb === 0 && need.diskMb === 0) return;
  const ledger = run.view.ledger;
  const via = run.orders?.find((order) => order.host_server_oid === host);
  if (via) {
    const figures = await shared(
      run,
      `checking that host ${host} has room for this run's changes on it together`,
      () => run.view.hostOf(orderRef(via.order_oid, via.domain_name), host),
    );
    if (figures) judgeTogether(run, host, freeOf(figures), need, () => property, false);
    return;
  }
  // Claimed before the quote is asked, so a check running meanwhile counts it.
  ledger.claim(host, run.resource, { ...need, name: run.name });
  const others = ledger.others(host, run.resource);
  if (others.length === 0) return;
  const total = sumOf([...others, need]);
  // All the disks as one: the sum is judged as one order's.
  const sizes = {
    memoryMb: total.memoryMb,
    diskSpaceMb: total.diskMb > 0 ? total.diskMb : undefined,
    diskSpace2Mb: undefined,
  };
  try {
    await run.view.quote(quoteRequest({ ...request, ...sizes, hostServerOid: host }, true));
  } catch (error) {
    const failure = readFailure(error, run.baseUrl);
    if (failure.kind !== "refused" || !(failure.error instanceof RimuConflictError)) return;
    ledger.drop(host, run.resource);
    run.out.failures.push({
      property,
      code: RIMU_ERROR_CODES.RimuConflictError,
      reason:
        `host ${host} has no room for this run's new VPSs on it together (${claimNames(others)} ` +
        `and this one: ${needWords(total)}), though it has for this one alone. RimuHosting says: ` +
        `${serviceText(failure.error).replace(/[.\s]+$/, "")}. Ask for less, or spread these VPSs over other hosts ` +
        `(hostServerOid, or leave it out to let RimuHosting choose)`,
    });
  }
}

// ---------------------------------------------------------------------------------------- new order

/**
 * A new VPS in a preview: its price, quoted by RimuHosting with the host it names, which R16 judges the way an
 * order would (plan in that data centre, sizes, host, room): what it refuses, the order would refuse too.
 */
async function checkNewOrder(run: Run): Promise<void> {
  const replacement = takeReplacementPriced(run.resource);
  const unknown = [...PRICED_INPUTS, "hostServerOid" as const].filter((name) =>
    containsUnknown(run.after[name]),
  );
  if (unknown.length > 0) {
    if (!replacement)
      run.out.notes.push(
        info(
          newVpsLine(run.resource, run.name, {
            problem: `${unknown.join(", ")} not known until the update runs`,
          }),
        ),
      );
    return;
  }
  const failed = run.out.failures.length;
  const answer = await judge(
    run,
    "checking the order with RimuHosting (plan, sizes and host in this data centre)",
    run.known.hostServerOid !== undefined ? "hostServerOid" : "memoryMb",
    () => run.view.quote(quoteRequest(run.known, true)),
  );
  run.fee.orderAnswer = answer;
  if (answer && run.out.failures.length === failed && typeof run.known.hostServerOid === "string")
    await claimRoom(run, run.known.hostServerOid, needOf(run.known), "hostServerOid", run.known);
  if (replacement || run.out.failures.length > 0) return; // diff() priced the replacement
  const price = answer ? amountMoney(answer.monthly_recurring_amt) : undefined;
  const quoted: Quoted = price
    ? { price }
    : {
        problem: answer ? "RimuHosting's answer carried no price" : "the quote did not run (see the warning)",
      };
  run.out.notes.push(info(newVpsLine(run.resource, run.name, quoted)));
}

/**
 * A quote that judges the request: a refusal is a failure naming the input (the service's words). A refusal
 * that names no field (no host has room) is the input's that asked for the room: `blame`.
 */
async function judge<T>(
  run: Run,
  check: string,
  blame: string,
  read: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    const failure = readFailure(error, run.baseUrl);
    if (failure.kind === "refused") {
      const refusal = serviceFailure(failure.error);
      run.out.failures.push(refusal.property === "" ? { ...refusal, property: blame } : refusal);
      return undefined;
    }
    return shared(run, check, () => Promise.reject(error));
  }
}

/** The quoted monthly price of `inputs` (never fails: a price that cannot be had says why). */
export async function priceOf(run: Pick<Run, "view" | "baseUrl">, inputs: QuotedValues): Promise<Quoted> {
  const unknown = PRICED_INPUTS.filter((name) => containsUnknown(inputs[name]));
  if (unknown.length > 0) return { problem: `${unknown.join(", ")} not known until the update runs` };
  try {
    const price = amountMoney((await run.view.quote(quoteRequest(inputs))).monthly_recurring_amt);
    return price ? { price } : { problem: "RimuHosting's answer carried no price" };
  } catch (error) {
    const failure = readFailure(error, run.baseUrl);
    if (failure.kind === "temporary") return { problem: `RimuHosting did not quote it (${failure.why})` };
    if (failure.kind === "refused")
      return { problem: `RimuHosting would not quote it: ${serviceText(failure.error)}` };
    return { problem: failure.error.detail };
  }
}

// ------------------------------------------------------------------------------------------- helpers

/** A client error of the service's about the request, as a failure naming the input in the user's words. */
function serviceFailure(error: Parameters<typeof serviceText>[0]): CheckFailure {
  const presented = presentError(error, "");
  return failureOf(presented);
}

/**
 * A presented error as a check failure: its code, the input it names, its detail without the input's name in
 * front ("hostServerOid: …" or the service's "hostServerOid '9999' is …"), which presentFailure() puts back once.
 */
function failureOf(error: VpsError): CheckFailure {
  const property = error.fieldName ?? "";
  let detail = error.detail;
  if (property && detail.startsWith(`${property}: `)) detail = detail.slice(property.length + 2);
  else if (property && detail.startsWith(`${property} `)) detail = detail.slice(property.length + 1);
  return { property, reason: detail.replace(/[.\s]+$/, ""), code: error.code as ErrorCode };
}

function missingKey(): unknown {
  try {
    clientFor("Checking a Vps");
    return undefined;
  } catch (error) {
    return error;
  }
}
