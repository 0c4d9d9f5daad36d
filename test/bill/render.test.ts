/**
 * The bill of a preview (provider/bill/): the headline, the table of the VPSs that change (all of them folded),
 * moves, VPSs not priced (⚠️, never $0), the budgets (the stack config's and each explicit provider's, judged with
 * the provider's parser and rounding), the policy packs' verdicts and the thresholds. The logs are written by hand
 * in the shape `pulumi preview --event-log` writes (test/helpers/preview-log.ts), and one recorded from the real
 * CLI (fixtures/policy.events); test/engine/bill.test.ts records real ones on both front ends.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { billOf } from "../../provider/bill/bill";
import { parsePreviewLog } from "../../provider/bill/event-log";
import { BILL_MARKER, headline, renderBill } from "../../provider/bill/markdown";
import { billDocument } from "../../provider/bill/bill-json";
import { CONCURRENT_RUNS } from "../../provider/bill/judge";
import { outcomeOf } from "../../provider/bill/outcome";
import { billTableRows as rows } from "../helpers/bill-table";
import {
  accountLine,
  diagnostic,
  policy,
  previewLog,
  providerStep,
  vpsLog,
  vpsStep,
  type VpsSpec,
  resized,
} from "../helpers/preview-log";

const bill = (text: string) => billOf(parsePreviewLog(text, "preview.events"));
const markdown = (text: string) => renderBill(bill(text));

const RESIZE = resized(10, 16);
const KEPT: VpsSpec = { name: "cache", op: "same", fee: 30, planned: 30 };

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

describe("the budgets", () => {
  const over = (config: Record<string, string>) => bill(vpsLog([RESIZE, KEPT], config)).budgets;

  test("read as the provider reads them: 1e3, 0x10 and an empty value are refused, naming the setting", () => {
    for (const given of ["1e3", "0x10"]) {
      const [budget] = over({ "rimuhosting:monthlyBudgetUsd": given });
      expect(budget!.status).toBe("fail");
      expect(budget!.lines[0]).toBe(
        `rimuhosting:monthlyBudgetUsd must be a number of US dollars a month, 0 or more, such as 50 (given: "${given}"): fix it in the stack config.`,
      );
    }
    const [empty] = over({ "rimuhosting:monthlyBudgetUsd": " " });
    expect(empty!.status).toBe("fail");
    expect(empty!.lines[0]).toMatch(
      /^rimuhosting:monthlyBudgetUsd is empty: give a number of US dollars a month/,
    );
  });

  test("compared with the budget rounded to cents, as the provider compares", () => {
    // $46.00 after the run: a budget of 45.999 is $46.00.
    expect(over({ "rimuhosting:monthlyBudgetUsd": "45.999" })[0]!.status).toBe("pass");
    expect(over({ "rimuhosting:monthlyBudgetUsd": "45.99" })[0]!.status).toBe("fail");
  });

  test("a growth before the shrink that makes room fails at its turn, the preview's order, as the provider fails it", () => {
    // $56 → $62 (web) → $56 (db shrunk after it): the run ends on the budget, web's change goes past it first.
    const shrunk: VpsSpec = { ...resized(16, 10, 2048, 1024), name: "db" };
    const log = (first: VpsSpec, second: VpsSpec) =>
      vpsLog([first, second, KEPT], { "rimuhosting:monthlyBudgetUsd": "56" });
    const growFirst = bill(log(RESIZE, shrunk)).budgets[0]!;
    expect(growFirst.status).toBe("fail");
    expect(growFirst.lines).toEqual([
      "Monthly budget $56.00 (rimuhosting:monthlyBudgetUsd): this stack's VPSs cost $56.00 a month after this run, within it at the end, but web's change is checked before the changes that lower the fees, and each VPS is judged with the changes checked before it, as the provider judges it: at web's change they are $62.00, $6.00 over it; give web `dependsOn` the VPSs whose changes lower the fees.",
    ]);
    expect(bill(log(shrunk, RESIZE)).budgets[0]!.status).toBe("pass");
  });

  test("a run that only lowers the total passes on a stack over its budget, as the provider passes it", () => {
    const b = bill(
      vpsLog([{ ...KEPT }, { name: "old", op: "delete", fee: 10 }], { "rimuhosting:monthlyBudgetUsd": "20" }),
    );
    expect(b.budgets[0]!.status).toBe("pass");
    expect(renderBill(b)).toContain(
      "**Budget (stack config): ✅ not blocked: this run lowers or keeps the total.**",
    );
    expect(b.budgets[0]!.lines).toEqual([
      "Monthly budget $20.00 (rimuhosting:monthlyBudgetUsd): this stack's VPSs cost $40.00 a month while the VPS it deletes is still billed (a delete counts until it is made, after the run's orders and changes), $20.00 over it (this run lowers or keeps it, so it is not blocked).",
    ]);
  });

  test("each explicit provider's arguments judge its own VPSs; the stack config judges the others", () => {
    const text = previewLog({ "rimuhosting:monthlyBudgetUsd": "5" }, [
      providerStep("alice", { apiKey: "[secret]", monthlyBudgetUsd: 40 }),
      vpsStep({ name: "a1", op: "create", planned: 30, provider: "alice" }),
      vpsStep({ name: "d1", op: "create", planned: 4 }),
      // Each provider's line of its account's totals (alice's account has $5.00 of other orders).
      accountLine("a1", { before: 5, after: 35, count: 1, budget: 40 }, "alice"),
      accountLine("d1", { before: 0, after: 4, count: 1, budget: 5 }),
    ]);
    const b = bill(text);
    expect(b.budgets.map((s) => [s.provider, s.status, s.afterCents])).toEqual([
      ["alice", "pass", 3000],
      [undefined, "pass", 400],
    ]);
    const md = renderBill(b);
    expect(md).toContain("**Budget (provider `alice`): ✅ within.**");
    expect(md).toContain(
      "- Monthly budget $40.00 (provider 'alice': monthlyBudgetUsd): this run takes the account (every active order its API key reaches, other stacks' too) from $5.00 to $35.00 a month, within it ($5.00 to spare); this stack's own change is +$30.00 a month.",
    );
    expect(md).toContain(
      "- Monthly budget $5.00 (rimuhosting:monthlyBudgetUsd): this run takes the account (every active order its API key reaches, other stacks' too) from $0.00 to $4.00 a month, within it ($1.00 to spare); this stack's own change is +$4.00 a month.",
    );
    expect(rows(md).get("a1 (provider alice)")).toEqual(["create", "—", "$30.00", "+$30.00"]);
  });

  test("a budget argument that is a secret or unknown in the preview is said, not guessed", () => {
    const text = previewLog({}, [
      providerStep("bob", { monthlyBudgetUsd: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" }),
      vpsStep({ name: "b1", op: "create", planned: 30, provider: "bob" }),
    ]);
    const [budget] = bill(text).budgets;
    expect(budget!.status).toBe("warn");
    expect(budget!.lines).toEqual([
      "provider 'bob': monthlyBudgetUsd: the bill cannot read it: it is not known until the update runs.",
    ]);
  });

  test("a price not known fails an enforced budget and warns an advisory one: never $0", () => {
    const unknown: VpsSpec = { name: "new", op: "create" };
    const enforce = bill(vpsLog([unknown], { "rimuhosting:monthlyBudgetUsd": "100" })).budgets[0]!;
    expect(enforce.status).toBe("fail");
    expect(enforce.lines[0]).toContain("not judged: new not priced (never counted as $0)");
    const warn = bill(
      vpsLog([unknown], { "rimuhosting:monthlyBudgetUsd": "100", "rimuhosting:budgetEnforcement": "warn" }),
    ).budgets[0]!;
    expect(warn.status).toBe("warn");
  });

  test("an account over its budget before the run, as the provider says: no stack figure claims room to spare", () => {
    const message =
      "the account is over its monthly budget before this run changes anything: its active orders are billed " +
      "$45.00 a month (this stack's, other stacks' and any made by hand), over the monthly budget of $40.00 " +
      "(rimuhosting:monthlyBudgetUsd).";
    const b = bill(
      vpsLog([KEPT], { "rimuhosting:monthlyBudgetUsd": "40" }, [diagnostic("warning", message, "cache")]),
    );
    expect(b.budgets[0]!.status).toBe("warn");
    expect(b.budgets[0]!.lines).toEqual([
      "Monthly budget $40.00 (rimuhosting:monthlyBudgetUsd): this stack's VPSs cost $30.00 a month after this run, but the account it covers is over it before this run (the provider's figures below).",
    ]);
    expect(renderBill(b)).toContain(message);
    expect(renderBill(b)).not.toContain("to spare");
  });

  test("the provider's budget error fails the verdict and is quoted, even for a VPS the preview did not list", () => {
    const message =
      "[RIMU_ERR_BUDGET] this run takes … over the monthly budget of $5.00 (rimuhosting:monthlyBudgetUsd)";
    const b = bill(
      vpsLog([KEPT], { "rimuhosting:monthlyBudgetUsd": "50" }, [diagnostic("error", message, "late")]),
    );
    expect(b.budgets[0]!.status).toBe("fail");
    expect(b.budgets[0]!.providerMessages).toEqual([message]);
    expect(renderBill(b)).toContain(
      `The provider's verdict in the preview:\n\n\`\`\`text\n${message}\n\`\`\``,
    );
  });
});

describe("the budget on a shared account: the account's figures, this stack's own change beside them", () => {
  // Issue 64, case 7: 10 stacks' bills each said "$30.00 to spare" on a $40 account budget, one whose account would
  // end at exactly $40 too: the room was the stack's own VPSs'. The account's figures are the provider's line.
  const ACCOUNT = "this run takes the account (every active order its API key reaches, other stacks' too)";
  const budget40 = { "rimuhosting:monthlyBudgetUsd": "40" };
  const WEB: VpsSpec = { name: "web", op: "create", planned: 10 };

  test("an account that ends exactly on its budget leaves $0.00 to spare, whatever this stack's VPSs cost", () => {
    const b = bill(
      vpsLog([WEB], budget40, [accountLine("web", { before: 30, after: 40, count: 1, budget: 40 })]),
    );
    const [budget] = b.budgets;
    expect(budget!.status).toBe("pass");
    expect(budget!.lines).toEqual([
      `Monthly budget $40.00 (rimuhosting:monthlyBudgetUsd): ${ACCOUNT} from $30.00 to $40.00 a month, within it ($0.00 to spare); this stack's own change is +$10.00 a month.`,
      CONCURRENT_RUNS,
    ]);
    expect(renderBill(b)).not.toContain("$30.00 to spare");
    // The JSON carries the same figures.
    const doc = billDocument(b, outcomeOf(b, { warn: [], fail: [], quiet: [] }));
    expect(doc.budgets[0]).toMatchObject({
      lines: budget!.lines,
      account: {
        beforeCents: 3000,
        judgedCents: 4000,
        afterCents: 4000,
        spareCents: 0,
        stackChangeCents: 1000,
        deletes: 0,
      },
    });
  });

  test("a delete counts until it is made: the figure judged, and the account once it is deleted", () => {
    const b = bill(
      vpsLog([WEB, { name: "old", op: "delete", fee: 10 }], budget40, [
        accountLine("web", { before: 30, after: 40, count: 1, budget: 40 }),
      ]),
    );
    expect(b.budgets[0]!.lines[0]).toBe(
      `Monthly budget $40.00 (rimuhosting:monthlyBudgetUsd): ${ACCOUNT} from $30.00 to $40.00 a month while the VPS it deletes is still billed, within it ($0.00 to spare), and to $30.00 once it is deleted (a delete counts until it is made, after the run's orders and changes); this stack's own change is ±$0.00 a month.`,
    );
    expect(b.budgets[0]!.account).toMatchObject({ judgedCents: 4000, afterCents: 3000, deletes: 1 });
  });

  test("the figures of the check that counts the most VPSs, in whatever order the log has the lines", () => {
    const b = bill(
      vpsLog([WEB, { name: "api", op: "create", planned: 5 }], budget40, [
        accountLine("api", { before: 20, after: 35, count: 2, budget: 40 }),
        accountLine("web", { before: 20, after: 30, count: 1, budget: 40 }),
      ]),
    );
    expect(b.budgets[0]!.account).toMatchObject({ beforeCents: 2000, judgedCents: 3500, spareCents: 500 });
    // The provider's lines of information are read, not quoted as its verdict.
    expect(b.budgets[0]!.providerMessages).toEqual([]);
  });

  test("over the budget on the account's figures while this stack's VPSs alone are within: fails", () => {
    const b = bill(
      vpsLog([WEB], budget40, [accountLine("web", { before: 35, after: 45, count: 1, budget: 40 })]),
    );
    expect(b.budgets[0]!.status).toBe("fail");
    expect(b.budgets[0]!.lines[0]).toContain(`${ACCOUNT} from $35.00 to $45.00 a month, $5.00 over it;`);
  });

  test("a preview that gives no account total (an older provider): no room to spare is claimed", () => {
    const b = bill(vpsLog([WEB], budget40));
    expect(b.budgets[0]!.status).toBe("pass");
    expect(b.budgets[0]!.lines).toEqual([
      "Monthly budget $40.00 (rimuhosting:monthlyBudgetUsd): this stack's VPSs cost $10.00 a month after this run, within it; the preview gives no total of the account (every active order its API key reaches), so what is left of the budget is not known here.",
    ]);
    expect(b.budgets[0]!.account).toBeUndefined();
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
