/**
 * The drift of a refresh (refresh-json.ts) as rows: one per VPS and property changed outside Pulumi, with the value
 * before and after and what it did to the monthly fee.
 *
 * Where each row comes from, for both front ends alike: the provider's drift line (provider/impl/lifecycle/vps-drift.ts,
 * `web: changed outside Pulumi: memoryMb 1024 → 2048, primaryIp 192.0.2.10 → 192.0.2.99, monthlyFeeUsd 10 → 16.`),
 * which the JSON carries among its diagnostics; the dynamic `Vps` gives the engine no detailed diff, so its steps
 * say only that the VPS changed. A VPS the refresh found gone is a `delete` step: one row, its fee no longer billed
 * (its drift line is left for that row).
 * A native step with a detailed diff but no drift line (an older plugin) gets its rows from the outputs before and
 * after.
 *
 * Each VPS is named once, by its resource name (the URN's last part), with its domain name beside it, whatever the
 * state's history (issue 65): the provider's line names a VPS by the resource name the program gave it when the
 * recorded inputs carry it (`creationScope`), but by its domain name on a stack just imported or refreshed (the
 * state then holds what a read gave, without it). So a line is matched to its VPS by the diagnostic's URN, else by
 * resource name, else by domain name; a VPS's rows come from one source only.
 */
import { isVpsResource, NATIVE_VPS_TYPE, DYNAMIC_VPS_TYPE } from "../impl/fields/vps-type-tokens.js";
import { driftValue } from "../impl/lifecycle/drift-value.js";
import type { RefreshDigest, RefreshStep } from "./refresh-json.js";

/** One property of one VPS changed outside Pulumi. */
export interface DriftRow {
  vps: string;
  property: string;
  /** The values as the provider printed them; undefined for a value it names without printing (a secret). */
  before?: string;
  after?: string;
  /** The monthly fee's change in USD, on the row of the property that caused it; `shared` names the others. */
  feeUsd?: number;
  sharedWith?: string[];
}

export interface DriftReport {
  /** The stack and its project, from the resources' URNs: together they name one stack's issue. */
  stack?: string;
  project?: string;
  rows: DriftRow[];
  /** The domain name of each VPS of the rows whose state records one, by resource name. */
  domainNames: Record<string, string>;
  /** The VPSs with at least one row. */
  vpsCount: number;
  /** The sum of the fee changes (USD a month). */
  feeUsd: number;
}

