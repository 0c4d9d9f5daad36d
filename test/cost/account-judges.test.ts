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
 * And where the account is over its budget before the run, the preview and the bill say so, with the live figures;
 * the bill's room "to spare" is the account's, from the provider's own figures (issue 64, case 7), and a VPS the run
 * deletes counts until it is deleted, in every judge's words (case 9).
 */
import { describe, expect, it } from "@jest/globals";
import * as impl from "../../provider/impl/index";
import * as testing from "../../provider/impl/testing";
import { ACCOUNT_OVER_BEFORE_RUN, DELETES_COUNT } from "../../provider/impl/cost/ledger";
import type { BudgetSetting } from "../../provider/impl/cost/setting";
import type { VpsInputs } from "../../provider/impl/inputs/vps-input-schema";
import { until } from "../helpers/promises";
import { billOf, packBlocks, type Checked } from "./judges";
import { APP_INPUTS, rejectionOf, stackConfig, useImplFixture } from "../provider/support/impl-fixture";

/** What the run is given: the sizes of each of the stack's VPSs in the program (and state), and by hand. */
interface Case {
  title: string;
  settings: Partial<Record<BudgetSetting, string>>;
  /**
   * The stack's VPSs placed before the run, each at `memoryMb`; `byHand`: resized to that outside Pulumi; `deleted`:
   * the program no longer declares it, so the run deletes it (after its orders, as the engine does).
   */
  placed: { name: string; memoryMb: number; byHand?: number; deleted?: true }[];
  /** Orders of other stacks on the account before the run ($10 each). */
  othersBefore?: number;
  /** The run's new VPS, if any (1024 MB: $10 a month in the emulator's Dallas). */
  create?: string;
  /** Another run's order ($10), placed between this run's check and its order. */
  otherRun?: boolean;
  blocks: boolean;
  /** The pack judges the VPSs the program declares after the run: it cannot see a delete (docs/cost.md). */
  packSeesNoDelete?: true;
  /** The preview and the bill say the account is over its budget before the run, at this monthly total. */
  saysOverAt?: string;
  /** The bill's budget line says this of the account (the provider's figures). */
  billSays?: string;
  /** The preview's messages say this, and never `previewNeverSays`. */
  previewSays?: string;
  previewNeverSays?: string;
  /** The guard's refusal says this. */
  guardSays?: string;
}

