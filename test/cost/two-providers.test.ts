/**
 * Two explicit providers on one account, each with its budget and two new VPSs ($10 each in the emulator's Dallas):
 * a row of the test/cost tables (docs/cost.md, "What a budget covers"), where every judge must block the run or let
 * it through alike, as test/engine/budget-shared-account.test.ts's CLI run of the same program shows:
 *
 * - the preview: each provider's checks with the preview flag, provider A's then provider B's, in one command (the
 *   engine checks one resource at a time; either order gives the verdict, carried by whichever VPS goes over);
 * - the guard at ordering: each provider's creates, A's then B's, as the update of `pulumi up --skip-preview`;
 * - the bill: each budget on its provider's VPSs and messages; the run fails when one budget fails;
 * - the pack: monthly-budget on the stack's four VPSs, with each provider's budget as its limit.
 *
 * One jest process hosts both providers: each is configured in turn (the configuration is a process's), and each
 * checks in a run of its own, as each provider has a process of its own; the runs share the command's plan
 * (account/shared-plan.ts), which names each entry by the run that wrote it.
 */
import { describe, expect, it } from "@jest/globals";
import * as impl from "../../provider/impl/index";
import * as testing from "../../provider/impl/testing";
import type { VpsInputs } from "../../provider/impl/inputs/vps-input-schema";
import { APP_INPUTS, stackConfig, useImplFixture } from "../provider/support/impl-fixture";
import { billOf, packBlocks, type Checked, type Settings } from "./judges";

interface Case {
  title: string;
  /** Each provider's monthlyBudgetUsd; each has two new VPSs. */
  budgets: { a: string; b: string };
  blocks: boolean;
}

const CASES: Case[] = [
  {
    title: "budgets that hold each provider's two VPSs, not the account's four: every judge refuses",
    budgets: { a: "20", b: "35" },
    blocks: true,
  },
  {
    title: "budgets that hold the account's four: every judge passes",
    budgets: { a: "40", b: "40" },
    blocks: false,
  },
];

const fixture = useImplFixture();

const PROVIDERS = ["a", "b"] as const;
type Provider = (typeof PROVIDERS)[number];

const inputsOf = (provider: Provider, i: number): VpsInputs => ({
  ...APP_INPUTS,
  domainName: `team-${provider}-${i}.providers.example.com`,
  creationScope: `two-providers/team-${provider}-${i}`,
});

/** Provider `provider` in a process of its own: its settings, and a new run (of the same command, or a new one). */
async function become(
  c: Case,
  provider: Provider,
  command: "new command" | "same command",
): Promise<Settings> {
  const settings: Settings = { monthlyBudgetUsd: c.budgets[provider] };
  const base = stackConfig(fixture().emulator.baseUrl);
  await impl.configure({
    config: {
      get: (key) => (key === "rimuhosting:monthlyBudgetUsd" ? settings.monthlyBudgetUsd : base.get(key)),
    },
  });
  testing.forgetRun({ sameCommand: command === "same command" });
  return settings;
}

interface ProviderPreview {
  settings: Settings;
  blocks: boolean;
  messages: { severity: string; message: string }[];
  checked: Checked[];
}

/** The preview: each provider's two VPSs checked with the preview flag, A's then B's, in one command. */
async function preview(c: Case): Promise<ProviderPreview[]> {
  const out: ProviderPreview[] = [];
  for (const provider of PROVIDERS) {
    const settings = await become(c, provider, provider === "a" ? "new command" : "same command");
    const one: ProviderPreview = { settings, blocks: false, messages: [], checked: [] };
    for (const i of [1, 2]) {
      const result = await impl.checkVps({}, { ...inputsOf(provider, i), __preview: true });
      one.blocks ||= result.failures.some((f) => f.code === "RIMU_ERR_BUDGET");
      one.messages.push(...result.failures.map((f) => ({ severity: "error", message: f.reason })));
      one.checked.push({ name: `team-${provider}-${i}`, kind: "create", inputs: result.inputs });
    }
    out.push(one);
  }
  return out;
}

/** The guard: each provider's creates, A's then B's (the update with no preview before it): whether one is refused. */
async function guardBlocks(c: Case): Promise<boolean> {
  let refused = false;
  for (const provider of PROVIDERS) {
    await become(c, provider, provider === "a" ? "new command" : "same command");
    for (const i of [1, 2]) {
      const checked = await impl.check({}, inputsOf(provider, i));
      refused ||= await impl.create(checked.inputs).then(
        () => false,
        (error: Error) => /^\[RIMU_ERR_BUDGET\]/.test(error.message),
      );
    }
  }
  return refused;
}

describe("two explicit providers on one account: every judge alike", () => {
  it.each(CASES.map((c) => [c.title, c] as const))("%s", async (_title, c) => {
    const previewed = await preview(c);
    const stack = previewed.flatMap((p) => p.checked);
    const judged = {
      preview: previewed.some((p) => p.blocks),
      bill: previewed.some(
        (p, i) =>
          billOf({
            settings: p.settings,
            provider: `team-${PROVIDERS[i]}`,
            checked: p.checked,
            messages: p.messages,
            complete: true,
          }).status === "fail",
      ),
      pack: previewed.some((p) => packBlocks(p.settings, stack)),
      // Last: it orders, and the preview is judged on the account before the run.
      guard: await guardBlocks(c),
    };
    expect(judged).toEqual({ preview: c.blocks, bill: c.blocks, pack: c.blocks, guard: c.blocks });
  });
});
