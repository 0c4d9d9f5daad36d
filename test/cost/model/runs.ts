/**
 * One `pulumi up` of a stack through the model's engine (engine.ts): its preview, then its update, and what the
 * invariants (../invariants.ts) need of them: the preview's verdict and figure, the bill's and the pack's verdicts
 * on the same checks, the account's orders before and after, and what the update did.
 */
import type { TestEmulator } from "../../helpers/start-emulator";
import * as testing from "../../../provider/impl/testing";
import { judgeScope } from "../../../provider/bill/judge";
import type { ChangeKind, Fee } from "../../../provider/bill/fee";
import { DEMO_ACCOUNTS } from "../../../emulator/index";
import type { OrderSeen, PreviewSeen, UpSeen } from "../invariants";
import { packBlocks, type Settings } from "../judges";
import {
  apply,
  applyAsRegistered,
  Killed,
  oidOf,
  plan,
  type Applied,
  type Gate,
  type Plan,
  type Runs,
  type Stack,
} from "./engine";

const ACCOUNT = DEMO_ACCOUNTS[0]!.name;

/** The account's active orders, read from the emulator's own state (no request: the run's log stays its own). */
export function ordersOf(emu: TestEmulator): OrderSeen[] {
  return emu
    .snapshot()
    .filter((o) => o.account === ACCOUNT && o.active)
    .map((o) => ({ oid: o.orderOid, cents: Math.round(o.monthlyFeeUsd * 100), domain: o.domainName }));
}

const centsOf = (value: unknown): number | undefined =>
  typeof value === "number" ? Math.round(value * 100) : undefined;

let commands = 0;

/**
 * The name the next command's runs get (newCommand), or the one `after` commands later: what names its shared plan's
 * file and tags its previewed plan's lines (the engine's address, in a real run).
 */
export const nextCommandName = (after = 0): string => `model command ${commands + 1 + after}`;

/** The runs of one `pulumi` command's provider processes: the default provider's and the explicit one's. */
export function newCommand(command = `model command ${++commands}`): Runs {
  return [testing.beginRun(command), testing.beginRun(command)];
}

/** The figure a preview's checks give: the account now, each checked VPS moved to its planned fee, deletes gone. */
function figureOf(steps: Plan, before: readonly OrderSeen[]): number {
  let cents = before.reduce((sum, o) => sum + o.cents, 0);
  for (const step of steps.planned) {
    const after = centsOf(step.checked.plannedMonthlyFeeUsd);
    const now = centsOf(step.checked.currentMonthlyFeeUsd) ?? 0;
    if (after === undefined) return NaN;
    cents += after - now;
  }
  for (const held of steps.deletes) cents -= before.find((o) => o.oid === oidOf(held))?.cents ?? 0;
  return cents;
}

/** The bill's and the pack's verdicts on the preview's checks, with the stack as their scope. */
function otherJudges(settings: Settings, steps: Plan): Pick<PreviewSeen, "bill" | "pack"> {
  const fee = (value: unknown): Fee => {
    const cents = centsOf(value);
    return cents === undefined ? { none: true } : { cents };
  };
  const kindOf = (kind: Plan["planned"][number]["kind"], adopt: boolean): ChangeKind =>
    adopt ? "adopt" : kind === "update" ? "update" : kind;
  const vpss = [
    ...steps.planned.map((step) => ({
      name: step.spec.name,
      kind: kindOf(step.kind, step.spec.adopt !== undefined),
      before: fee(step.checked.currentMonthlyFeeUsd),
      after: fee(step.checked.plannedMonthlyFeeUsd),
    })),
    ...steps.deletes.map((held) => ({
      name: held.spec.name,
      kind: "delete" as const,
      before: fee(held.outs.monthlyFeeUsd),
      after: { none: true as const },
    })),
  ];
  const bill = judgeScope({ settings, vpss, providerMessages: [], complete: true }).status;
  const checked = steps.planned.map((step) => ({
    name: step.spec.name,
    kind: step.kind === "create" ? ("create" as const) : ("same" as const),
    inputs: step.checked as Record<string, unknown>,
  }));
  const limited = settings.monthlyBudgetUsd !== undefined || settings.maxMonthlyIncreaseUsd !== undefined;
  return {
    bill: bill === "fail" ? "fail" : "pass",
    // The pack applies only with a limit set.
    ...(limited ? { pack: packBlocks(settings, checked) ? ("fail" as const) : ("pass" as const) } : {}),
  };
}

