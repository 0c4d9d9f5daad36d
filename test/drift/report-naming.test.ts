/**
 * The drift report names each VPS once (issue 65), whatever the state's history. The invariant: for any stack of
 * VPSs on any front end (native, the dynamic `Vps`, the generic dynamic type), each changed outside Pulumi or gone,
 * whose provider line names it by its resource name (after an up: the recorded inputs carry `creationScope`) or by
 * its domain name (freshly imported, or refreshed: they do not), with the diagnostic's URN or without, and whose
 * native step has a detailed diff or not:
 * - the rows name exactly the changed and gone VPSs, each by its resource name, and each property of each once;
 * - the headline counts those VPSs; no value reads `undefined`; the table shows each VPS's domain name beside it;
 * - a fee's change sits on the row of what caused it, so no "Fee changed" advice comes with a resize.
 * fast-check generates the stacks; each counterexample found became a named case below.
 */
import fc from "fast-check";
import { renderDrift } from "../../provider/drift/markdown";
import { parseRefreshJson } from "../../provider/drift/refresh-json";
import { driftOf } from "../../provider/drift/report";

const TYPES = {
  native: "rimuhosting:index:Vps",
  dynamic: "pulumi-nodejs:dynamic/rimuhosting:Vps",
  generic: "pulumi-nodejs:dynamic:Resource",
} as const;
type Front = keyof typeof TYPES;

/** What happened to a VPS outside Pulumi, as its drift line's items and the outputs before and after. */
const DRIFTS = {
  unchanged: { items: [], before: {}, after: {}, properties: [] },
  moved: {
    items: ["hostServerOid 764 → 835", "primaryIp 192.0.2.10 → 198.18.1.10"],
    before: { hostServerOid: "764", primaryIp: "192.0.2.10" },
    after: { hostServerOid: "835", primaryIp: "198.18.1.10" },
    properties: ["hostServerOid", "primaryIp"],
  },
  resized: {
    items: ["memoryMb 1024 → 2048", "monthlyFeeUsd 10 → 16"],
    before: { memoryMb: 1024, monthlyFeeUsd: 10 },
    after: { memoryMb: 2048, monthlyFeeUsd: 16 },
    properties: ["memoryMb"],
  },
  cancelled: {
    items: ["cancellationDate none → 2026-12-26T06:17:00Z"],
    before: {},
    after: { cancellationDate: "2026-12-26T06:17:00Z" },
    properties: ["cancellationDate"],
  },
  ipAdded: {
    items: ['secondaryIps [] → ["192.0.2.11"]'],
    before: { secondaryIps: [] },
    after: { secondaryIps: ["192.0.2.11"] },
    properties: ["secondaryIps"],
  },
  gone: { items: [], before: {}, after: {}, properties: ["order"] },
} as const;
type Drift = keyof typeof DRIFTS;

interface VpsCase {
  front: Front;
  drift: Drift;
  /** How the provider's line names it: after an up, by resource name; freshly imported or refreshed, by domain. */
  lineNames: "resource" | "domain";
  /** The diagnostic carries the resource's URN. */
  withUrn: boolean;
  /** A native step's detailed diff (an older plugin printed no line; this one prints both). */
  nativeDiff: "line-and-diff" | "diff-only";
}

const STACK = "urn:pulumi:prod::shop::pulumi:pulumi:Stack::shop-prod";
const urnOf = (front: Front, name: string) => `urn:pulumi:prod::shop::${TYPES[front]}::${name}`;
/** Resource names as import-file writes them, and as a program's author does: never a domain name. */
const nameOf = (i: number) => (i % 2 === 0 ? `vps${i}ExampleCom` : `web-${i}`);
const domainOf = (i: number) => `vps${i}.example.com`;

