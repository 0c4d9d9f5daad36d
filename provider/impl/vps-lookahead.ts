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
import type { AboutOrder } from "../../contract/index.js";
import { RimuNotFoundError, carriesCreationToken } from "../client/index.js";
import { catalogFindings, catalogFor } from "./catalog.js";
import { creationNonceOf, creationTokenFor, noteTokenLookup } from "./creation-token.js";
import { VPS_ERROR_CODES, presentError, serviceText } from "./errors.js";
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
import { info, resourceKey, resourceName, warning } from "./notes.js";
import { readFailure } from "./read-failures.js";
import { accountView, clientFor, configuredBaseUrl, hasApiKey } from "./runtime-config.js";
import { containsUnknown, knownValues } from "./unknowns.js";
import { REPLACE_FORCING_INPUTS } from "./vps-changes.js";
import { adoptionProblem, foreignOrder } from "./vps-create.js";
import type { VpsInputs } from "./vps-input-schema.js";
import { changeRefusals } from "./vps-refusals.js";
import { orderFields } from "../wire-mapping/order-fields.js";
import { plannedFeeOf } from "./planned-fee.js";
import {
  Stop,
  changed,
  failureOf,
  judge,
  serviceFailure,
  shared,
  couldNotRead,
  type LookAhead,
  type Run,
} from "./lookahead-run.js";
import { checkHost, checkResizeRoom, claimRoom, needOf } from "./host-checks.js";
export type { LookAhead } from "./lookahead-run.js";

export async function lookAhead(
  before: VpsInputs,
  after: VpsInputs,
  preview: boolean,
  mayApply = false,
): Promise<LookAhead> {
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
    mayApply,
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

function missingKey(): unknown {
  try {
    clientFor("Checking a Vps");
    return undefined;
  } catch (error) {
    return error;
  }
}