/** The provider's drift line; `[rimuhosting] ` comes before it when the dynamic provider's host printed it. */
const DRIFT_LINE = /^(?:\[rimuhosting\] )?([^\s:[][^:\n]*): changed outside Pulumi: (.*)\.\s*$/;

/** Properties whose change changes the fee (the fee's own change is shown on their rows). */
const FEE_PROPERTIES = new Set(["memoryMb", "diskSpaceMb", "diskSpace2Mb", "pricingPlanCode", "dcLocation"]);
const FEE = "monthlyFeeUsd";

/** A step of a VPS, on any front end: by its state, or by its URN's type when it has none. */
function isVpsStep(step: RefreshStep): boolean {
  const state = step.oldState ?? step.newState;
  if (state) return isVpsResource(state);
  const type = step.urn.split("::")[2] ?? "";
  return type === NATIVE_VPS_TYPE || type === DYNAMIC_VPS_TYPE;
}

/** `name 1 → 2` or a bare name (a value the provider does not print). */
function parseItem(item: string): { property: string; before?: string; after?: string } {
  const match = /^(\w+) (.*) → (.*)$/.exec(item);
  if (match) return { property: match[1]!, before: match[2]!, after: match[3]! };
  return { property: item.trim() };
}

/** The VPS's drifted properties, from its drift line. */
const rowsOfLine = (vps: string, list: string): DriftRow[] =>
  rowsOfItems(vps, list.split(", ").map(parseItem));

/** Rows of the properties `items` of one VPS: a fee's change on the row of what caused it, else a row of its own. */
function rowsOfItems(
  vps: string,
  items: { property: string; before?: string; after?: string }[],
): DriftRow[] {
  const fee = items.find((item) => item.property === FEE);
  const feeUsd = fee ? Number(fee.after) - Number(fee.before) : undefined;
  const rows: DriftRow[] = items.filter((item) => item.property !== FEE).map((item) => ({ vps, ...item }));
  if (feeUsd === undefined || !Number.isFinite(feeUsd)) return rows;
  const causes = rows.filter((row) => FEE_PROPERTIES.has(row.property));
  if (causes.length === 0) return [...rows, { vps, ...fee!, feeUsd }];
  for (const row of causes) {
    row.feeUsd = feeUsd;
    const others = causes.filter((other) => other !== row).map((other) => other.property);
    if (others.length > 0) row.sharedWith = others;
  }
  return rows;
}

const nameOf = (urn: string): string => urn.split("::").pop() ?? urn;

/** The domain name a step's states record, if any. */
function domainOf(step: RefreshStep): string | undefined {
  for (const bag of [step.oldState?.outputs, step.oldState?.inputs, step.newState?.outputs]) {
    const domain = bag?.domainName;
    if (typeof domain === "string" && domain !== "") return domain;
  }
  return undefined;
}

/** A VPS the refresh found gone: one row, its fee no longer billed. */
function goneRow(step: RefreshStep): DriftRow {
  const outputs = step.oldState?.outputs ?? {};
  const fee = typeof outputs[FEE] === "number" ? outputs[FEE] : undefined;
  const order = [step.oldState?.id, outputs.domainName].filter((part) => typeof part === "string");
  return {
    vps: nameOf(step.urn),
    property: "order",
    before: order.length > 0 ? `order ${order.join(" ")}` : "ordered",
    after: "gone (cancelled or removed)",
    ...(fee !== undefined ? { feeUsd: -fee } : {}),
  };
}

/** Rows from a detailed diff and the outputs before and after (a native step without a drift line). */
function rowsOfStep(step: RefreshStep): DriftRow[] {
  const before = step.oldState?.outputs ?? {};
  const after = step.newState?.outputs ?? {};
  return rowsOfItems(
    nameOf(step.urn),
    Object.keys(step.detailedDiff ?? {}).map((property) => ({
      property,
      before: driftValue(before[property]),
      after: driftValue(after[property]),
    })),
  );
}

/**
 * The resource name of the VPS a drift line names (`named`: a resource name or a domain name, see above), or
 * `named` itself when no step of the refresh is that VPS (a line of a resource the refresh did not list).
 */
function vpsNamer(steps: readonly RefreshStep[]): (named: string, urn?: string) => string {
  const byUrn = new Map(steps.map((step) => [step.urn, nameOf(step.urn)]));
  const names = new Set(byUrn.values());
  const byDomain = new Map<string, string | null>();
  for (const step of steps) {
    const domain = domainOf(step);
    // A domain name two VPSs share names neither: their lines then keep the name they have.
    if (domain !== undefined) byDomain.set(domain, byDomain.has(domain) ? null : nameOf(step.urn));
  }
  return (named, urn) =>
    (urn !== undefined ? byUrn.get(urn) : undefined) ??
    (names.has(named) ? named : undefined) ??
    byDomain.get(named) ??
    named;
}

/** The drift of a refresh's digest. */
export function driftOf(digest: RefreshDigest): DriftReport {
  const rows: DriftRow[] = [];
  const seen = new Set<string>();
  const vpsSteps = digest.steps.filter(isVpsStep);
  const vpsOf = vpsNamer(vpsSteps);
  // A gone VPS's row comes from its delete step (with its fee), not from its drift line (vps-drift.ts's goneLine).
  for (const step of vpsSteps) if (step.op === "delete") seen.add(nameOf(step.urn));
  for (const diagnostic of digest.diagnostics ?? []) {
    for (const line of diagnostic.message.split("\n")) {
      const match = DRIFT_LINE.exec(line);
      if (!match) continue;
      const vps = vpsOf(match[1]!, diagnostic.urn);
      if (seen.has(vps)) continue;
      seen.add(vps);
      rows.push(...rowsOfLine(vps, match[2]!));
    }
  }
  for (const step of vpsSteps) {
    if (step.op === "delete") rows.push(goneRow(step));
    else if (step.op === "update" && !seen.has(nameOf(step.urn))) rows.push(...rowsOfStep(step));
  }
  const domainNames: Record<string, string> = {};
  for (const step of vpsSteps) {
    const domain = domainOf(step);
    if (domain !== undefined && rows.some((row) => row.vps === nameOf(step.urn)))
      domainNames[nameOf(step.urn)] = domain;
  }
  const [, stack, project] = digest.steps[0]?.urn.match(/^urn:pulumi:([^:]+)::([^:]+)::/) ?? [];
  return {
    ...(stack !== undefined ? { stack } : {}),
    ...(project !== undefined ? { project } : {}),
    rows,
    domainNames,
    vpsCount: new Set(rows.map((row) => row.vps)).size,
    feeUsd: sumFees(rows),
  };
}

/** Each VPS's fee change once (rows that share one carry it each). */
function sumFees(rows: readonly DriftRow[]): number {
  const byVps = new Map<string, number>();
  for (const row of rows) if (row.feeUsd !== undefined) byVps.set(row.vps, row.feeUsd);
  return [...byVps.values()].reduce((sum, fee) => sum + fee, 0);
}
