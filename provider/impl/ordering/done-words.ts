/**
 * What a run did and did not do, in the words of the budget's refusals: the guard's record of each change this
 * process applied (ordered, changed, adopted, cancelled, withdrew), and the sentence that says it, true at the moment
 * it is said. order-guard.ts notes and says (overWords: what a judged change would pass over); the check's refusal (vps-check.ts) says it too.
 */
import type { BudgetSettings } from "../budget/budget.js";
import { cents, dollars } from "../cost/money.js";
import { limitsPassed, type BudgetTotals } from "../cost/verdict.js";
import type { RunContext } from "../engine/run-context.js";
import { settingName } from "../engine/settings-source.js";
import { guardOf, type Guard } from "./guard-run.js";

/** A change this process applied to `name` ("ordered", "changed", "adopted", "cancelled"). */
export function noteDone(run: RunContext, what: string, name: string): void {
  noteWith(guardOf(run), what, name);
}

export function noteWith(run: Guard, what: string, name: string): void {
  const { done } = run;
  const names = done.get(what) ?? new Set<string>();
  names.add(name);
  done.set(what, names);
}

/** "web-1 and web-2", "a, b and c". */
const listed = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)!}`;

/**
 * What was and was not done, true at the moment it is said: "Nothing was ordered for web-3; before it, this
 * run ordered web-1 and changed db". `refused`: what was not done ("ordered for web-3", "changed on db").
 * `check`: a check's refusal, which stops the resource before its create or update: "preview" when the check
 * runs only in a preview (the dynamic Vps's: "Nothing was ordered or changed" while the run has done nothing);
 * "mayApply" when it may be the update of `pulumi up` (the native plugin's), where the engine goes on with the
 * creates and updates of the VPSs checked before it, so their orders may still come after this is said.
 */
export function whatWasDone(run: RunContext, refused: string, check?: "preview" | "mayApply"): string {
  return describeDone(guardOf(run), refused, check);
}

export function describeDone(run: Guard, refused: string, check?: "preview" | "mayApply"): string {
  const { done } = run;
  const did = [...done].map(([what, names]) => `${what} ${listed([...names])}`);
  if (done.size === 0 && check === "preview") return "Nothing was ordered or changed";
  const kept = [...run.replaced.keys()];
  // Replaced orders the engine cancels only once the run's every create and update succeeded (issue 64, case 4).
  const billedBeside =
    kept.length === 0
      ? ""
      : `; order${kept.length === 1 ? "" : "s"} ${listed(kept.map(String))}, which this run replaced, ` +
        `${kept.length === 1 ? "stays" : "stay"} billed beside ${kept.length === 1 ? "its replacement" : "their replacements"} ` +
        "until the run deletes it, or the next `pulumi up` does";
  // Changes judged before it whose calls have not returned (in-flight.ts): counted, and perhaps made by now.
  const flying = [...run.inFlight.values()].map((change) => change.fee.name);
  const underWay =
    flying.length === 0 ? "" : `; this run is still ordering or changing ${listed(flying)}, counted`;
  const said =
    (done.size === 0
      ? `Nothing was ${refused}, and this run ordered or changed nothing before it`
      : `Nothing was ${refused}; before it, this run ${did.join(", ")}`) +
    underWay +
    billedBeside;
  return check === "mayApply"
    ? `${said}. If this is the update of \`pulumi up\`, the VPSs checked before it go on, each ordered or ` +
        `changed only within the budget`
    : said;
}

/** What the totals pass, in the guard's words: the account's fees before and after the run's plan, the increase. */
export function overWords(
  settings: BudgetSettings,
  totals: BudgetTotals,
  orderCount: number,
  adds: number,
): string {
  const passed = limitsPassed(settings, totals);
  const over: string[] = [];
  if (passed.includes("monthlyBudgetUsd"))
    over.push(
      `take the monthly fees of the account's ${orderCount} active order${orderCount === 1 ? "" : "s"} from ` +
        `${dollars(totals.beforeCents)} to ${dollars(totals.afterCents)} with this run's changes, over the monthly ` +
        `budget of ${dollars(cents(settings.monthlyBudgetUsd!))} (${settingName("monthlyBudgetUsd")})`,
    );
  if (passed.includes("maxMonthlyIncreaseUsd"))
    over.push(
      `take this run's increase to ${dollars(totals.increaseCents)} a month (${dollars(totals.increaseCents - adds)} ` +
        `from its other changes), over the ${dollars(cents(settings.maxMonthlyIncreaseUsd!))} one run may add ` +
        `(${settingName("maxMonthlyIncreaseUsd")})`,
    );
  return over.join(", and ");
}
