/**
 * The bill and the pack as the tables of cases in test/cost call them on a preview's checked inputs (the preview's
 * `plannedMonthlyFeeUsd` and `currentMonthlyFeeUsd` of each VPS, and the provider's messages), so that every table
 * judges the same way: account-judges.test.ts, two-providers.test.ts.
 */
import { judgeScope, type ScopeVerdict } from "../../provider/bill/judge";
import type { BudgetSetting } from "../../provider/impl/cost/setting";
import { monthlyBudgetPolicy } from "../../policy-pack/policies";
import { setStackStateReader } from "../../policy-pack/stack-state";

export type Settings = Partial<Record<BudgetSetting, string>>;

/**
 * One VPS as a preview checked it: "create" for a new one, "same" for one the run keeps; "delete" for one the run
 * deletes, which the engine never asks a preview about: its inputs are only its fee now (currentMonthlyFeeUsd).
 */
export interface Checked {
  name: string;
  kind: "create" | "same" | "delete";
  inputs: Record<string, unknown>;
}

const centsIn = (inputs: Record<string, unknown>, key: string): number | undefined =>
  typeof inputs[key] === "number" ? Math.round((inputs[key] as number) * 100) : undefined;

/** The bill's verdict on one budget: the VPSs it covers and the provider's messages, as its event log carries them. */
export function billOf(input: {
  settings: Settings;
  provider?: string;
  checked: readonly Checked[];
  messages: readonly { severity: string; message: string }[];
  complete: boolean;
}): ScopeVerdict {
  return judgeScope({
    provider: input.provider,
    settings: input.settings,
    vpss: input.checked.map(({ name, kind, inputs }) => {
      const now = centsIn(inputs, "currentMonthlyFeeUsd");
      const after = centsIn(inputs, "plannedMonthlyFeeUsd");
      return {
        name,
        kind,
        before: now === undefined ? { none: true as const } : { cents: now },
        after:
          kind === "delete"
            ? { none: true as const }
            : after === undefined
              ? { unknown: "not priced" }
              : { cents: after },
      };
    }),
    providerMessages: input.messages,
    complete: input.complete,
  });
}

/** The pack's monthly-budget on the checked inputs with these limits: whether it reports a violation. */
export function packBlocks(settings: Settings, checked: readonly Checked[]): boolean {
  const config = {
    maxMonthlyUsd: settings.monthlyBudgetUsd === undefined ? undefined : Number(settings.monthlyBudgetUsd),
    maxMonthlyIncreaseUsd:
      settings.maxMonthlyIncreaseUsd === undefined ? undefined : Number(settings.maxMonthlyIncreaseUsd),
  };
  // A stack policy sees the resources the program declares, never one the run deletes: those it reads from the
  // stack's state (policy-pack/stack-state.ts), here the checked VPSs the run deletes, at their fee now.
  setStackStateReader(() => ({
    vpss: checked
      .filter(({ kind }) => kind === "delete")
      .map(({ name, inputs }) => ({
        urn: `urn:judges::${name}`,
        name,
        ...(typeof inputs.currentMonthlyFeeUsd === "number" ? { feeUsd: inputs.currentMonthlyFeeUsd } : {}),
      })),
  }));
  const resources = checked
    .filter(({ kind }) => kind !== "delete")
    .map(({ name, inputs }) => ({
      type: "rimuhosting:index:Vps",
      name,
      urn: `urn:judges::${name}`,
      props: { ...inputs },
    }));
  const violations: string[] = [];
  const getConfig = <T extends object>() => config as T;
  const notApplicable = (reason?: string): never => {
    throw new Error(`not applicable: ${reason}`);
  };
  try {
    // A pack of its own, handed no checked inputs: it judges the stack from the properties given here.
    monthlyBudgetPolicy().validateStack({ resources, getConfig, notApplicable }, (m) => violations.push(m));
  } finally {
    setStackStateReader(undefined);
  }
  return violations.length > 0;
}
