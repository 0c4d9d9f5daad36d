/**
 * The table of cases three-judges.test.ts gives each judge of the budget: per case, the budget's settings and each
 * VPS with what the run does to it and its fee now and after, and the verdict and figures every judge must give.
 */
import type { BudgetSetting } from "../../provider/impl/cost/setting";
import type { ChangeKind } from "../../provider/bill/fee";

export type Verdict = "fail" | "warn" | "pass" | "none";

/** One VPS of a case: what the run does to it, its fee now and after (USD; "unknown": not priced). */
export interface Row {
  name: string;
  kind: ChangeKind;
  now?: number;
  after?: number | "unknown";
}

export interface Case {
  title: string;
  settings: Partial<Record<BudgetSetting, string>>;
  vpss: Row[];
  verdict: Verdict;
  afterCents: number;
  increaseCents: number;
  /**
   * The guard's verdict where it differs: it makes the changes that add nothing first (guardJudges), so it never sees
   * a growing change before the shrink that makes room; in a real run it is reached only after a preview that passed.
   */
  guard?: Verdict;
}

export const KEPT: Row = { name: "kept", kind: "same", now: 10, after: 10 };

export const CASES: Case[] = [
  {
    title: "create within the budget",
    settings: { monthlyBudgetUsd: "30" },
    vpss: [KEPT, { name: "web", kind: "create", after: 19.2 }],
    verdict: "pass",
    afterCents: 2920,
    increaseCents: 1920,
  },
  {
    title: "create over the budget",
    settings: { monthlyBudgetUsd: "29.19" },
    vpss: [KEPT, { name: "web", kind: "create", after: 19.2 }],
    verdict: "fail",
    afterCents: 2920,
    increaseCents: 1920,
  },
  {
    title: "resize over the budget",
    settings: { monthlyBudgetUsd: "25" },
    vpss: [KEPT, { name: "db", kind: "resize", now: 12, after: 19.2 }],
    verdict: "fail",
    afterCents: 2920,
    increaseCents: 720,
  },
  {
    title: "a shrink on a stack over the budget: never blocked",
    settings: { monthlyBudgetUsd: "20" },
    vpss: [KEPT, { name: "db", kind: "resize", now: 19.2, after: 12 }],
    verdict: "pass",
    afterCents: 2200,
    increaseCents: 0,
  },
  {
    title: "move to another host, at its quote",
    settings: { monthlyBudgetUsd: "23" },
    vpss: [KEPT, { name: "db", kind: "move", now: 12, after: 12.5 }],
    verdict: "pass",
    afterCents: 2250,
    increaseCents: 50,
  },
  {
    title: "replacement counted once: its quote less what the replaced VPS is billed",
    settings: { monthlyBudgetUsd: "30", maxMonthlyIncreaseUsd: "8" },
    vpss: [KEPT, { name: "db", kind: "replace", now: 12, after: 19.2 }],
    verdict: "pass",
    afterCents: 2920,
    increaseCents: 720,
  },
  {
    title:
      "a replacement and a new VPS landing on the budget: the replaced order counted once, until cancelled",
    settings: { monthlyBudgetUsd: "32" },
    vpss: [
      KEPT,
      { name: "db", kind: "replace", now: 12, after: 12 },
      { name: "web", kind: "create", after: 10 },
    ],
    verdict: "pass",
    afterCents: 3200,
    increaseCents: 1000,
  },
  {
    title: "a shrink and a create landing exactly on the budget",
    settings: { monthlyBudgetUsd: "32" },
    vpss: [
      KEPT,
      { name: "db", kind: "resize", now: 19.2, after: 12 },
      { name: "web", kind: "create", after: 10 },
    ],
    verdict: "pass",
    afterCents: 3200,
    increaseCents: 1000,
  },
  {
    title:
      "a growing change checked before the shrink that makes room, landing exactly on the budget: each judge " +
      "judges it at its turn ($48.40), in the preview's order, and fails it (I5)",
    settings: { monthlyBudgetUsd: "41.20" },
    vpss: [
      KEPT,
      { name: "grows", kind: "resize", now: 12, after: 19.2 },
      { name: "shrinks", kind: "resize", now: 19.2, after: 12 },
    ],
    verdict: "fail",
    afterCents: 4120,
    increaseCents: 720,
    guard: "pass",
  },
  {
    title: "a shrink and a create a cent over the budget",
    settings: { monthlyBudgetUsd: "31.99" },
    vpss: [
      KEPT,
      { name: "db", kind: "resize", now: 19.2, after: 12 },
      { name: "web", kind: "create", after: 10 },
    ],
    verdict: "fail",
    afterCents: 3200,
    increaseCents: 1000,
  },
  {
    title: "import: billed now, the same after, over a budget it does not grow",
    settings: { monthlyBudgetUsd: "40" },
    vpss: [KEPT, { name: "old", kind: "import", now: 45, after: 45 }],
    verdict: "pass",
    afterCents: 5500,
    increaseCents: 0,
  },
  {
    title: "adopt: the adopted order's growth counts",
    settings: { maxMonthlyIncreaseUsd: "5" },
    vpss: [KEPT, { name: "adopted", kind: "adopt", now: 12, after: 19.2 }],
    verdict: "fail",
    afterCents: 2920,
    increaseCents: 720,
  },
  {
    title: "unknown price: never $0, fails in enforce mode",
    settings: { monthlyBudgetUsd: "1000" },
    vpss: [KEPT, { name: "web", kind: "create", after: "unknown" }],
    verdict: "fail",
    afterCents: 1000,
    increaseCents: 0,
  },
  {
    title: "unknown price in warn mode: a warning",
    settings: { monthlyBudgetUsd: "1000", budgetEnforcement: "warn" },
    vpss: [KEPT, { name: "web", kind: "create", after: "unknown" }],
    verdict: "warn",
    afterCents: 1000,
    increaseCents: 0,
  },
  {
    title: "threshold by amount: the increase over maxMonthlyIncreaseUsd, shrinks not netted",
    settings: { maxMonthlyIncreaseUsd: "7" },
    vpss: [
      { name: "grows", kind: "resize", now: 12, after: 19.2 },
      { name: "shrinks", kind: "resize", now: 19.2, after: 12 },
    ],
    verdict: "fail",
    afterCents: 3120,
    increaseCents: 720,
  },
  {
    title: "over the budget in warn mode: a warning",
    settings: { monthlyBudgetUsd: "20", budgetEnforcement: "warn" },
    vpss: [KEPT, { name: "web", kind: "create", after: 19.2 }],
    verdict: "warn",
    afterCents: 2920,
    increaseCents: 1920,
  },
  {
    title: "compared with the budget rounded to cents",
    settings: { monthlyBudgetUsd: "29.195" },
    vpss: [KEPT, { name: "web", kind: "create", after: 19.2 }],
    verdict: "pass",
    afterCents: 2920,
    increaseCents: 1920,
  },
  {
    title: "a run that only deletes, on a stack over its budget: passes",
    settings: { monthlyBudgetUsd: "5" },
    vpss: [KEPT, { name: "gone", kind: "delete", now: 12 }],
    verdict: "pass",
    afterCents: 2200,
    increaseCents: 0,
  },
  {
    title: "a delete and a create landing exactly on the budget: the delete counts until it is made",
    settings: { monthlyBudgetUsd: "32" },
    vpss: [KEPT, { name: "gone", kind: "delete", now: 12 }, { name: "web", kind: "create", after: 10 }],
    verdict: "pass",
    afterCents: 3200,
    increaseCents: 1000,
  },
  {
    title: "a delete and a create a cent over the budget at the run's highest point (under it once deleted)",
    settings: { monthlyBudgetUsd: "31.99" },
    vpss: [KEPT, { name: "gone", kind: "delete", now: 12 }, { name: "web", kind: "create", after: 10 }],
    verdict: "fail",
    afterCents: 3200,
    increaseCents: 1000,
  },
  {
    title: "no limit set",
    settings: {},
    vpss: [KEPT, { name: "web", kind: "create", after: 19.2 }],
    verdict: "none",
    afterCents: 2920,
    increaseCents: 1920,
  },
];

export const priced = (row: Row): number | undefined =>
  typeof row.after === "number" ? row.after : undefined;

export interface Judged {
  verdict: Verdict;
  afterCents: number;
  increaseCents: number;
}
