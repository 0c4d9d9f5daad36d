/**
 * The host checks of the look-ahead (check() in a preview): a host named for a new VPS or a move is in the VPS's
 * data centre, exists and has room, and a resize has room on the VPS's own host, each beside what this run's
 * other changes on that host take (host-room.ts).
 */
import type { AboutOrder, GetNewVmPricingResponse, HostServerInfo } from "../../../contract/index.js";
import { RIMU_ERROR_CODES, RimuConflictError } from "../../client/index.js";
import {
  roomRefusal,
  setAsideIn,
  shortOf,
  sumOf,
  type Claim,
  type ClaimKind,
  type HostFree,
  type HostNeed,
  type RunKind,
  type Short,
} from "../account/host-room.js";
import { serviceText } from "../engine/errors.js";
import { pricedOf, quoteRequest, type QuotedValues } from "../budget/money.js";
import { pricedAfterUpdate } from "../budget/planned-fee.js";
import { readFailure } from "../account/read-failures.js";
import { orderRef } from "../lifecycle/vps-converge.js";
import { MOVE_CHANGES_OUTPUTS } from "../lifecycle/vps-effects.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import { changed, couldNotRead, judge, shared, type LookaheadCheck } from "./lookahead-run.js";

/**
 * hostServerOid, new or changed: the host must be in the VPS's data centre (a move across data centres would
 * make dcLocation differ from the program, and the next update would replace the VPS), exist and have room.
 * A new dcLocation replaces the VPS, so its host is judged as a new VPS's, against the new data centre (and judged
 * even when the host is unchanged: the new VPS is ordered on it). The account's orders say which data centre each
 * host it uses is in; for a move or a replacement, a quote naming the host (R16 judges it as an order would,
 * docs/rimuhosting-api.md §8.2) says the rest. A new VPS's host is judged by its preview quote (checkNewOrder).
 * Returns a move's answer (the planned fee's).
 */
export async function checkHost(
  run: LookaheadCheck,
  orders: readonly AboutOrder[] | undefined,
  live: AboutOrder | undefined,
): Promise<GetNewVmPricingResponse | undefined> {
  const target = run.after.hostServerOid;
  const liveDc = live?.location?.data_center_location_code;
  const newDc = run.known.dcLocation;
  const replacing =
    !run.isNew &&
    typeof newDc === "string" &&
    changed(run, "dcLocation") &&
    newDc !== (liveDc ?? run.before.dcLocation);
  if (target === undefined || target === null || (!changed(run, "hostServerOid") && !replacing))
    return undefined;
  if (run.unknown.has("hostServerOid")) {
    if (!run.isNew) run.out.unknownOutputs.push(...MOVE_CHANGES_OUTPUTS);
    return undefined;
  }
  const current = live?.host_server_oid ?? run.before.hostServerOid;
  const ordersNew = run.isNew || replacing;
  const isMove = !ordersNew && target !== current;
  if (!ordersNew && !isMove) return undefined;
  const dc = ordersNew ? newDc : (liveDc ?? newDc);
  const hostDc = orders?.find((order) => order.host_server_oid === target)?.location
    ?.data_center_location_code;
  if (dc && hostDc && hostDc !== dc) {
    run.out.failures.push({
      property: "hostServerOid",
      reason: otherDataCentre(String(target), hostDc, dc, ordersNew),
    });
    return undefined;
  }
  if (run.isNew) return undefined;
  if (isMove) run.out.unknownOutputs.push(...MOVE_CHANGES_OUTPUTS);
  // The sizes the VPS has on the host: a new VPS's are the program's (the order's where it sets none); a move takes
  // the order as update() leaves it (a planned resize runs first; a size changed outside Pulumi stays).
  const sizes =
    ordersNew || !live
      ? { ...(live ? pricedOf(orderFields(live)) : {}), ...pricedOf(run.known) }
      : pricedAfterUpdate(live, run);
  const request = quoteRequest({ ...sizes, dcLocation: dc, hostServerOid: target }, true);
  const failed = run.out.failures.length;
  const answer = await judge(
    run,
    `checking host ${String(target)} (that it exists, is in ${dc ?? "the VPS's data centre"} and has room)`,
    "hostServerOid",
    () => run.view.quote(request),
  );
  if (run.preview && answer && run.out.failures.length === failed)
    await claimRoom(
      run,
      String(target),
      needOf(sizes),
      "hostServerOid",
      { ...sizes, dcLocation: dc },
      ordersNew ? "new" : "move",
    );
  return isMove ? answer : undefined;
}

/**
 * What a move of `live` to the host `known` names is quoted as, as the order (quoteRequest's asOrder): its sizes on
 * the new host, in its data centre (a move keeps it). The check's request (checkHost) and the order guard's: one
 * request, so one quote, and the guard judges the price the preview showed, with the host's room in it (issue 91).
 */
export const movedQuote = (
  live: AboutOrder,
  check: Parameters<typeof pricedAfterUpdate>[1] & { known: QuotedValues },
): QuotedValues => ({
  ...pricedAfterUpdate(live, check),
  dcLocation: live.location?.data_center_location_code ?? check.known.dcLocation,
  hostServerOid: check.known.hostServerOid,
});

