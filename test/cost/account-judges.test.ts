/**
 * The table of cases where the account is not what the stack's state says (docs/cost.md, "Changed outside Pulumi",
 * "Several runs at once"): a VPS resized or shrunk by hand and not refreshed, and another run's order appearing
 * between a check and the order. Beside three-judges.test.ts (whose account holds exactly the stack's orders as
 * recorded), each case runs for real against an emulator over HTTP, and every judge must block the run or let it
 * through alike:
 *
 * - the preview: impl's check of each of the stack's VPSs with the preview flag (the look-ahead, the planned fee from
 *   the live account, the budget);
 * - the guard at ordering: impl's create of the run's new VPS (and the withdrawal after it, order-withdrawal.ts);
 * - the bill: judgeScope on the stack's VPS lines as the preview's checked inputs give them (currentMonthlyFeeUsd
 *   before, plannedMonthlyFeeUsd after), with the provider's messages the event log carries;
 * - the pack: monthly-budget on the same checked inputs, where the account is the stack's (it judges a stack, and
 *   another stack's order is not in it).
 *
 * And where the account is over its budget before the run, the preview and the bill say so, with the live figures.
 */
import { describe, expect, it } from "@jest/globals";
import * as impl from "../../provider/impl/index";
import * as testing from "../../provider/impl/testing";
import { ACCOUNT_OVER_BEFORE_RUN } from "../../provider/impl/cost/ledger";
import type { BudgetSetting } from "../../provider/impl/cost/setting";
import type { VpsInputs } from "../../provider/impl/inputs/vps-input-schema";
import { billOf, packBlocks, type Checked } from "./judges";
import { APP_INPUTS, rejectionOf, stackConfig, useImplFixture } from "../provider/support/impl-fixture";

/** What the run is given: the sizes of each of the stack's VPSs in the program (and state), and by hand. */
interface Case {
  title: string;
  settings: Partial<Record<BudgetSetting, string>>;
  /** The stack's VPSs placed before the run, each at `memoryMb`; `byHand`: resized to that outside Pulumi. */
  placed: { name: string; memoryMb: number; byHand?: number }[];
  /** The run's new VPS, if any (1024 MB: $10 a month in the emulator's Dallas). */
  create?: string;
  /** Another run's order ($10), placed between this run's check and its order. */
  otherRun?: boolean;
  blocks: boolean;
  /** The preview and the bill say the account is over its budget before the run, at this monthly total. */
  saysOverAt?: string;
  /** The bill's budget line says this of the account (the provider's figures), and no room "to spare". */
  billSays?: string;
}

const CASES: Case[] = [
  {
    title: "a resize outside Pulumi takes the account over: a run that adds nothing passes, said over",
    settings: { monthlyBudgetUsd: "25" },
    placed: [
      { name: "kept", memoryMb: 1024 },
      { name: "db", memoryMb: 1024, byHand: 2048 },
    ],
    blocks: false,
    saysOverAt: "$26.00",
  },
  {
    title: "a resize outside Pulumi takes the account over: a new VPS is refused by every judge",
    settings: { monthlyBudgetUsd: "25" },
    placed: [
      { name: "kept", memoryMb: 1024 },
      { name: "db", memoryMb: 1024, byHand: 2048 },
    ],
    create: "web",
    blocks: true,
    saysOverAt: "$26.00",
  },
  {
    title: "a shrink outside Pulumi, program and state at the old size: a no-op adds nothing",
    settings: { maxMonthlyIncreaseUsd: "0" },
    placed: [{ name: "db", memoryMb: 2048, byHand: 1024 }],
    blocks: false,
  },
  {
    title: "another run's order between the check and the order: withdrawn, and every judge then refuses",
    settings: { monthlyBudgetUsd: "25" },
    placed: [{ name: "kept", memoryMb: 1024 }],
    create: "web",
    otherRun: true,
    blocks: true,
    // The stack's own VPSs ($20) leave $5 of the $25; the account, with the other run's order, does not.
    billSays: "but this run takes the account it covers from $20.00 to $30.00, $5.00 over it",
  },
];

const fixture = useImplFixture();

const inputsOf = (name: string, memoryMb: number): VpsInputs => ({
  ...APP_INPUTS,
  domainName: `${name}.account.example.com`,
  creationScope: `account-judges/${name}`,
  memoryMb,
});

const configure = (settings: Case["settings"]) => {
  const base = stackConfig(fixture().emulator.baseUrl);
  return impl.configure({
    config: { get: (key) => settings[key.replace("rimuhosting:", "") as BudgetSetting] ?? base.get(key) },
  });
};

/** Another stack's order of $10, placed by hand on the same account. */
const otherStacksOrder = () =>
  fixture().byHand.createVps({
    instantiation_options: { domain_name: "other-stack.example.com", distro: "deb12.64" },
    vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
    dc_location: "DCDALLAS",
  });

interface Preview {
  blocks: boolean;
  messages: { severity: string; message: string }[];
  checked: Checked[];
}

