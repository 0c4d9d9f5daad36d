/**
 * The bill of a preview (provider/bill/): the headline, the table of the VPSs that change (all of them folded),
 * moves, VPSs not priced (⚠️, never $0), the policy packs' verdicts and the thresholds (the budgets:
 * budgets.test.ts). The logs are written by hand in the shape `pulumi preview --event-log` writes
 * (test/helpers/preview-log.ts), and one recorded from the real CLI (fixtures/policy.events);
 * test/engine/bill.test.ts and bill-dynamic.test.ts record real ones on both front ends.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BILL_MARKER, headline, renderBill } from "../../provider/bill/markdown";
import { billDocument } from "../../provider/bill/bill-json";
import { outcomeOf } from "../../provider/bill/outcome";
import { billTableRows as rows } from "../helpers/bill-table";
import { diagnostic, policy, previewLog, vpsLog, vpsStep, type VpsSpec } from "../helpers/preview-log";
import { bill, KEPT, RESIZE } from "./support";

const markdown = (text: string) => renderBill(bill(text));

describe("the headline and the table", () => {
  test("the change with an arrow and a percentage; only the changed VPSs in the table, all of them folded", () => {
    const text = markdown(vpsLog([RESIZE, KEPT]));
    expect(text.startsWith(`${BILL_MARKER}: shop/prod -->\n### RimuHosting bill for stack \`prod\``)).toBe(
      true,
    );
    expect(text).toContain("\n**+$6.00 a month ▲ (+15 %)**\n");
    const [changed, all] = text.split("<details>");
    expect(rows(changed!)).toEqual(
      new Map([
        ["web", ["resize: memoryMb 1024 → 2048", "$10.00", "$16.00", "+$6.00"]],
        ["Change", ["", "$10.00", "$16.00", "+$6.00"]],
      ]),
    );
    expect(all).toContain("<summary>All 2 VPSs of the stack</summary>");
    expect(rows(all!).get("cache")).toEqual(["unchanged", "$30.00", "$30.00", "±$0.00"]);
    expect(rows(all!).get("Stack total")).toEqual(["", "$40.00", "$46.00", "+$6.00"]);
  });

  test("▼ for a fall, no arrow for no change, and no percentage from nothing", () => {
    expect(headline({ beforeCents: 4000, afterCents: 3800, unpriced: [] })).toBe("-$2.00 a month ▼ (-5 %)");
    expect(headline({ beforeCents: 4000, afterCents: 4000, unpriced: [] })).toBe(
      "No change to the monthly fees",
    );
    expect(headline({ beforeCents: 0, afterCents: 1000, unpriced: [] })).toBe("+$10.00 a month ▲");
    expect(headline({ beforeCents: 30000, afterCents: 30100, unpriced: [] })).toBe(
      "+$1.00 a month ▲ (+0.3 %)",
    );
  });

  test("a move is labelled a move (a new host), with a resize beside it when both change", () => {
    const move: VpsSpec = {
      name: "db",
      op: "update",
      fee: 10,
      planned: 10,
      old: { hostServerOid: "12" },
      news: { hostServerOid: "34" },
    };
    const both: VpsSpec = {
      name: "api",
      op: "update",
      fee: 10,
      planned: 16,
      old: { hostServerOid: "12", memoryMb: 1024 },
      news: { hostServerOid: "34", memoryMb: 2048 },
    };
    const table = rows(markdown(vpsLog([move, both])));
    expect(table.get("db")?.[0]).toBe("move: hostServerOid 12 → 34");
    expect(table.get("api")?.[0]).toBe("move and resize: hostServerOid 12 → 34, memoryMb 1024 → 2048");
  });

  test("a VPS not priced is ⚠️ with the provider's reason and a 'not priced' line, and no $0 anywhere", () => {
    const unknown: VpsSpec = {
      name: "web",
      op: "update",
      fee: 10,
      old: { memoryMb: 1024 },
      news: { memoryMb: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" },
    };
    const text = markdown(
      vpsLog([unknown, { ...KEPT, fee: 8, planned: 8 }], {}, [
        diagnostic(
          "info",
          "web: resize 1024 → 0 MB: price not quoted: memoryMb not known until the update runs.",
          "web",
        ),
      ]),
    );
    expect(text).toContain("\n**⚠️ The monthly change is not known: 1 VPS is not priced**\n");
    const table = rows(text.split("<details>")[0]!);
    expect(table.get("web")).toEqual([
      "resize: memoryMb (known after up)",
      "$10.00",
      "⚠️ not priced [1]",
      "⚠️",
    ]);
    expect(table.get("⚠️ Not priced")).toEqual(["1 VPS: `web`", "", "", "not counted"]);
    expect(text).toContain("[1] `web`: not priced: memoryMb not known until the update runs.");
    // Only the unchanged VPS's own row may say ±$0.00: nothing about the VPS not priced, nor any total, is $0.
    const others = text.split("\n").filter((line) => !line.startsWith("| `cache` | unchanged |"));
    expect(others.join("\n")).not.toMatch(/\$0(\.00)?\b/);
  });

  test("a plan priced in another currency only: the footnote gives the preview's quote and why it is not counted", () => {
    // Issue 55, item 7c: the footnote said "the preview carries no quote for it" though the preview printed one.
    const nzd: VpsSpec = { name: "big", op: "create", news: { pricingPlanCode: "MIRO8B" } };
    const text = markdown(
      vpsLog([nzd], {}, [
        diagnostic("info", "big: new VPS: NZ$18.00 a month (quoted by RimuHosting).", "big"),
      ]),
    );
    expect(text).toContain(
      "[1] `big`: not priced: RimuHosting priced it as NZ$18.00 with no USD amount, and fees are counted in USD.",
    );
    expect(text).not.toContain("carries no quote");
  });

  test("an adopted order's growth counts from what it is billed now (the provider's adoption line)", () => {
    const adopted: VpsSpec = { name: "kept", op: "create", news: { adoptOrderOid: 123 }, planned: 16 };
    const b = bill(
      vpsLog([adopted], { "rimuhosting:maxMonthlyIncreaseUsd": "5" }, [
        diagnostic("info", "kept: adopting order 123: $10.00 → $16.00 a month (+$6.00)", "kept"),
      ]),
    );
    expect(rows(renderBill(b)).get("kept")).toEqual(["adopt", "$10.00", "$16.00", "+$6.00"]);
    expect(b.budgets[0]!.increaseCents).toBe(600);
    expect(b.budgets[0]!.status).toBe("fail");
  });
});

describe("the bill of a preview that failed", () => {
  // Issue 55, item 7d: such a bill showed $0.00 figures, the totals of what the preview got to, as if complete.
  const refusal =
    "[RIMU_ERR_BUDGET] this run takes the account's monthly fees (…) from $0.00 to $30.00, over the monthly budget " +
    "of $25.00 (rimuhosting:monthlyBudgetUsd)";
  const failed = (specs: VpsSpec[]) =>
    markdown(
      vpsLog(specs, { "rimuhosting:monthlyBudgetUsd": "25", "rimuhosting:maxMonthlyIncreaseUsd": "20" }, [
        diagnostic("error", refusal, "web-3"),
      ]),
    );

  test("stopped before any VPS: no figure of its own, only the provider's words", () => {
    const text = failed([]);
    expect(text.replace(refusal, "")).not.toMatch(/\$0\.00/);
    expect(text).toContain(
      "- Monthly budget $25.00 (rimuhosting:monthlyBudgetUsd): not judged: the preview stopped before it listed " +
        "any VPS (the provider's verdict is below).",
    );
  });

  test("stopped after some: what it listed, with totals and budget lines marked incomplete", () => {
    const text = failed([
      { name: "web-1", op: "create", planned: 10 },
      { name: "db", op: "same", fee: 10, planned: 10 },
    ]);
    expect(text).toContain("**So far: +$10.00 a month ▲ (+100 %)**");
    expect(rows(text.split("<details>")[0]!).get("Listed before it stopped (incomplete)")).toEqual([
      "",
      "$0.00",
      "$10.00",
      "+$10.00",
    ]);
    expect(rows(text.split("<details>")[1]!).has("Listed before it stopped (incomplete)")).toBe(true);
    expect(text).not.toContain("Stack total");
    expect(text).toContain(
      "- Monthly budget $25.00 (rimuhosting:monthlyBudgetUsd): the 2 VPSs the preview listed before it stopped " +
        "cost $20.00 a month after this run (incomplete: the VPSs after them are not counted), not judged: the " +
        "preview stopped before the end (the provider's verdict is below).",
    );
  });
});

describe("the policy packs", () => {
  test("each finding of a pack, read from a real event log (CLI v3.259.0, the dynamic Vps)", () => {
    const text = fs.readFileSync(path.join(__dirname, "fixtures/policy.events"), "utf8");
    const md = markdown(text);
    expect(md).toContain(
      "**Policy pack `rimuhosting-guard` 0.1.0: ❌ 2 mandatory violations, ⚠️ 1 advisory.**",
    );
    expect(md).toContain(
      '- ❌ `allowed-data-centres` (mandatory) on `c`: VPS "c" is in DCLONDON, which is not an allowed data centre (allowed: DCDALLAS).',
    );
    expect(md).toContain('- ⚠️ `max-memory-mb` (advisory) on `a`: VPS "a" has 2048 MB of memory');
    expect(md).toContain(
      "- ❌ `monthly-budget` (mandatory) on the stack: The stack's 2 VPSs would cost $27.00 a month",
    );
  });

  test("a pack with no finding passes; no pack says how to add one", () => {
    const passed = previewLog({}, [vpsStep(KEPT)], { packs: true });
    expect(markdown(passed)).toContain("**Policy pack `rimuhosting-guard` 0.1.0: ✅ no violations.**");
    expect(markdown(vpsLog([KEPT]))).toContain("**Policy packs:** none ran in this preview");
    const advisory = previewLog(
      {},
      [vpsStep(KEPT), policy("max-memory-mb", "advisory", "too big", "cache")],
      { packs: true },
    );
    expect(markdown(advisory)).toContain("**Policy pack `rimuhosting-guard` 0.1.0: ⚠️ advisory only.**");
  });
});

describe("a VPS cancelled outside Pulumi at the end of its period (issue 82)", () => {
  // The provider's warning in the preview (provider/impl/lifecycle/gone-order.ts), as the CLI records it.
  const warned = vpsLog([KEPT], {}, [
    diagnostic(
      "warning",
      "cache: RimuHosting will cancel VPS order 1234 at 2026-12-10T12:00:00.000Z: it was cancelled at the end of " +
        "its billing period outside Pulumi, and runs until then. To keep it, ask RimuHosting's support to undo the " +
        "cancellation before then (its API cannot); after it, `pulumi up --refresh` orders a new VPS (a new IP " +
        "address and an empty disk).",
      "cache",
    ),
  ]);

  test("the bill says when it ends and its fee stops, never only 'No change', and is never quiet", () => {
    const b = bill(warned);
    const md = renderBill(b);
    expect(md).toContain("**No change to the monthly fees**");
    expect(md).toContain(
      "⚠️ **Cancelled outside Pulumi.** RimuHosting ends `cache` at 2026-12-10T12:00:00.000Z, though this run keeps " +
        "it: its $30.00 a month stops then, and the VPS with it (the preview's warning says how to keep it).",
    );
    const limits = { warn: [], fail: [], quiet: [{ cents: 100 }] };
    expect(outcomeOf(b, limits)).toMatchObject({ quiet: false, status: "warn" });
    expect(outcomeOf(bill(vpsLog([KEPT])), limits).quiet).toBe(true);
    expect(billDocument(b, outcomeOf(b, limits)).vpss.map((v) => v.endsAt)).toEqual([
      "2026-12-10T12:00:00.000Z",
    ]);
  });
});
