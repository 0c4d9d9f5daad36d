/**
 * The checks of check() that ask RimuHosting, read-only, so that a preview fails wherever `pulumi up` would
 * fail for a reason known before its first change: the API key and address, the catalogue, the billing
 * method, the order to adopt, another state's order carrying this resource's creation token, the host to run
 * on (it exists, is in the VPS's data centre, has room) and room for a resize (those two in host-checks.ts). Every
 * read is a shared one (account-view.ts): a preview of N existing VPSs reads the account's orders once, not N times.
 * What every check works on, and how a failed read ends up, is lookahead-run.ts.
 *
 * A read that fails for a temporary reason (read-failures.ts) skips its check with a warning naming it; a
 * wrong key or address fails the preview. What only a preview does (quotes, a host's free memory) is
 * marked below; `pulumi up` (no preview flag) makes only the shared reads.
 */
import type { AboutOrder, GetNewVmPricingResponse } from "../../../contract/index.js";
import { RimuNotFoundError } from "../../client/index.js";
import { catalogFindings, catalogFor } from "../account/catalog.js";
import { creationNonceOf, creationTokenFor, noteTokenLookup } from "../lifecycle/creation-token.js";
import { VPS_ERROR_CODES, presentError } from "../engine/errors.js";
import {
  PRICED_INPUTS,
  adoptionLine,
  amountMoney,
  newVpsLine,
  pricedOf,
  quoteRequest,
  takeReplacementPriced,
  type Quoted,
} from "../budget/money.js";
import { info, resourceKey, resourceName, warning } from "../engine/notes.js";
import { readFailure } from "../account/read-failures.js";
import { accountView, clientFor, configuredBaseUrl, hasApiKey } from "../lifecycle/runtime-config.js";
import { REPLACE_FORCING_INPUTS } from "../inputs/vps-changes.js";
import { RECORDED_ORDER_KEY } from "../fields/vps-fields.js";
import { adoptionProblem, foreignOrder } from "../lifecycle/vps-create.js";
import { takeBackOf } from "../ownership/take-back.js";
import { takenBackNotes } from "./taken-back.js";
import { listedByNonce, listedByOid } from "./listing-lookup.js";
import { cancelledWhy, unplacedCreate } from "./pending-create.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import type { RunContext } from "../engine/run-context.js";
import { changeRefusals } from "../inputs/vps-refusals.js";
import type { ParsedInputs } from "../inputs/vps-values.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import { plannedChanges, plannedFeeOf, priceOf, type FeeFindings } from "../budget/planned-fee.js";
// The one quote helper lives beside the planned fee, which quotes too; order-guard.ts imports it from here.
export { priceOf };
import { accountCentsOf } from "../budget/budget.js";
import {
  Stop,
  changed,
  failureOf,
  judge,
  serviceFailure,
  shared,
  couldNotRead,
  type LookAhead,
  type LookaheadCheck,
} from "./lookahead-run.js";
import { checkHost, checkResizeRoom, claimRoom, needOf } from "./host-checks.js";
export type { LookAhead } from "./lookahead-run.js";

/**
 * The look-ahead of one check of `context` (the run, handed in by check()): `before`, the recorded inputs;
 * `parsed`, the new ones as check() parsed them.
 */
export async function lookAhead(
  context: RunContext,
  before: VpsInputs,
  parsed: ParsedInputs,
  preview: boolean,
  mayApply = false,
): Promise<LookAhead> {
  const out: LookAhead = { failures: [], notes: [], unknownOutputs: [] };
  if (!hasApiKey(context)) {
    out.failures.push(failureOf(presentError(missingKey(context), "Checking a Vps")));
    return out;
  }
  const base: LookaheadCheck = {
    context,
    view: accountView(context, "Checking a Vps"),
    baseUrl: configuredBaseUrl(context),
    before,
    after: parsed.values,
    known: parsed.known,
    unknown: parsed.unknown,
    isNew: Object.keys(before).length === 0,
    preview,
    mayApply,
    name: resourceName(parsed.values),
    resource: resourceKey(parsed.values),
    out,
  };
  try {
    const orders = await shared(base, "looking for another stack's order of this resource", () =>
      base.view.activeOrders(),
    );
    return { ...out, ...(await checkAll({ ...base, orders })) };
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return out;
  }
}