export function otherDataCentre(host: string, hostDc: string, dc: string, isNew: boolean): string {
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
export async function checkResizeRoom(run: LookaheadCheck, live: AboutOrder): Promise<void> {
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
  // Not judged (the warning says so), yet the growth goes ahead: it takes its room (see claimRoom).
  if (!host) return run.view.ledger.claim(hostOid, run.resource, { ...need, kind: "grow", name: run.name });
  const free = freeOf(host);
  const blame = (short: readonly Short[]) => (short[0] === "memory" ? "memoryMb" : "diskSpaceMb");
  const alone = shortOf(free, [need]);
  if (alone.length === 0) return judgeTogether(run, hostOid, free, { ...need, kind: "grow" }, blame);
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
export function freeOf(host: HostServerInfo): HostFree {
  return {
    memoryMb: typeof host.host_mem_mb_free === "number" ? host.host_mem_mb_free : undefined,
    diskGb: typeof host.host_disk_gb_free === "number" ? host.host_disk_gb_free : undefined,
  };
}

/** What a VPS of these sizes takes of a host. */
export function needOf(sizes: QuotedValues): HostNeed {
  const mb = (size: number | undefined) => size ?? 0;
  return { memoryMb: mb(sizes.memoryMb), diskMb: mb(sizes.diskSpaceMb) + mb(sizes.diskSpace2Mb) };
}

/**
 * Judges this resource's claim beside this run's other claims on `host` against its free figures, by the rule of
 * host-room.ts, and claims it when they fit together.
 */
async function judgeTogether(
  run: LookaheadCheck,
  host: string,
  free: HostFree,
  need: HostNeed & { kind: ClaimKind },
  blame: (short: readonly Short[]) => string,
): Promise<void> {
  const ledger = run.view.ledger;
  const mine: Claim = { ...need, name: run.name };
  const claims = [...ledger.others(host, run.resource), mine];
  const aside = await setAsideIn(ledger.applying, claims, mine, (rest) => shortOf(free, rest));
  if (aside.length === 0) return ledger.claim(host, run.resource, mine);
  ledger.drop(host, run.resource);
  run.out.failures.push({
    property: blame(shortOf(free, claims)),
    code: RIMU_ERROR_CODES.RimuConflictError,
    reason: roomRefusal(host, claims, aside, { free }, runKind(run, mine)),
  });
}

/**
 * A new VPS (`kind` "new", a replacement's too) or a move onto `host`, which its own quote found room for: judged
 * beside this run's other claims on that host. Where the account has a VPS on the host, against the host's free
 * figures (R5 of that VPS); elsewhere no figures can be read, so RimuHosting's quote judges them: one order of their
 * sizes together on that host, and of what is left as the rule sets claims aside. Only a refusal for room (409)
 * counts; what else it may refuse (a size over a plan's limit) says nothing of the room.
 *
 * When the host's figures or a quote of the sum cannot be had (a 5xx, a timeout), the claims are not judged together:
 * a warning names the host and says so, as the look-ahead's other checks do when they cannot run, and the claim
 * stands all the same. The preview does not fail it, so `pulumi up` applies this change, and the checks after it
 * must count it: leaving it out would let them claim room this change is about to take.
 */
export async function claimRoom(
  run: LookaheadCheck,
  host: string,
  need: HostNeed,
  property: string,
  request: QuotedValues,
  kind: ClaimKind = run.isNew ? "new" : "move",
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
    if (figures) return judgeTogether(run, host, freeOf(figures), { ...need, kind }, () => property);
    return ledger.claim(host, run.resource, { ...need, kind, name: run.name });
  }
  const mine: Claim = { ...need, kind, name: run.name };
  const claims = [...ledger.others(host, run.resource), mine];
  if (claims.length === 1) return ledger.claim(host, run.resource, mine);
  let says = "";
  /** RimuHosting's quote of one order of `rest`'s sizes on the host (all the disks as one): "memory" if refused. */
  const quoted = async (rest: readonly Claim[]): Promise<Short[]> => {
    const total = sumOf(rest);
    const sizes = {
      memoryMb: total.memoryMb,
      diskSpaceMb: total.diskMb > 0 ? total.diskMb : undefined,
      diskSpace2Mb: undefined,
    };
    try {
      await run.view.quote(quoteRequest({ ...request, ...sizes, hostServerOid: host }, true));
      return [];
    } catch (error) {
      const failure = readFailure(error, run.baseUrl);
      if (failure.kind !== "refused") throw new Unjudged(error);
      if (!(failure.error instanceof RimuConflictError)) return [];
      if (rest.length === claims.length) says = serviceText(failure.error);
      return ["memory"];
    }
  };
  let aside: Claim[];
  try {
    aside = await setAsideIn(ledger.applying, claims, mine, quoted);
  } catch (error) {
    if (!(error instanceof Unjudged)) throw error;
    couldNotRead(
      run,
      `judging this run's changes on host ${host} together (RimuHosting's quote of their sum)`,
      error.failed,
    );
    return ledger.claim(host, run.resource, mine);
  }
  if (aside.length === 0) return ledger.claim(host, run.resource, mine);
  ledger.drop(host, run.resource);
  run.out.failures.push({
    property,
    code: RIMU_ERROR_CODES.RimuConflictError,
    reason: roomRefusal(host, claims, aside, { says }, runKind(run, mine)),
  });
}

/** What a room message says of the run `run` belongs to (host-room.ts). */
function runKind(run: LookaheadCheck, mine: Claim): RunKind {
  return { applying: run.view.ledger.applying, mayApply: run.mayApply ? { mine } : undefined };
}

/** A quote of the claims' sum that could not be had (not a refusal): they were not judged together. */
class Unjudged extends Error {
  constructor(readonly failed: unknown) {
    super("the quote of the claims' sum could not be had");
  }
}