/** The refresh's JSON for `cases`, as the real CLI prints it (test/drift/support.ts says which parts). */
function refreshJsonOf(cases: readonly VpsCase[]): string {
  const steps: unknown[] = [
    { op: "refresh", urn: STACK, oldState: { urn: STACK, type: "pulumi:pulumi:Stack" } },
  ];
  const diagnostics: { message: string; severity: string; urn?: string }[] = [];
  cases.forEach((vps, i) => {
    const name = nameOf(i);
    const urn = urnOf(vps.front, name);
    const drift = DRIFTS[vps.drift];
    const outputs = {
      orderOid: 1000 + i,
      slug: `order-${1000 + i}-vps${i}-example-com`,
      domainName: domainOf(i),
      monthlyFeeUsd: 10,
    };
    const state = (extra: object) => ({
      urn,
      type: TYPES[vps.front],
      id: String(1000 + i),
      inputs: {},
      outputs: { ...outputs, ...extra },
    });
    const named = vps.lineNames === "resource" ? name : domainOf(i);
    const prefix = vps.front === "native" ? "" : "[rimuhosting] ";
    const line = (items: string) => ({
      message: `${prefix}${named}: changed outside Pulumi: ${items}.`,
      severity: "info",
      ...(vps.withUrn ? { urn } : {}),
    });
    if (vps.drift === "gone") {
      steps.push({ op: "delete", urn, oldState: state({}) });
      diagnostics.push(line(`order ${1000 + i} ${domainOf(i)} → gone (cancelled or removed)`));
      return;
    }
    if (vps.drift === "unchanged") {
      steps.push({ op: "refresh", urn, oldState: state({}), newState: state({}) });
      return;
    }
    const native = vps.front === "native";
    steps.push({
      op: native ? "update" : "refresh",
      urn,
      oldState: state(drift.before),
      newState: state(drift.after),
      ...(native
        ? {
            detailedDiff: Object.fromEntries(
              Object.keys(drift.after).map((property) => [property, { kind: "update", inputDiff: false }]),
            ),
          }
        : {}),
    });
    if (!native || vps.nativeDiff === "line-and-diff") diagnostics.push(line(drift.items.join(", ")));
  });
  return JSON.stringify({ steps, diagnostics, changeSummary: { same: 1 } });
}

/** The invariant (see above), for one stack. */
function checkInvariant(cases: readonly VpsCase[]): void {
  const report = driftOf(parseRefreshJson(refreshJsonOf(cases), "refresh.json"));
  const expected = cases.flatMap((vps, i) =>
    DRIFTS[vps.drift].properties.map((property) => `${nameOf(i)} ${property}`),
  );
  const listed = report.rows.map((row) => `${row.vps} ${row.property}`);
  expect(listed.sort()).toEqual([...expected].sort());
  const changed = cases.filter((vps) => vps.drift !== "unchanged").length;
  expect(report.vpsCount).toBe(changed);
  const markdown = renderDrift(report);
  expect(markdown).not.toMatch(/undefined/);
  if (changed > 0)
    expect(markdown).toContain(`${changed === 1 ? "1 VPS" : `${changed} VPSs`} changed outside`);
  cases.forEach((vps, i) => {
    if (vps.drift !== "unchanged") expect(markdown).toContain(`| ${nameOf(i)} (${domainOf(i)}) |`);
  });
  if (!cases.some((vps) => vps.drift === "gone" || vps.drift === "unchanged"))
    expect(markdown).not.toContain("**Fee changed**");
}

const vpsCase: fc.Arbitrary<VpsCase> = fc.record({
  front: fc.constantFrom<Front>("native", "dynamic", "generic"),
  drift: fc.constantFrom<Drift>("unchanged", "moved", "resized", "cancelled", "ipAdded", "gone"),
  lineNames: fc.constantFrom("resource" as const, "domain" as const),
  withUrn: fc.boolean(),
  nativeDiff: fc.constantFrom("line-and-diff" as const, "diff-only" as const),
});

describe("the drift report names each VPS once", () => {
  it("for any stack, front end and history (generated)", () => {
    fc.assert(
      fc.property(fc.array(vpsCase, { minLength: 1, maxLength: 8 }), (cases) => checkInvariant(cases)),
      { seed: 65, numRuns: 300 },
    );
  });

  // The stacks issue 65 reported, each a named case.
  it("a native stack just imported: its lines name the domain, its steps the resource", () => {
    checkInvariant(
      (["moved", "resized", "cancelled", "ipAdded"] as const).map((drift) => ({
        front: "native",
        drift,
        lineNames: "domain",
        withUrn: false,
        nativeDiff: "line-and-diff",
      })),
    );
  });

  it("a gone VPS whose line names its domain (after an up): one row, not two", () => {
    checkInvariant([
      { front: "native", drift: "gone", lineNames: "domain", withUrn: false, nativeDiff: "line-and-diff" },
    ]);
  });

  it("a native step without a line: a cancellation's value before is none, never undefined", () => {
    checkInvariant([
      { front: "native", drift: "cancelled", lineNames: "resource", withUrn: false, nativeDiff: "diff-only" },
      { front: "native", drift: "resized", lineNames: "resource", withUrn: false, nativeDiff: "diff-only" },
    ]);
  });

  it("a refreshed dynamic Vps under the generic dynamic type: its line by domain", () => {
    checkInvariant([
      { front: "generic", drift: "moved", lineNames: "domain", withUrn: false, nativeDiff: "line-and-diff" },
    ]);
  });
});