const ACCOUNT = "this run takes the account (every active order its API key reaches, other stacks' too)";

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
    billSays: `${ACCOUNT} from $20.00 to $30.00 a month, $5.00 over it; this stack's own change is +$10.00 a month.`,
    // Issue 64, case 9: the orders before it are this stack's `kept` (long before) and the other run's: not all
    // "meanwhile".
    guardSays: "(it and the 2 placed before it, by any run or by hand)",
  },
  {
    // Issue 64, case 7: each of 10 stacks' bills said "$30.00 to spare" on a $40 account budget, one whose account
    // would end at exactly $40 too.
    title: "other stacks' orders leave $10 of a $40 budget; this stack's new VPS lands on it: $0.00 to spare",
    settings: { monthlyBudgetUsd: "40" },
    placed: [],
    othersBefore: 3,
    create: "web",
    blocks: false,
    billSays: `${ACCOUNT} from $30.00 to $40.00 a month, within it ($0.00 to spare); this stack's own change is +$10.00 a month.`,
  },
  {
    // Issue 64, case 9: the run ends on its budget, but a delete counts until it is made, after the orders.
    title:
      "a run that deletes a VPS and orders one, ending exactly on its budget: the delete counts until made",
    settings: { monthlyBudgetUsd: "20" },
    placed: [
      { name: "kept", memoryMb: 1024 },
      { name: "gone", memoryMb: 1024, deleted: true },
    ],
    create: "web",
    blocks: true,
    packSeesNoDelete: true,
    previewSays: DELETES_COUNT,
    billSays:
      `${ACCOUNT} from $20.00 to $30.00 a month while the VPS it deletes is still billed, $10.00 over it, and to ` +
      `$20.00 once it is deleted (a delete counts until it is made, after the run's orders and changes); this ` +
      `stack's own change is ±$0.00 a month.`,
  },
  {
    // Issue 64, case 9: the warning blamed "changes made outside this run" for this stack's own VPS, which the run
    // deletes to come back within the budget.
    title:
      "the account over its budget by this stack's own VPS, which the run deletes: said over, blaming no one",
    settings: { monthlyBudgetUsd: "20" },
    placed: [
      { name: "kept", memoryMb: 1024 },
      { name: "gone", memoryMb: 2048, deleted: true },
    ],
    blocks: false,
    saysOverAt: "$26.00",
    previewSays: "a VPS this run deletes counts until it is deleted",
    previewNeverSays: "outside this run",
    billSays:
      `${ACCOUNT} from $26.00 to $26.00 a month while the VPS it deletes is still billed, $6.00 over it (this run ` +
      `lowers or keeps it, so it is not blocked), and to $10.00 once it is deleted`,
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
const otherStacksOrder = (name = "other-stack") =>
  fixture().byHand.createVps({
    instantiation_options: { domain_name: `${name}.example.com`, distro: "deb12.64" },
    vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
    dc_location: "DCDALLAS",
  });

interface Preview {
  blocks: boolean;
  messages: { severity: string; message: string }[];
  checked: Checked[];
}

/**
 * The preview: each VPS of the program checked with the preview flag, as a new provider process does; a VPS the run
 * deletes is not checked (the engine never asks a preview about a delete), and is in the bill at its fee now.
 */
async function preview(
  c: Case,
  recorded: Map<string, VpsInputs>,
  fees: Map<string, number>,
): Promise<Preview> {
  testing.forgetRun();
  const out: Preview = { blocks: false, messages: [], checked: [] };
  const program = [
    ...c.placed
      .filter((p) => !p.deleted)
      .map((p) => ({ name: p.name, olds: recorded.get(p.name)!, kind: "same" as const, mb: p.memoryMb })),
    ...(c.create ? [{ name: c.create, olds: {}, kind: "create" as const, mb: 1024 }] : []),
  ];
  for (const vps of program) {
    const result = await impl.checkVps(vps.olds, { ...inputsOf(vps.name, vps.mb), __preview: true });
    out.blocks ||= result.failures.some((f) => f.code === "RIMU_ERR_BUDGET");
    out.messages.push(...result.failures.map((f) => ({ severity: "error", message: f.reason })));
    // Every note, as the event log carries it (the bill reads the provider's lines of the account's totals).
    out.messages.push(...result.notes.map((note) => ({ severity: note.severity, message: note.text })));
    out.checked.push({ name: vps.name, kind: vps.kind, inputs: result.inputs });
  }
  for (const p of c.placed.filter((p) => p.deleted))
    out.checked.push({ name: p.name, kind: "delete", inputs: { currentMonthlyFeeUsd: fees.get(p.name) } });
  return out;
}

/** The bill of that preview: the stack's VPS lines and the provider's messages, as its event log carries them. */
const bill = (c: Case, p: Preview) =>
  billOf({
    settings: c.settings,
    checked: p.checked,
    messages: p.messages,
    // In-process, the preview goes on after a refusal: it checks every VPS of the program.
    complete: true,
  });

describe("the account's cases: changed outside Pulumi, another run's order; every judge alike", () => {
  it.each(CASES.map((c) => [c.title, c] as const))("%s", async (_title, c) => {
    // The account before the run: the stack's VPSs ordered with no limit, then changed by hand; other stacks' orders.
    await configure({});
    const recorded = new Map<string, VpsInputs>();
    const fees = new Map<string, number>();
    for (const p of c.placed) {
      const checked = await impl.check({}, inputsOf(p.name, p.memoryMb));
      const created = await impl.create(checked.inputs);
      recorded.set(p.name, checked.inputs);
      fees.set(p.name, created.outs.monthlyFeeUsd as number);
      if (p.byHand !== undefined)
        await fixture().byHand.changeParameters(Number(created.id), { memory_mb: p.byHand });
    }
    for (let i = 0; i < (c.othersBefore ?? 0); i++) await otherStacksOrder(`other-stack-${i}`);
    await configure(c.settings);
    const before = await preview(c, recorded, fees);
    let guardBlocks = false;
    let guardSaid = "";
    let judgedAfter = before;
    if (c.create) {
      // The update of `pulumi up`: a new provider process checks and orders the new VPS (a VPS the run deletes is
      // still billed: the engine deletes it after the creates).
      testing.forgetRun();
      const checked = await impl.check({}, inputsOf(c.create, 1024));
      if (c.otherRun) {
        // This run's order is judged on the account without the other run's, then held before RimuHosting takes
        // it; the other run's order is taken first, so this one is withdrawn right after (order-withdrawal.ts).
        fixture().emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 1000 });
        const ours = impl.create(checked.inputs);
        // Until the emulator holds our order (the delay taken), not a fixed wait (order-guard.test.ts does the same).
        const faults = fixture().emulator.app.emulator.faults;
        await until("this run's order held by the delay", () => faults.pending().length === 0);
        await otherStacksOrder();
        guardSaid = (await rejectionOf(ours)).message;
        guardBlocks = /^\[RIMU_ERR_BUDGET\].*was cancelled at once/.test(guardSaid);
        // Judged again on the account as it now is, the preview, the bill and the pack refuse it too.
        judgedAfter = await preview(c, recorded, fees);
        expect({ previewBeforeTheOtherRun: before.blocks }).toEqual({ previewBeforeTheOtherRun: false });
      } else {
        guardBlocks = await impl.create(checked.inputs).then(
          () => false,
          (error: Error) => ((guardSaid = error.message), /^\[RIMU_ERR_BUDGET\]/.test(error.message)),
        );
      }
    }
    const packJudges = !c.otherRun && !c.packSeesNoDelete;
    const judged = {
      preview: judgedAfter.blocks,
      guard: c.create ? guardBlocks : false,
      bill: bill(c, judgedAfter).status === "fail",
      // The pack judges the stack; another stack's order is not in it (the account's budget is the provider's), nor
      // a VPS the run deletes (a stack policy sees the resources the program declares).
      ...(packJudges ? { pack: packBlocks(c.settings, judgedAfter.checked) } : {}),
    };
    const all = {
      preview: c.blocks,
      guard: c.blocks,
      bill: c.blocks,
      ...(packJudges ? { pack: c.blocks } : {}),
    };
    expect(judged).toEqual(all);
    // Said over, with the live total, by the preview and quoted by the bill.
    const over = (text: string) =>
      c.saysOverAt !== undefined &&
      text.includes(`${ACCOUNT_OVER_BEFORE_RUN}: its active orders are billed ${c.saysOverAt} a month`);
    const billed = bill(c, judgedAfter);
    const said = judgedAfter.messages.map((m) => m.message);
    expect({
      preview: said.some(over),
      bill: billed.providerMessages.some(over),
      // An account over its budget, before the run or with it, leaves no room "to spare", whatever the stack's own
      // VPSs cost: the bill tells the account's truth, as the provider does.
      billSaysToSpare: billed.lines.some((line) => line.includes("to spare")),
      billSays:
        billed.lines.find((line) => c.billSays !== undefined && line.includes(c.billSays)) ?? billed.lines,
      previewSays: c.previewSays === undefined || said.some((m) => m.includes(c.previewSays!)),
      previewNeverSays: c.previewNeverSays !== undefined && said.some((m) => m.includes(c.previewNeverSays!)),
      guardSays: c.guardSays === undefined || guardSaid.includes(c.guardSays) ? true : guardSaid,
    }).toEqual({
      preview: c.saysOverAt !== undefined,
      bill: c.saysOverAt !== undefined,
      billSaysToSpare: c.billSays?.includes("to spare") ?? false,
      billSays: c.billSays === undefined ? billed.lines : expect.stringContaining(c.billSays),
      previewSays: true,
      previewNeverSays: false,
      guardSays: true,
    });
  });
});