export interface UpOptions {
  settings: Settings;
  gate: Gate;
  /** Kill the run at this provider call of its update (0: the first); undefined: never. */
  killAt?: number;
  /** Something else happens while it runs (another run, an outside change, a fault): I1 does not promise. */
  alone: boolean;
  /** Called once its preview passed, before its update (a fault armed, an outside change made). */
  beforeUpdate?: () => Promise<void>;
  /**
   * The update gets the registrations in this order (the program's VPSs sorted by these keys, in turn; ties in the
   * program's order), each step started after its check: undefined, every check before the steps.
   */
  order?: readonly number[];
}

/** The program's indexes sorted by `keys` (the i-th VPS's key is keys[i % keys.length]). */
export const registrationOrder = (keys: readonly number[], count: number): number[] =>
  Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => keys[a % keys.length]! - keys[b % keys.length]! || a - b,
  );

export interface UpDone extends UpSeen {
  killed: boolean;
  applied?: Applied;
  /** The preview's plan (what diff() planned of each VPS). */
  plan: Plan;
}

/** `pulumi up`: the preview (a command's first provider processes), then the update in new processes. */
export async function up(emu: TestEmulator, stack: Stack, options: UpOptions): Promise<UpDone> {
  const { settings, gate } = options;
  const previewRuns = newCommand();
  const ordersBefore = ordersOf(emu);
  const previewed = await plan(stack, previewRuns, gate, true);
  const ordersAfterPreview = ordersOf(emu);
  // The account is the stack's from the preview's start to its end: another run's order placed while it ran (the
  // preview's checks read it) makes it the account's (the money model's commit seed 20795902).
  const scopeIsStack =
    [...ordersBefore, ...ordersAfterPreview].every((o) => stack.orderOids().has(o.oid)) &&
    stack.pendingDeletes.length === 0;
  const preview: PreviewSeen = {
    stack: stack.name,
    passed: previewed.failures.length === 0,
    figureCents: figureOf(previewed, ordersBefore),
    ordersBefore,
    ordersAfter: ordersAfterPreview,
    // The bill and the pack judge the stack, the provider the account: compared where they are one. A run that
    // deletes is left out: the provider judges its highest point (a delete counts until it is made), the bill and
    // the pack its end (issue 64, case 9: the words say so; the verdicts differ at the boundary).
    ...(scopeIsStack && previewed.deletes.length === 0 ? otherJudges(settings, previewed) : {}),
  };
  const seen = { stack: stack.name, preview, plan: previewed, alone: options.alone };
  if (!preview.passed) {
    stack.said.push(...previewed.failures);
    return {
      ...seen,
      completed: false,
      errors: previewed.failures,
      ordersAfter: ordersOf(emu),
      killed: false,
    };
  }
  await options.beforeUpdate?.();
  // The update: new provider processes (of the same command on the dynamic provider: they share its plan).
  // On the native plugin the update is an engine run of its own, as the engine starts it (previewed-plan.ts).
  const runs = stack.front.name === "native" ? newCommand() : newCommand(previewRuns[0].command);
  let calls = 0;
  let dead = false;
  const updateGate: Gate = async (label) => {
    if (dead) throw new Killed();
    await gate(label);
    if (dead || (options.killAt !== undefined && calls++ >= options.killAt)) {
      dead = true;
      throw new Killed();
    }
  };
  try {
    if (options.order) {
      const order = registrationOrder(options.order, stack.program.length);
      const applied = await applyAsRegistered(stack, runs, updateGate, order, () => !dead);
      stack.said.push(...applied.failures);
      return {
        ...seen,
        completed: applied.completed,
        errors: [...applied.failures, ...applied.errors],
        applied,
        ordersAfter: ordersOf(emu),
        killed: false,
      };
    }
    const steps = await plan(stack, runs, updateGate, false);
    steps.planned = steps.planned.filter((step) => !step.failed);
    if (steps.failures.length > 0) {
      stack.said.push(...steps.failures);
      return { ...seen, completed: false, errors: steps.failures, ordersAfter: ordersOf(emu), killed: false };
    }
    const applied = await apply(stack, runs, updateGate, steps, () => !dead);
    return {
      ...seen,
      completed: applied.completed,
      errors: applied.errors,
      applied,
      ordersAfter: ordersOf(emu),
      killed: false,
    };
  } catch (error) {
    if (!(error instanceof Killed)) throw error;
    return { ...seen, completed: false, errors: ["killed"], ordersAfter: ordersOf(emu), killed: true };
  }
}
