/**
 * monthly-budget (policy-pack/monthly-budget.ts), called the way @pulumi/policy calls it (./support.ts): each VPS's
 * fees from the checked inputs the engine hands the pack, the stack's verdict by the cost model's rules, the VPSs
 * the run deletes read from the stack's state, and each pack's readings its own.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import {
  monthlyBudgetPolicy,
  packPolicies,
  type StackPolicyReadingResources,
} from "../../policy-pack/policies";
import { recordedVpssOf, setStackStateReader } from "../../policy-pack/stack-state";
import { DYNAMIC, NATIVE, judge, judgeStack, props } from "./support";

describe("monthly-budget", () => {
  // Each test is a pack of its own (monthlyBudgetPolicy keeps what the engine handed it).
  let monthlyBudget: StackPolicyReadingResources;
  beforeEach(() => {
    monthlyBudget = monthlyBudgetPolicy();
  });
  // The stack's state (stack-state.ts): none of its VPSs deleted by the run unless a test says so.
  beforeEach(() => setStackStateReader(() => ({ vpss: [] })));
  afterEach(() => setStackStateReader(undefined));

  it("counts a VPS of the state the run deletes at its fee now, until it is deleted (I5)", () => {
    const gone = { urn: "urn:x::gone", name: "gone", feeUsd: 12 };
    setStackStateReader(() => ({ vpss: [gone, { urn: "urn:x::web", name: "web", feeUsd: 30.5 }] }));
    const run = [{ name: "web", props: { plannedMonthlyFeeUsd: 30.5, currentMonthlyFeeUsd: 30.5 } }];
    const adds = [...run, { name: "new", props: { plannedMonthlyFeeUsd: 10 } }];
    // $30.50 + $10 once gone is deleted, but $52.50 while it is billed: over $52.49, within $52.50.
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 52.5 }, adds)).toEqual([]);
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 52.49 }, adds)).toEqual([
      expect.stringContaining(
        "The stack's 3 VPSs would cost $52.50 a month while the VPS it deletes is still billed (a delete counts " +
          "until it is made, after the run's orders and changes), over the budget of $52.49",
      ),
    ]);
    // A run that adds nothing is never blocked, and does not read the state.
    setStackStateReader(() => ({ why: "never read" }));
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 1 }, run)).toEqual([]);
  });

  it("cannot read the state when it could tip the verdict: says so, never passes in silence", () => {
    setStackStateReader(() => ({ why: "`pulumi stack export --stack dev` failed: no stack named dev" }));
    expect(
      judgeStack(monthlyBudget, { maxMonthlyUsd: 100 }, [
        { name: "new", props: { plannedMonthlyFeeUsd: 10 } },
      ]),
    ).toEqual([
      "monthly-budget could not judge the stack's monthly fee: the VPSs this run deletes, billed until they are " +
        "deleted, could not be read (`pulumi stack export --stack dev` failed: no stack named dev). Run the preview " +
        "where `pulumi stack export` can read the stack, or delete those VPSs in a run of their own first.",
    ]);
  });

  it("reads a state's VPSs as `pulumi stack export` prints them: URN, name, recorded fee; none pending deletion", () => {
    const exported = {
      deployment: {
        resources: [
          {
            urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev",
            type: "pulumi:pulumi:Stack",
            custom: false,
          },
          {
            urn: "urn:pulumi:dev::p::rimuhosting:index:Vps::web",
            type: NATIVE,
            custom: true,
            outputs: { monthlyFeeUsd: 12 },
          },
          {
            urn: "urn:pulumi:dev::p::rimuhosting:index:Vps::old",
            type: NATIVE,
            custom: true,
            delete: true,
            outputs: {},
          },
          {
            urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/rimuhosting:Vps::db",
            type: DYNAMIC,
            custom: true,
            outputs: {},
          },
        ],
      },
    };
    expect(recordedVpssOf(exported)).toEqual([
      { urn: "urn:pulumi:dev::p::rimuhosting:index:Vps::web", name: "web", feeUsd: 12 },
      { urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/rimuhosting:Vps::db", name: "db" },
    ]);
  });

  const stack = [
    { name: "web", props: { plannedMonthlyFeeUsd: 30.5 } },
    { name: "db", props: { plannedMonthlyFeeUsd: 60 }, type: DYNAMIC },
    { name: "cache", props: { plannedMonthlyFeeUsd: 10 } },
    { name: "id", props: { hex: "ab" }, type: "random:index/randomId:RandomId" },
  ];

  it("refuses a limit above $1,000,000,000 a month (Infinity too: JSON reads 401 digits as it), naming it", () => {
    // Item 7a of issue 55: a huge limit passed every run as "$Infinity"; the provider refuses it the same way.
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: Infinity }, stack)).toEqual([
      "monthly-budget.maxMonthlyUsd is over 1000000000, the largest budget accepted (US dollars a month; given: " +
        "Infinity): give a number from 0 to 1000000000, such as 50, or remove it to set no limit; fix it in the " +
        "policy pack's config.",
    ]);
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 100.5, maxMonthlyIncreaseUsd: 2e9 }, stack)).toEqual([
      "monthly-budget.maxMonthlyIncreaseUsd is over 1000000000, the largest budget accepted (US dollars a month; " +
        "given: 2000000000): give a number from 0 to 1000000000, such as 50, or remove it to set no limit; fix " +
        "it in the policy pack's config.",
    ]);
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 1e9 }, stack)).toEqual([]);
    expect(monthlyBudget.configSchema?.properties?.maxMonthlyUsd).toMatchObject({ maximum: 1e9 });
  });

  it("passes a total at or under the budget", () => {
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 100.5 }, stack)).toEqual([]);
  });

  it("adds fees in whole cents: $10.30 + $10.40 is within a budget of $20.70", () => {
    const twoFees = [
      { name: "web", props: { plannedMonthlyFeeUsd: 10.3 } },
      { name: "db", props: { plannedMonthlyFeeUsd: 10.4 } },
    ];
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 20.7 }, twoFees)).toEqual([]);
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 20.69 }, twoFees)).toEqual([
      "The stack's 2 VPSs would cost $20.70 a month after this change, over the budget of $20.69 " +
        "(monthly-budget.maxMonthlyUsd) by $0.01. Adding the most: db +$10.40 (new), web +$10.30 (new). " +
        "Order smaller or fewer VPSs, or raise the limit in the policy pack's config.",
    ]);
  });

  it("reports a total over the budget with the total, the budget, the excess and the VPSs adding the most", () => {
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 100 }, stack)).toEqual([
      "The stack's 3 VPSs would cost $100.50 a month after this change, over the budget of $100.00 " +
        "(monthly-budget.maxMonthlyUsd) by $0.50. Adding the most: db +$60.00 (new), web +$30.50 (new), " +
        "cache +$10.00 (new). Order smaller or fewer VPSs, or raise the limit in the policy pack's config.",
    ]);
  });

  it("reports a change that adds more than maxMonthlyIncreaseUsd; shrinks are not netted", () => {
    const resized = [
      { name: "web", props: { currentMonthlyFeeUsd: 12, plannedMonthlyFeeUsd: 19.2 } },
      { name: "db", props: { currentMonthlyFeeUsd: 19.2, plannedMonthlyFeeUsd: 12 } },
    ];
    expect(judgeStack(monthlyBudget, { maxMonthlyIncreaseUsd: 7.2 }, resized)).toEqual([]);
    expect(judgeStack(monthlyBudget, { maxMonthlyIncreaseUsd: 7 }, resized)).toEqual([
      "This change adds $7.20 a month (new VPSs and growing changes; shrinks are not netted), over the $7.00 one " +
        "change may add (monthly-budget.maxMonthlyIncreaseUsd) by $0.20. Adding the most: web +$7.20 " +
        "($12.00 → $19.20). Order smaller or fewer VPSs, or raise the limit in the policy pack's config.",
    ]);
  });

  it("judges each VPS at its turn, in the order the preview checks them: a growth before the shrink that makes room fails", () => {
    // The stack ends at $41.20, exactly its budget; at web's turn (db not shrunk yet) it is at $48.40.
    const growFirst = [
      { name: "kept", props: { currentMonthlyFeeUsd: 10, plannedMonthlyFeeUsd: 10 } },
      { name: "web", props: { currentMonthlyFeeUsd: 12, plannedMonthlyFeeUsd: 19.2 } },
      { name: "db", props: { currentMonthlyFeeUsd: 19.2, plannedMonthlyFeeUsd: 12 } },
    ];
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 41.2 }, growFirst)).toEqual([
      "The stack's VPSs would cost $48.40 a month at VPS \"web\"'s change, which is checked before the changes " +
        "that lower the fees (the run ends at $41.20; each VPS is judged with the changes checked before it, as " +
        "the provider judges it), over the budget of $41.20 (monthly-budget.maxMonthlyUsd) " +
        'by $7.20. Adding the most: web +$7.20 ($12.00 → $19.20). Give VPS "web" `dependsOn` the VPSs whose ' +
        "changes lower the fees (it is then checked after them), order smaller or fewer VPSs, or raise the limit " +
        "in the policy pack's config.",
    ]);
    const shrinkFirst = [growFirst[0]!, growFirst[2]!, growFirst[1]!];
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 41.2 }, shrinkFirst)).toEqual([]);
  });

  it("never fails a change that lowers or keeps the total, even on a stack over its budget", () => {
    const shrinking = [
      { name: "kept", props: { currentMonthlyFeeUsd: 45, plannedMonthlyFeeUsd: 45 } },
      { name: "db", props: { currentMonthlyFeeUsd: 19.2, plannedMonthlyFeeUsd: 12 } },
    ];
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 20 }, shrinking)).toEqual([]);
  });

  it("says it could not judge when a VPS's planned fee is absent or unknown", () => {
    const unknownFee = [...stack, { name: "new", props: props({}, ["plannedMonthlyFeeUsd"]) }];
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 1000 }, unknownFee)).toEqual([
      'monthly-budget could not judge the stack\'s monthly fee: the fee of VPS "new" is not known in this ' +
        "preview (the provider gives no plannedMonthlyFeeUsd when an input is unknown, the quote failed, or its " +
        "currency cannot be converted). Give those VPSs inputs known before the update, or see the preview's " +
        "warnings for why the quote failed.",
    ]);
    expect(judgeStack(monthlyBudget, { maxMonthlyUsd: 1000 }, [{ name: "web", props: {} }])).toHaveLength(1);
  });

  it("counts an unchanged VPS, whose outputs lack the planned fee, at the fees of its checked inputs", () => {
    // The engine hands each resource's checked inputs to the pack first; an unchanged VPS's outputs are its state.
    const checked = { plannedMonthlyFeeUsd: 45, currentMonthlyFeeUsd: 45 };
    expect(judge(monthlyBudget, { maxMonthlyUsd: 50 }, checked, NATIVE, "old")).toEqual([]);
    expect(
      judgeStack(monthlyBudget, { maxMonthlyUsd: 50 }, [
        { name: "old", props: { monthlyFeeUsd: 45 } },
        { name: "new", props: { plannedMonthlyFeeUsd: 10 } },
      ]),
    ).toEqual([
      "The stack's 2 VPSs would cost $55.00 a month after this change, over the budget of $50.00 " +
        "(monthly-budget.maxMonthlyUsd) by $5.00. Adding the most: new +$10.00 (new). " +
        "Order smaller or fewer VPSs, or raise the limit in the policy pack's config.",
    ]);
  });

  it("under --target, a VPS the run does not check counts at its fee now, never as new (recorded inputs)", () => {
    // Issue 55, item 7e: the engine hands the pack an unchecked VPS's recorded inputs, from the run that ordered
    // it (a planned fee, no fee now), which the provider stamped with that run's deployment (the engine's address).
    const argv = process.argv;
    process.argv = ["node", "run-policy-pack", "127.0.0.1:40001", "."];
    try {
      const thisRun = { checkedInDeployment: "127.0.0.1:40001" };
      judge(
        monthlyBudget,
        {},
        { plannedMonthlyFeeUsd: 10, checkedInDeployment: "127.0.0.1:39999" },
        NATIVE,
        "db",
      );
      judge(
        monthlyBudget,
        {},
        { plannedMonthlyFeeUsd: 16, currentMonthlyFeeUsd: 10, ...thisRun },
        NATIVE,
        "web",
      );
      judge(monthlyBudget, {}, { plannedMonthlyFeeUsd: 5, ...thisRun }, NATIVE, "cache");
      expect(
        judgeStack(monthlyBudget, { maxMonthlyIncreaseUsd: 0 }, [
          { name: "db", props: { monthlyFeeUsd: 10 } },
          { name: "web", props: { monthlyFeeUsd: 10 } },
          { name: "cache", props: {} },
        ]),
      ).toEqual([
        "This change adds $11.00 a month (new VPSs and growing changes; shrinks are not netted), over the $0.00 " +
          "one change may add (monthly-budget.maxMonthlyIncreaseUsd) by $11.00. Adding the most: web +$6.00 " +
          "($10.00 → $16.00), cache +$5.00 (new). Order smaller or fewer VPSs, or raise the limit in the policy " +
          "pack's config.",
      ]);
    } finally {
      process.argv = argv;
    }
  });

  it("each pack keeps its own readings: what the engine handed one pack is not another's", () => {
    const [first, second] = [packPolicies().monthlyBudget, packPolicies().monthlyBudget];
    judge(first, {}, { plannedMonthlyFeeUsd: 45, currentMonthlyFeeUsd: 45 }, NATIVE, "old");
    const stack = [
      { name: "old", props: { monthlyFeeUsd: 45 } },
      { name: "new", props: { plannedMonthlyFeeUsd: 10 } },
    ];
    expect(judgeStack(first, { maxMonthlyUsd: 50 }, stack)).toEqual([
      expect.stringMatching(/^The stack's 2 VPSs would cost \$55\.00 a month after this change/),
    ]);
    // The second pack was handed nothing: the fee "old" will be billed is not known to it.
    expect(judgeStack(second, { maxMonthlyUsd: 50 }, stack)).toEqual([
      expect.stringMatching(
        /^monthly-budget could not judge the stack's monthly fee: the fee of VPS "old" is not known/,
      ),
    ]);
  });

  it("is not applicable without a budget", () => {
    expect(judgeStack(monthlyBudget, {}, stack)).toBe(
      "not applicable: no budget configured (monthly-budget.maxMonthlyUsd or monthly-budget.maxMonthlyIncreaseUsd)",
    );
  });
});
