/**
 * The budgets in the bill of a preview (provider/bill/judge.ts): the stack config's and each explicit provider's,
 * read with the provider's parser and judged with its rounding, and on a shared account the account's figures from
 * the provider's line with this stack's own change beside them. The logs are written by hand in the shape
 * `pulumi preview --event-log` writes (test/helpers/preview-log.ts); the rest of the bill: render.test.ts.
 */
import { renderBill } from "../../provider/bill/markdown";
import { billDocument } from "../../provider/bill/bill-json";
import { CONCURRENT_RUNS } from "../../provider/bill/judge";
import { outcomeOf } from "../../provider/bill/outcome";
import { billTableRows as rows } from "../helpers/bill-table";
import {
  accountLine,
  diagnostic,
  previewLog,
  providerStep,
  vpsLog,
  vpsStep,
  type VpsSpec,
  resized,
} from "../helpers/preview-log";
import { bill, KEPT, RESIZE } from "./support";

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
