/**
 * The drift report (provider/drift/): which rows a refresh's JSON gives, each VPS and property with its value before
 * → after and its effect on the monthly fee, and the Markdown; what input is refused as no refresh's JSON.
 */
import { driftKey, renderDrift, DRIFT_MARKER } from "../../provider/drift/markdown";
import { parseRefreshJson } from "../../provider/drift/refresh-json";
import { driftOf } from "../../provider/drift/report";
import { MOVED_LINE, goneStep, refreshJson, unchangedStep } from "./support";

const report = (text: string) => driftOf(parseRefreshJson(text, "refresh.json"));

describe("the drift of a refresh's JSON", () => {
  it("a moved and resized VPS: a row per property, the fee on the resize's row, the new IP address", () => {
    const drift = report(refreshJson([unchangedStep("web")], [MOVED_LINE], { same: 1, update: 1 }));
    expect(drift).toEqual({
      stack: "prod",
      project: "shop",
      domainNames: {},
      vpsCount: 1,
      feeUsd: 6,
      rows: [
        { vps: "web", property: "memoryMb", before: "1024", after: "2048", feeUsd: 6 },
        { vps: "web", property: "primaryIp", before: "192.0.2.10", after: "198.18.1.10" },
        { vps: "web", property: "hostServerOid", before: "764", after: "835" },
      ],
    });
    const markdown = renderDrift(drift);
    expect(markdown.split("\n").slice(0, 8)).toEqual([
      "<!-- rimuhosting-drift shop/prod -->",
      "**Drift in stack `prod` of project `shop`: 1 VPS changed outside Pulumi**; the monthly fee changed by " +
        "+$6.00 a month.",
      "",
      "| VPS | Property | Before → after | Monthly fee |",
      "| --- | --- | --- | --- |",
      "| web | memoryMb | 1024 → 2048 | +$6.00 a month |",
      "| web | primaryIp | 192.0.2.10 → 198.18.1.10 | none |",
      "| web | hostServerOid | 764 → 835 | none |",
    ]);
    // The advice after the table, each kind once (test/engine/refresh-output.ts runs `up --refresh`'s repair).
    expect(markdown).toContain("What to do (a plain `pulumi up` changes nothing: this check wrote no state");
    expect(markdown).toContain(
      "- **Resized** (web): `pulumi up --refresh` resizes it back to what the program says",
    );
    expect(markdown).toContain(
      "- **Moved, or addresses changed** (web): The VPS keeps its new host and addresses",
    );
    expect(markdown.match(/- \*\*/g)).toHaveLength(2);
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
      "| old (old.example.com) | order | order 1003 old.example.com → gone (cancelled or removed) | -$16.00 a month " +
        "(no longer billed; " +
        "its credit for the unused time is in RimuHosting's answer to the delete, which no read of its API reports) |",
    );
  });

  it("a gone VPS's own drift line (a refresh prints it): the delete step's row only, with the fee", () => {
    const line =
      "[rimuhosting] old: changed outside Pulumi: order 1003 old.example.com → gone (cancelled or removed).";
    const drift = report(refreshJson([goneStep("old")], [line], { delete: 1 }));
    expect(drift.rows).toEqual([
      {
        vps: "old",
        property: "order",
        before: "order 1003 old.example.com",
        after: "gone (cancelled or removed)",
        feeUsd: -16,
      },
    ]);
    const markdown = renderDrift(drift);
    expect(markdown).toContain(
      "- **Gone** (old): `pulumi up --refresh` orders a new VPS as the program says",
    );
    // RimuHosting says the credit only in its answer to the delete (docs/rimuhosting-api.md R6): the row says where it
    // is (issue 57: the report showed the fee alone), also when the state recorded no fee.
    expect(markdown).toContain(
      "| -$16.00 a month (no longer billed; its credit for the unused time is in RimuHosting's",
    );
    const unpriced = goneStep("old");
    delete (unpriced.oldState.outputs as Record<string, unknown>).monthlyFeeUsd;
    expect(renderDrift(report(refreshJson([unpriced], [line], { delete: 1 })))).toContain(
      "gone (cancelled or removed) | none (its credit for the unused time is in RimuHosting's answer to the delete, " +
        "which no read of its API reports) |",
    );
    expect(markdown).toContain(
      "a credit for the unused time, if RimuHosting gave one, was in its answer to whoever",
    );
  });

  // Every change RimuHosting can make, as the provider's drift line names it (vps-drift.ts), with its advice.
  it.each([
    [
      "a scheduled cancellation",
      "cancellationDate none → 2026-12-26T06:17:00Z",
      "| cancellationDate | none → 2026-12-26T06:17:00Z | none |",
      "Cancellation scheduled",
      "ask RimuHosting's support to undo it before that day",
    ],
    [
      "a resize",
      "memoryMb 1024 → 2048, monthlyFeeUsd 10 → 16",
      "| memoryMb | 1024 → 2048 | +$6.00 a month |",
      "Resized",
      "`pulumi up --refresh` resizes it back",
    ],
    [
      "a grown disk",
      "diskSpaceMb 20480 → 40960, monthlyFeeUsd 10 → 12",
      "| diskSpaceMb | 20480 → 40960 | +$2.00 a month |",
      "Disk grown",
      "A disk cannot shrink: write the new size in the program, then run `pulumi refresh`",
    ],
    [
      "a second disk grown",
      "diskSpace2Mb 0 → 4096",
      "| diskSpace2Mb | 0 → 4096 | none |",
      "Disk grown",
      "`pulumi up --refresh` is refused",
    ],
    [
      "a stop",
      "runningState RUNNING → NOTRUNNING",
      "| runningState | RUNNING → NOTRUNNING | none |",
      "Stopped or started",
      "A program without `runningState` leaves the running state to you",
    ],
    [
      "a reinstall",
      "distro deb12.64 → deb13.64",
      "| distro | deb12.64 → deb13.64 | none |",
      "Reinstalled",
      "refused unless the program sets `allowReinstall: true`",
    ],
    [
      "a move",
      "primaryIp 192.0.2.10 → 198.18.1.10, hostServerOid 764 → 835",
      "| hostServerOid | 764 → 835 | none |",
      "Moved, or addresses changed",
      "`pulumi refresh` records them",
    ],
    [
      "an IP address added",
      'secondaryIps [] → ["192.0.2.11"]',
      '| secondaryIps | [] → ["192.0.2.11"] | none |',
      "Moved, or addresses changed",
      "`pulumi refresh` records them",
    ],
    [
      "an IP address removed, the program setting ipCount",
      'ipCount 2 → 1, secondaryIps ["192.0.2.11"] → []',
      "| ipCount | 2 → 1 | none |",
      "Moved, or addresses changed",
      "(`pulumi up --refresh` would replace the VPS for it)",
    ],
    [
      "another data centre",
      "dcLocation DCDALLAS → DCLONDON",
      "| dcLocation | DCDALLAS → DCLONDON | none |",
      "Another data centre",
      "`pulumi up --refresh` would replace the VPS",
    ],
    [
      "a fee alone",
      "monthlyFeeUsd 10 → 11",
      "| monthlyFeeUsd | 10 → 11 | +$1.00 a month |",
      "Fee changed",
      "`pulumi refresh` records the new fee",
    ],
    [
      "a secret",
      "password",
      "| password | changed (value not shown: a secret or private) | none |",
      "Other changes",
      "`pulumi up --refresh` puts back what the program says",
    ],
  ])("%s: its row, and what repairs it", (_case, items, row, kind, advice) => {
    const line = `[rimuhosting] web: changed outside Pulumi: ${items}.`;
    const markdown = renderDrift(report(refreshJson([unchangedStep("web")], [line], { same: 1, update: 1 })));
    expect(markdown).toContain(`| web ${row}`);
    expect(markdown).toMatch(
      new RegExp(`^- \\*\\*${kind}\\*\\* \\(web\\): .*${advice.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m"),
    );
  });

  it("no drift: no rows, and says so", () => {
    const drift = report(refreshJson([unchangedStep("web")]));
    expect(drift.rows).toEqual([]);
    expect(renderDrift(drift)).toBe(
      `${DRIFT_MARKER} shop/prod -->\n**No drift** in stack \`prod\` of project \`shop\`: every VPS is as Pulumi ` +
        "recorded it.\n",
    );
  });

  it("the first line names the project and the stack: two projects' `prod` get two issues", () => {
    const other = refreshJson([unchangedStep("web")]).replace(/::shop::/g, "::blog::");
    expect(renderDrift(report(other)).split("\n", 1)[0]).toBe("<!-- rimuhosting-drift blog/prod -->");
    expect(driftKey({ project: "shop", stack: "prod" })).toBe("<!-- rimuhosting-drift shop/prod -->");
  });
});

describe("input that is no refresh's JSON", () => {
  const HOW = "make it with `pulumi refresh --preview-only --json --stack <stack> > refresh.json`.";
  it.each([
    ["", "refresh.json is empty."],
    ["Previewing refresh (prod):", "refresh.json is not JSON; it starts with: Previewing refresh (prod):."],
    ["[]", "refresh.json is a JSON array, not the object a refresh prints."],
    // A refresh stopped while it wrote (Ctrl-C, a CI job's time limit, a full disk): JSON that ends too soon.
    [
      refreshJson([unchangedStep("web")]).slice(0, 40),
      "refresh.json is cut off: its JSON ends after 40 characters, before it is complete (was the refresh " +
        "stopped while it wrote the file?).",
    ],
    [
      '{"steps": [{"op": "refresh", "urn": "urn:pulumi:prod::shop::rimuhosting:index:Vps::w',
      "refresh.json is cut off: its JSON ends after 84 characters, before it is complete (was the refresh " +
        "stopped while it wrote the file?).",
    ],
    ['{"steps": []}}', 'refresh.json is not JSON; it starts with: {"steps": []}}.'],
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
