/**
 * The drift report (provider/drift/): which rows a refresh's JSON gives, each VPS and property with its value before
 * → after and its effect on the monthly fee, and the Markdown; what input is refused as no refresh's JSON.
 */
import { renderDrift, DRIFT_MARKER } from "../../provider/drift/markdown";
import { parseRefreshJson } from "../../provider/drift/refresh-json";
import { driftOf } from "../../provider/drift/report";
import { MOVED_LINE, goneStep, refreshJson, unchangedStep } from "./support";

const report = (text: string) => driftOf(parseRefreshJson(text, "refresh.json"));

describe("the drift of a refresh's JSON", () => {
  it("a moved and resized VPS: a row per property, the fee on the resize's row, the new IP address", () => {
    const drift = report(refreshJson([unchangedStep("web")], [MOVED_LINE], { same: 1, update: 1 }));
    expect(drift).toEqual({
      stack: "prod",
      vpsCount: 1,
      feeUsd: 6,
      rows: [
        { vps: "web", property: "memoryMb", before: "1024", after: "2048", feeUsd: 6 },
        { vps: "web", property: "primaryIp", before: "192.0.2.10", after: "198.18.1.10" },
        { vps: "web", property: "hostServerOid", before: "764", after: "835" },
      ],
    });
    const markdown = renderDrift(drift);
    // The advice holds after the check's refresh --preview-only (test/engine/refresh-output.ts runs it).
    expect(markdown).toContain("To undo it: `pulumi up --refresh` puts back what the program says");
    expect(markdown.split("\n").slice(0, 8)).toEqual([
      DRIFT_MARKER,
      "**Drift in stack `prod`: 1 VPS changed outside Pulumi**; the monthly fee changed by +$6.00 a month.",
      "",
      "| VPS | Property | Before → after | Monthly fee |",
      "| --- | --- | --- | --- |",
      "| web | memoryMb | 1024 → 2048 | +$6.00 a month |",
      "| web | primaryIp | 192.0.2.10 → 198.18.1.10 | none |",
      "| web | hostServerOid | 764 → 835 | none |",
    ]);
  });

  it("a gone VPS: one row, its fee no longer billed; a secret named without values; a fee shared by two", () => {
    const lines = [
      "db: changed outside Pulumi: password, runningState RUNNING → NOTRUNNING.",
      "api: changed outside Pulumi: memoryMb 1024 → 2048, diskSpaceMb 20480 → 40960, monthlyFeeUsd 10 → 20.",
    ];
    const drift = report(refreshJson([goneStep("old")], lines, { delete: 1, update: 2 }));
    expect(drift.rows).toEqual([
      { vps: "db", property: "password" },
      { vps: "db", property: "runningState", before: "RUNNING", after: "NOTRUNNING" },
      {
        vps: "api",
        property: "memoryMb",
        before: "1024",
        after: "2048",
        feeUsd: 10,
        sharedWith: ["diskSpaceMb"],
      },
      {
        vps: "api",
        property: "diskSpaceMb",
        before: "20480",
        after: "40960",
        feeUsd: 10,
        sharedWith: ["memoryMb"],
      },
      {
        vps: "old",
        property: "order",
        before: "order 1003 old.example.com",
        after: "gone (cancelled or removed)",
        feeUsd: -16,
      },
    ]);
    expect(drift).toMatchObject({ vpsCount: 3, feeUsd: -6 });
    const markdown = renderDrift(drift);
    expect(markdown).toContain("| db | password | changed (value not shown: a secret or private) | none |");
    expect(markdown).toContain("| api | memoryMb | 1024 → 2048 | +$10.00 a month (with diskSpaceMb) |");
    expect(markdown).toContain(
      "| old | order | order 1003 old.example.com → gone (cancelled or removed) | -$16.00 a month |",
    );
  });

  it("no drift: no rows, and says so", () => {
    const drift = report(refreshJson([unchangedStep("web")]));
    expect(drift.rows).toEqual([]);
    expect(renderDrift(drift)).toBe(
      `${DRIFT_MARKER}\n**No drift** in stack \`prod\`: every VPS is as Pulumi recorded it.\n`,
    );
  });
});

describe("input that is no refresh's JSON", () => {
  const HOW = "make it with `pulumi refresh --preview-only --json --stack <stack> > refresh.json`.";
  it.each([
    ["", "refresh.json is empty."],
    ["Previewing refresh (prod):", "refresh.json is not JSON; it starts with: Previewing refresh (prod):."],
    ["[]", "refresh.json is a JSON array, not the object a refresh prints."],
    [
      JSON.stringify({ version: 3, deployment: {} }),
      "refresh.json is the output of `pulumi stack export` (the stack's state), not a refresh.",
    ],
    [
      JSON.stringify({ steps: [{ op: "same", urn: "urn:x" }] }),
      "refresh.json is a preview's JSON (nothing in it is refreshed), not a refresh's.",
    ],
    [
      JSON.stringify({
        steps: [
          { op: "update", urn: "urn:x", detailedDiff: { memoryMb: { kind: "update", inputDiff: true } } },
        ],
      }),
      "refresh.json is a preview's JSON (its detailed diff compares the program's inputs), not a refresh's.",
    ],
    [
      JSON.stringify({ steps: [{ op: "refresh" }] }),
      "refresh.json is not the JSON of a refresh: steps[0].urn: Invalid input: expected string, received undefined.",
    ],
  ])("%j", (text, message) => {
    expect(() => parseRefreshJson(text, "refresh.json")).toThrow(`${message} The drift report reads what`);
    expect(() => parseRefreshJson(text, "refresh.json")).toThrow(HOW);
  });
});