/**
 * Every check, each returning what it found; the planned fee is worked out from those answers, handed over
 * explicitly (planned-fee.ts), so the order the checks run in cannot change it.
 */
async function checkAll(
  run: LookaheadCheck,
): Promise<Pick<LookAhead, "fee" | "recordedOrderOid" | "liveOrderOid" | "creationToken">> {
  const orders = run.orders;
  // The budget's scope: what the account is billed now, every active order (budget.ts). The ledger keeps the run's
  // first figure, so it is added up once per run, not once per VPS over every order (287 ms of a 500-VPS update).
  // The listing is kept with it: the other providers' changes are counted against the same one (shared-plan.ts).
  if (orders && run.view.fees.billed === undefined) run.view.startTotalsFrom(orders, accountCentsOf(orders));
  await checkCatalogue(run);
  if (run.out.failures.length > 0) return {};
  await checkBillingMethod(run);
  const adopting = typeof run.known.adoptOrderOid === "number" && changed(run, "adoptOrderOid");
  const adopted = adopting ? await checkAdoption(run) : undefined;
  // Worked out once per check: the budget's plan entry names the same token (vps-check.ts, changeOrders).
  const creationToken = tokenOf(run);
  const takenBack =
    !adopting && orders && creationToken ? await checkCreationToken(run, orders, creationToken) : undefined;
  const listed = liveOrderOf(run, orders);
  // A pending create whose order never appeared: update() orders it, so it is checked and priced as a new VPS. One
  // whose order was placed since the listing was read: that order is the live one (pending-create.ts).
  const unplaced = await unplacedCreate(run, listed);
  const found = unplaced.active ? { order: unplaced.active } : listed;
  const live = found.order;
  const missing = unplaced.cancelled ? cancelledWhy(unplaced.cancelled) : found.why;
  if (live) checkDistroOfLive(run, live);
  if (run.preview) await checkUnlistedDistro(run, live);
  const moveAnswer = await checkHost(run, orders, live);
  if (run.preview && live && !run.isNew) await checkResizeRoom(run, live);
  const orderAnswer =
    run.preview && (run.isNew || unplaced.yes) && !adopting && !takenBack
      ? await checkNewOrder(run)
      : undefined;
  const recordedOrderOid = orderToRecord(run, found);
  if (run.out.failures.length > 0) return { recordedOrderOid };
  // An order taken back is billed already: counted as an adopted one is, at its fee now and after.
  const kept =
    adopted ??
    (takenBack && { order: takenBack, quoted: await priceOf(run, pricedAsOrdered(run, takenBack)) });
  const fee = await plannedFeeOf(unplaced.yes ? { ...run, isNew: true } : run, {
    live,
    missing,
    adopted: kept,
    orderAnswer,
    moveAnswer,
  });
  const liveOrderOid = (adopted?.order ?? live)?.order_oid;
  return {
    fee,
    recordedOrderOid,
    ...(liveOrderOid === undefined ? {} : { liveOrderOid }),
    ...(takenBack ? { takenBack } : {}),
    ...(creationToken ? { creationToken } : {}),
  };
}

// ----------------------------------------------------------------------------------------- catalogue