/** The preview: each VPS of the program checked with the preview flag, as a new provider process does. */
async function preview(c: Case, recorded: Map<string, VpsInputs>): Promise<Preview> {
  testing.forgetRun();
  const out: Preview = { blocks: false, messages: [], checked: [] };
  const program = [
    ...c.placed.map((p) => ({
      name: p.name,
      olds: recorded.get(p.name)!,
      kind: "same" as const,
      mb: p.memoryMb,
    })),
    ...(c.create ? [{ name: c.create, olds: {}, kind: "create" as const, mb: 1024 }] : []),
  ];
  for (const vps of program) {
    const result = await impl.checkVps(vps.olds, { ...inputsOf(vps.name, vps.mb), __preview: true });
    out.blocks ||= result.failures.some((f) => f.code === "RIMU_ERR_BUDGET");
    out.messages.push(...result.failures.map((f) => ({ severity: "error", message: f.reason })));
    for (const note of result.notes)
      if (note.severity === "warning") out.messages.push({ severity: "warning", message: note.text });
    out.checked.push({ name: vps.name, kind: vps.kind, inputs: result.inputs });
  }
  return out;
}

/** The bill of that preview: the stack's VPS lines and the provider's messages, as its event log carries them. */
const bill = (c: Case, p: Preview) =>
  billOf({
    settings: c.settings,
    checked: p.checked,
    messages: p.messages,
    complete: !p.blocks || p.checked.length === c.placed.length + (c.create ? 1 : 0),
  });

describe("the account's cases: changed outside Pulumi, another run's order; every judge alike", () => {
  it.each(CASES.map((c) => [c.title, c] as const))("%s", async (_title, c) => {
    // The account before the run: the stack's VPSs ordered with no limit, then changed by hand.
    await configure({});
    const recorded = new Map<string, VpsInputs>();
    for (const p of c.placed) {
      const checked = await impl.check({}, inputsOf(p.name, p.memoryMb));
      const created = await impl.create(checked.inputs);
      recorded.set(p.name, checked.inputs);
      if (p.byHand !== undefined)
        await fixture().byHand.changeParameters(Number(created.id), { memory_mb: p.byHand });
    }
    await configure(c.settings);
    const before = await preview(c, recorded);
    let guardBlocks = false;
    let judgedAfter = before;
    if (c.create) {
      // The update of `pulumi up`: a new provider process checks and orders the new VPS.
      testing.forgetRun();
      const checked = await impl.check({}, inputsOf(c.create, 1024));
      if (c.otherRun) {
        // This run's order is judged on the account without the other run's, then held before RimuHosting takes
        // it; the other run's order is taken first, so this one is withdrawn right after (order-withdrawal.ts).
        fixture().emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 1000 });
        const ours = impl.create(checked.inputs);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await otherStacksOrder();
        guardBlocks = /^\[RIMU_ERR_BUDGET\].*was cancelled at once/.test((await rejectionOf(ours)).message);
        // Judged again on the account as it now is, the preview, the bill and the pack refuse it too.
        judgedAfter = await preview(c, recorded);
        expect({ previewBeforeTheOtherRun: before.blocks }).toEqual({ previewBeforeTheOtherRun: false });
      } else {
        guardBlocks = await impl.create(checked.inputs).then(
          () => false,
          (error: Error) => /^\[RIMU_ERR_BUDGET\]/.test(error.message),
        );
      }
    }
    const judged = {
      preview: judgedAfter.blocks,
      guard: c.create ? guardBlocks : false,
      bill: bill(c, judgedAfter).status === "fail",
      // The pack judges the stack; another stack's order is not in it (the account's budget is the provider's).
      ...(c.otherRun ? {} : { pack: packBlocks(c.settings, judgedAfter.checked) }),
    };
    const all = {
      preview: c.blocks,
      guard: c.blocks,
      bill: c.blocks,
      ...(c.otherRun ? {} : { pack: c.blocks }),
    };
    expect(judged).toEqual(all);
    // Said over, with the live total, by the preview and quoted by the bill.
    const over = (text: string) =>
      c.saysOverAt !== undefined &&
      text.includes(`${ACCOUNT_OVER_BEFORE_RUN}: its active orders are billed ${c.saysOverAt} a month`);
    const billed = bill(c, judgedAfter);
    const accountWords = c.saysOverAt !== undefined || c.billSays !== undefined;
    expect({
      preview: judgedAfter.messages.some((m) => over(m.message)),
      bill: billed.providerMessages.some(over),
      // An account over its budget, before the run or with it, leaves the stack no room "to spare", whatever its
      // own VPSs cost: the bill tells the account's truth, as the provider does.
      billSaysToSpare: accountWords && billed.lines.some((line) => line.includes("to spare")),
      billSays: billed.lines.some((line) => c.billSays !== undefined && line.includes(c.billSays)),
    }).toEqual({
      preview: c.saysOverAt !== undefined,
      bill: c.saysOverAt !== undefined,
      billSaysToSpare: false,
      billSays: c.billSays !== undefined,
    });
  });
});
