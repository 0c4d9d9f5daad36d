/**
 * Reading the budget's settings (docs/cost.md): `monthlyBudgetUsd`, `maxMonthlyIncreaseUsd` (US dollars a month)
 * and `budgetEnforcement` (`enforce` or `warn`), the same way for the stack config, an explicit provider's
 * arguments and the bill. A setting left out sets no limit; an empty or malformed one is an error naming the
 * setting and where to fix it, never silence.
 *
 * Owns: what a valid amount is: a number, or plain decimal text (`50`, `12.5`), from 0 to MAX_BUDGET_USD. `1e3`,
 * `0x10`, `-3`, `-0`, `Infinity`, empty text, text with spaces around it (`"  5 "`: read as $5 once, without a
 * word) and amounts above the limit (a 401-digit number reads as Infinity) are
 * refused, from every source alike: the stack config and the environment give text, an explicit provider's
 * arguments a number or text, handed here as given (never turned into text first). A number is taken as the number
 * it is: a YAML program reads `0x10` as 16 and `1e3` as 1000 before the provider sees them, and only its `-0.0` (or
 * `-0e0`) arrives as negative zero, which is refused as the text `-0` is; its `-0` arrives as 0.
 * Pure: imports nothing (the caller says how the setting is named and where it is written).
 */

/** The budget's settings, by their key (stack config `rimuhosting:<key>`, provider argument `<key>`). */
export const BUDGET_SETTINGS = ["monthlyBudgetUsd", "maxMonthlyIncreaseUsd", "budgetEnforcement"] as const;
export type BudgetSetting = (typeof BUDGET_SETTINGS)[number];

export const ENFORCEMENTS = ["enforce", "warn"] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

/** The limits, in USD a month (undefined: no limit). */
export interface BudgetLimits {
  monthlyBudgetUsd?: number;
  maxMonthlyIncreaseUsd?: number;
}

export interface BudgetSettings extends BudgetLimits {
  enforcement: Enforcement;
}

/** The settings as read, and what is wrong with them (each a sentence naming the setting). */
export interface ReadBudget {
  settings: BudgetSettings;
  problems: string[];
}

/** How the settings are named in messages, and where they are written. */
export interface SettingWords {
  /** `rimuhosting:monthlyBudgetUsd`, or `provider 'alice': monthlyBudgetUsd`. */
  name(key: BudgetSetting): string;
  /** `the stack config`, `the arguments of provider 'alice' in the program`, or the environment of a variable. */
  place(key: BudgetSetting): string;
}

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The largest amount a budget setting may be, in US dollars a month: far above any account's bill, and small
 * enough that cents stay exact in a double. Above it a typo is likelier than a budget, and text of hundreds of
 * digits would read as Infinity, which is refused as the word is (docs/cost.md, "The budget").
 */
export const MAX_BUDGET_USD = 1_000_000_000;

/** ` (given: "1e3")`, ` (given: -0)`: the value as given, when short; negative zero as `-0`, not JSON's `0`. */
export const givenValue = (value: unknown): string => {
  const text = Object.is(value, -0) ? "-0" : JSON.stringify(value);
  return text !== undefined && text.length <= 40 ? ` (given: ${text})` : "";
};
const given = givenValue;

const isEmpty = (value: unknown): boolean => typeof value === "string" && value.trim() === "";

/**
 * A number or plain decimal text of 0 or more, as written (Infinity for hundreds of digits), else NaN. Negative zero
 * is refused: text cannot be `-0` (no sign), so a number cannot be either.
 */
function numberOf(value: unknown): number {
  if (typeof value === "number") return value >= 0 && !Object.is(value, -0) ? value : NaN;
  if (typeof value !== "string") return NaN;
  return PLAIN_DECIMAL.test(value) ? Number(value) : NaN;
}

/** Text that is an amount once its spaces are cut: refused as written, with its own advice, never read silently. */
const spacedAmount = (value: unknown): boolean =>
  typeof value === "string" && value !== value.trim() && PLAIN_DECIMAL.test(value.trim());

const overLimit = (value: unknown): boolean => numberOf(value) > MAX_BUDGET_USD;

/** An amount of US dollars a month: its value, `undefined` when unset, or `NaN` when malformed, empty or too big. */
export function amountOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const amount = numberOf(value);
  return amount <= MAX_BUDGET_USD ? amount : NaN;
}

/** How a value too big is quoted: as given, or by its digits when too long to quote. */
const givenBig = (value: unknown): string =>
  typeof value === "string" && value.trim().length > 40
    ? `a number of ${value.trim().replace(/\..*$/, "").length} digits`
    : typeof value === "number"
      ? String(value)
      : String(JSON.stringify(value));

function amountSetting(
  key: BudgetSetting,
  value: unknown,
  words: SettingWords,
  problems: string[],
): number | undefined {
  const amount = amountOf(value);
  if (!Number.isNaN(amount)) return amount;
  problems.push(
    overLimit(value)
      ? `${words.name(key)} is over ${MAX_BUDGET_USD}, the largest budget accepted (US dollars a month; given: ` +
          `${givenBig(value)}): give a number from 0 to ${MAX_BUDGET_USD}, such as 50, or remove the setting to ` +
          `set no limit; fix it in ${words.place(key)}.`
      : isEmpty(value)
        ? `${words.name(key)} is empty: give a number of US dollars a month, 0 or more, such as 50, or remove ` +
          `the setting to set no limit; fix it in ${words.place(key)}.`
        : spacedAmount(value)
          ? `${words.name(key)} has spaces around its amount${given(value)}: write the number alone, such as ` +
            `${(value as string).trim()}; fix it in ${words.place(key)}.`
          : `${words.name(key)} must be a number of US dollars a month, 0 or more, such as 50` +
            `${given(value)}: fix it in ${words.place(key)}.`,
  );
  return undefined;
}

/**
 * Reads the budget's settings through `get` (the value of `<key>` as given: text from the stack config, a number
 * or text from a provider's arguments).
 */
export function readBudgetSettings(get: (key: BudgetSetting) => unknown, words: SettingWords): ReadBudget {
  const problems: string[] = [];
  const settings: BudgetSettings = { enforcement: "enforce" };
  const budget = amountSetting("monthlyBudgetUsd", get("monthlyBudgetUsd"), words, problems);
  const increase = amountSetting("maxMonthlyIncreaseUsd", get("maxMonthlyIncreaseUsd"), words, problems);
  if (budget !== undefined) settings.monthlyBudgetUsd = budget;
  if (increase !== undefined) settings.maxMonthlyIncreaseUsd = increase;
  const enforcement = get("budgetEnforcement");
  if (enforcement !== undefined && enforcement !== null) {
    const text = typeof enforcement === "string" ? enforcement.trim() : enforcement;
    if ((ENFORCEMENTS as readonly unknown[]).includes(text)) settings.enforcement = text as Enforcement;
    else
      problems.push(
        `${words.name("budgetEnforcement")} must be enforce (a run over the budget fails) or warn ` +
          `(it only warns)${given(enforcement)}: fix it in ${words.place("budgetEnforcement")}.`,
      );
  }
  return { settings, problems };
}

export const hasLimit = (limits: BudgetLimits): boolean =>
  limits.monthlyBudgetUsd !== undefined || limits.maxMonthlyIncreaseUsd !== undefined;
