/**
 * The budget a preview enforces (docs/cost.md): the provider settings `monthlyBudgetUsd`, `maxMonthlyIncreaseUsd`
 * and `budgetEnforcement` (stack config `rimuhosting:<setting>`, or the native plugin's explicit provider's
 * argument), and the one hook check() calls with each VPS's planned fee (planned-fee.ts): record it in the run's
 * fee ledger (budget-ledger.ts, kept by the account's shared view beside the host-room ledger) and judge the run's
 * changes so far against the limits. Over a limit, `enforce` fails the check and `warn` says the same as a warning.
 *
 * Only a preview is judged (the native plugin's checks always run as one): it is where every new VPS, resize and
 * replacement is quoted, and a preview that fails orders nothing. The engine does not call the provider for a
 * resource that is deleted until the update itself, so a preview's totals never see deletes.
 */
import type { AccountView } from "./account-view.js";
import { overBudgetMessage, limitsPassed, type BudgetLimits, type LimitNames } from "./budget-ledger.js";
import type { CheckFailure } from "./check-failure.js";
import { VPS_ERROR_CODES } from "./errors.js";
import { warning, type Note } from "./notes.js";
import type { PlannedFee } from "./planned-fee.js";
import { settingName, settingsPlace } from "./settings-source.js";
import { RIMU_ERROR_CODES } from "../client/errors.js";

/** The budget's settings, by their key (stack config `rimuhosting:<key>`, provider argument `<key>`). */
export const BUDGET_SETTINGS = ["monthlyBudgetUsd", "maxMonthlyIncreaseUsd", "budgetEnforcement"] as const;
export type BudgetSetting = (typeof BUDGET_SETTINGS)[number];

export const ENFORCEMENTS = ["enforce", "warn"] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

export interface BudgetSettings extends BudgetLimits {
  enforcement: Enforcement;
}

/** The settings as read, and what is wrong with them (each a sentence naming the setting). */
export interface ReadBudget {
  settings: BudgetSettings;
  problems: string[];
}

const describe = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= 40 ? ` (given: ${text})` : "";
};

/** An amount of US dollars a month: a number or a numeric text, 0 or more; undefined when unset. */
function amountOf(
  key: BudgetSetting,
  value: unknown,
  provider: string | undefined,
  problems: string[],
): number | undefined {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === ""))
    return undefined;
  const text = typeof value === "string" ? value.trim() : undefined;
  const amount =
    typeof value === "number" ? value : text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (Number.isFinite(amount) && amount >= 0) return amount;
  problems.push(
    `${settingName(key, provider)} must be a number of US dollars a month, 0 or more, such as 50` +
      `${describe(value)}: fix it in ${settingsPlace(provider)}.`,
  );
  return undefined;
}

/**
 * Reads the budget's settings through `get` (the value of `<key>` as given: text from the stack config, a number
 * or text from a provider's arguments). `provider`: the explicit provider they belong to (messages name its
 * arguments), undefined for the stack config.
 */
export function readBudget(get: (key: BudgetSetting) => unknown, provider?: string): ReadBudget {
  const problems: string[] = [];
  const settings: BudgetSettings = { enforcement: "enforce" };
  const budget = amountOf("monthlyBudgetUsd", get("monthlyBudgetUsd"), provider, problems);
  const increase = amountOf("maxMonthlyIncreaseUsd", get("maxMonthlyIncreaseUsd"), provider, problems);
  if (budget !== undefined) settings.monthlyBudgetUsd = budget;
  if (increase !== undefined) settings.maxMonthlyIncreaseUsd = increase;
  const enforcement = get("budgetEnforcement");
  if (enforcement !== undefined && enforcement !== null && enforcement !== "") {
    const given = typeof enforcement === "string" ? enforcement.trim() : enforcement;
    if ((ENFORCEMENTS as readonly unknown[]).includes(given)) settings.enforcement = given as Enforcement;
    else
      problems.push(
        `${settingName("budgetEnforcement", provider)} must be enforce (a run over the budget fails) or warn ` +
          `(it only warns)${describe(enforcement)}: fix it in ${settingsPlace(provider)}.`,
      );
  }
  return { settings, problems };
}

let current: ReadBudget = { settings: { enforcement: "enforce" }, problems: [] };

/** The settings this process runs with (runtime-config.ts's configure() reads them once). */
export function useBudget(read: ReadBudget): void {
  current = read;
}

const hasLimit = (settings: BudgetLimits): boolean =>
  settings.monthlyBudgetUsd !== undefined || settings.maxMonthlyIncreaseUsd !== undefined;

const limitNames = (): LimitNames => ({
  monthlyBudgetUsd: settingName("monthlyBudgetUsd"),
  maxMonthlyIncreaseUsd: settingName("maxMonthlyIncreaseUsd"),
});

/**
 * The hook check() calls for one VPS: its planned fee counted in the run's ledger, and what the budget says about
 * the run's changes so far (failures in `enforce` mode, warnings in `warn` mode). Bad settings fail every check.
 */
export function judgeBudget(
  view: AccountView | undefined,
  vps: { resource: string; name: string },
  fee: PlannedFee | undefined,
  preview: boolean,
): { failures: CheckFailure[]; notes: Note[] } {
  const { settings, problems } = current;
  if (problems.length > 0)
    return {
      failures: problems.map((reason) => ({ property: "", reason, code: RIMU_ERROR_CODES.RimuConfigError })),
      notes: [],
    };
  if (!preview || !view || !fee || !hasLimit(settings)) return { failures: [], notes: [] };
  const ledger = view.fees;
  ledger.record(vps.resource, { name: vps.name, nowUsd: fee.nowUsd, plannedUsd: fee.usd });
  const warn = settings.enforcement === "warn";
  const out = { failures: [] as CheckFailure[], notes: [] as Note[] };
  const refuse = (reason: string) => {
    if (warn) out.notes.push(warning(`${vps.name}: ${reason}.`));
    else out.failures.push({ property: "", reason, code: VPS_ERROR_CODES.budget });
  };
  if (fee.currency !== undefined)
    refuse(
      `the budget counts fees in US dollars, and ${fee.why ?? "this price has no USD amount"}: it ` +
        `cannot be counted (and is never counted as $0). Choose a plan RimuHosting prices in USD, or leave out ` +
        `${settingName("monthlyBudgetUsd")} and ${settingName("maxMonthlyIncreaseUsd")}`,
    );
  else if (fee.usd === undefined)
    out.notes.push(
      warning(
        `${vps.name}: the budget cannot count this VPS's change (${fee.why ?? "its fee is not known"}); it counts ` +
          `${fee.nowUsd === undefined ? "nothing for it" : "the fee it is billed now"}.`,
      ),
    );
  const totals = ledger.totals();
  const message = overBudgetMessage(settings, totals, limitNames());
  if (message === undefined) return out;
  if (!warn) {
    out.failures.push({ property: "", reason: message, code: VPS_ERROR_CODES.budget });
    return out;
  }
  // Warn mode: once per limit a run passes (every later check would say it again).
  const passed = limitsPassed(settings, totals).filter((limit) => !ledger.warned.has(limit));
  if (passed.length === 0) return out;
  for (const limit of passed) ledger.warned.add(limit);
  out.notes.push(
    warning(`${vps.name}: over budget (${settingName("budgetEnforcement")}: warn): ${message}.`),
  );
  return out;
}