async function checkCatalogue(run: LookaheadCheck): Promise<void> {
  const names = ["distro", "pricingPlanCode", "dcLocation"] as const;
  if (!names.some((name) => run.known[name] !== undefined && changed(run, name))) return;
  const catalog = await catalogFor(run.context, run.view.client, run.baseUrl);
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
async function checkUnlistedDistro(run: LookaheadCheck, live: AboutOrder | undefined): Promise<void> {
  const distro = run.known.distro;
  if (run.isNew || typeof distro !== "string" || !changed(run, "distro")) return;
  if (live?.distro === distro) return;
  const catalog = await catalogFor(run.context, run.view.client, run.baseUrl);
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

async function checkBillingMethod(run: LookaheadCheck): Promise<void> {
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

/** The order to adopt, checked, and returned with its quote once changed to match the program. */
async function checkAdoption(run: LookaheadCheck): Promise<FeeFindings["adopted"]> {
  const oid = run.known.adoptOrderOid as number;
  const order = await shared(run, `reading order ${oid} to adopt`, () =>
    run.view.client.getOrder(oid).then(
      (response): AboutOrder | null => response.about_order,
      (error: unknown) => (error instanceof RimuNotFoundError ? null : Promise.reject(error)),
    ),
  );
  if (order === undefined) return undefined; // could not look: create() checks again
  if (order === null) {
    run.out.failures.push({
      property: "adoptOrderOid",
      code: VPS_ERROR_CODES.adoption,
      reason: `order ${oid} does not exist on this account; list your orders with getOrders() and use one of their orderOid values`,
    });
    return undefined;
  }
  const problem = adoptionProblem(order, run.known, Date.now());
  if (problem) {
    run.out.failures.push({
      property: "adoptOrderOid",
      code: VPS_ERROR_CODES.adoption,
      reason: problem.replace(/^adoptOrderOid: /, ""),
    });
    return undefined;
  }
  run.out.notes.push(
    info(
      `${run.name}: will adopt existing order ${oid} (${order.domain_name}, ${order.running_state ?? "state unknown"}) ` +
        `instead of ordering a new VPS.`,
    ),
  );
  // What the bill will be once the order is changed to match the program: its fee now, and the quote for
  // the program's sizes over the order's. In the update phase too: a policy pack judges `pulumi up` by these
  // checked inputs, and without the fee now it would count the adopted order as a new VPS (issue 55).
  const fields = orderFields(order);
  const after = { ...pricedOf(fields), ...pricedOf(run.known), dcLocation: fields.dcLocation };
  const quoted = await priceOf(run, after);
  const now =
    typeof fields.monthlyFeeUsd === "number" ? { amount: fields.monthlyFeeUsd, currency: "USD" } : undefined;
  // The price line is the preview's to show; the update shows what it did instead.
  if (run.preview)
    run.out.notes.push(info(adoptionLine(run.context, run.resource, run.name, oid, now, quoted)));
  return { order, quoted };
}

// ----------------------------------------------------------------------------------- creation token

/**
 * The orders of another state carrying this resource's creation token: a new resource must not take another
 * state's order (the preview fails); an existing one is told about a stray order (a lost create of a killed
 * run that appeared late is billed and no state knows it).
 */
async function checkCreationToken(
  run: LookaheadCheck,
  orders: readonly AboutOrder[],
  token: string,
): Promise<AboutOrder | undefined> {
  const nonce = run.known.__creationNonce;
  const carrying = run.view.carryingIn(orders, token);
  const others = carrying.filter((order) => creationNonceOf(order) !== nonce);
  // Only a nonce this check() made may let create() skip its own look-up (creation-token.ts, noteTokenLookup).
  if (typeof nonce === "string")
    noteTokenLookup(run.context, token, nonce, run.isNew && carrying.length === 0);
  const first = others[0];
  if (!first) return undefined;
  if (!run.isNew) {
    const error = foreignOrder(first, run.known, token);
    run.out.notes.push(warning(`[${error.code}] ${run.name}: ${error.detail}`));
    return undefined;
  }
  // A killed run's order of this stack, which no state holds, is taken back (ownership/take-back.ts).
  const decided = await takeBackOf(run.context, run.known, others);
  if ("refused" in decided) {
    run.out.failures.push(
      failureOf(foreignOrder(decided.refused.order, run.known, token, decided.refused.why)),
    );
    return undefined;
  }
  run.out.notes.push(
    ...takenBackNotes(run.name, decided.order, orders, run.context.settings.budget.settings.monthlyBudgetUsd),
  );
  return decided.order;
}

/** The creation token of the checked inputs, when they name a scope and every input it hashes is known. */
function tokenOf(run: LookaheadCheck): string | undefined {
  if (typeof run.known.creationScope !== "string") return undefined;
  if (REPLACE_FORCING_INPUTS.some((name) => run.unknown.has(name))) return undefined;
  return creationTokenFor(run.known);
}

/** What RimuHosting quotes for an order taken back: its plan, data centre and sizes, the program's over them. */
function pricedAsOrdered(run: LookaheadCheck, order: AboutOrder) {
  const fields = orderFields(order);
  return { ...pricedOf(fields), ...pricedOf(run.known), dcLocation: fields.dcLocation };
}

/** An existing resource's live order, or why it was not found (said as the reason its fee is unknown). */
export interface FoundOrder {
  order?: AboutOrder;
  why?: string;
}

/**
 * The live order of an existing resource: the order its state records (RECORDED_ORDER_KEY: an import, a refresh,
 * an earlier check), else the one carrying its nonce (placed by this state), else the one it adopted.
 */
export function liveOrderOf(
  run: Pick<LookaheadCheck, "isNew" | "before">,
  orders?: readonly AboutOrder[],
): FoundOrder {
  if (run.isNew) return {};
  if (!orders) return { why: "the account's orders could not be read (see the warning)" };
  const recorded = run.before[RECORDED_ORDER_KEY];
  const nonce = run.before.__creationNonce;
  const adopted = run.before.adoptOrderOid;
  const order = listedByOid(orders, recorded) ?? listedByNonce(orders, nonce) ?? listedByOid(orders, adopted);
  if (order) return { order };
  const oid = typeof recorded === "number" ? recorded : typeof adopted === "number" ? adopted : undefined;
  if (oid !== undefined)
    return {
      why: `order ${oid}, which this stack's state records, is not among the account's active orders (cancelled outside Pulumi? \`pulumi refresh\` finds out)`,
    };
  return {
    why:
      "this stack's state records no order number for it and no active order carries its creation nonce " +
      "(a state written before the provider recorded the order): run `pulumi refresh` once to record it",
  };
}

/**
 * The order check() records in the inputs (RECORDED_ORDER_KEY): the live order, unless this change replaces it;
 * when it could not be looked for or was not found, what the state recorded (a cancelled order's number says so
 * in the next preview, and the nonce finds a replacement's order).
 */
function orderToRecord(run: LookaheadCheck, found: FoundOrder): number | undefined {
  if (run.isNew) return undefined;
  if (!found.order) return run.before[RECORDED_ORDER_KEY];
  if (plannedChanges(found.order, run.before, run.after).replaces.length > 0) return undefined;
  return found.order.order_oid;
}

/**
 * A distro set now where none was set before: the VPS has the one RimuHosting installed, which the live order
 * reports. Another one means a reinstall (update() compares with the live order), refused without
 * allowReinstall by the same rule as any reinstall (changeRefusals).
 */
function checkDistroOfLive(run: LookaheadCheck, live: AboutOrder): void {
  const wanted = run.known.distro;
  if (typeof wanted !== "string" || run.before.distro !== undefined || !live.distro || live.distro === wanted)
    return;
  run.out.failures.push(...changeRefusals({ distro: live.distro }, run.after, ["distro"]));
}

// ---------------------------------------------------------------------------------------- new order

/**
 * A new VPS in a preview: its price, quoted by RimuHosting with the host it names, which R16 judges the way an
 * order would (plan in that data centre, sizes, host, room): what it refuses, the order would refuse too.
 */
async function checkNewOrder(run: LookaheadCheck): Promise<GetNewVmPricingResponse | undefined> {
  const replacement = takeReplacementPriced(run.context, run.resource);
  const unknown = [...PRICED_INPUTS, "hostServerOid" as const].filter((name) => run.unknown.has(name));
  if (unknown.length > 0) {
    if (!replacement)
      run.out.notes.push(
        info(
          newVpsLine(run.context, run.resource, run.name, {
            problem: `${unknown.join(", ")} not known until the update runs`,
          }),
        ),
      );
    return undefined;
  }
  const failed = run.out.failures.length;
  const answer = await judge(
    run,
    "checking the order with RimuHosting (plan, sizes and host in this data centre)",
    run.known.hostServerOid !== undefined ? "hostServerOid" : "memoryMb",
    () => run.view.quote(quoteRequest(run.known, true)),
  );
  if (answer && run.out.failures.length === failed && typeof run.known.hostServerOid === "string")
    await claimRoom(run, run.known.hostServerOid, needOf(run.known), "hostServerOid", run.known);
  if (replacement || run.out.failures.length > 0) return answer; // diff() priced the replacement
  const price = answer ? amountMoney(answer.monthly_recurring_amt) : undefined;
  const quoted: Quoted = price
    ? { price }
    : {
        problem: answer ? "RimuHosting's answer carried no price" : "the quote did not run (see the warning)",
      };
  run.out.notes.push(info(newVpsLine(run.context, run.resource, run.name, quoted)));
  return answer;
}

// ------------------------------------------------------------------------------------------- helpers

function missingKey(context: RunContext): unknown {
  try {
    clientFor(context, "Checking a Vps");
    return undefined;
  } catch (error) {
    return error;
  }
}
