/**
 * The orders a failing run replaced (issue 64, I3). The engine cancels a replaced order only once every create and
 * update of the run succeeded; a run that fails on the budget leaves it billed beside its replacement until the
 * next `pulumi up`. When another run's order came meanwhile, the two together can keep the account over
 * monthlyBudgetUsd although every order was judged within it. So once a run is failing on the budget (a refusal, a
 * withdrawal, the native plugin's check in `pulumi up`) and has a replacement made, the account is read again, and
 * when it is over monthlyBudgetUsd the replaced orders are cancelled at once: their replacements are made, the state
 * still holds each as a pending delete, and the next `up`'s delete finds it gone (nothing to cancel).
 *
 * Owns: the rule and its words. The run's record of its replacements is guard-run.ts's.
 */
import type { AccountView } from "../account/account-view.js";
import { accountCentsOf, budgetInUse } from "../budget/budget.js";
import { cents, dollars } from "../cost/money.js";
import { emitNotes, warning } from "../engine/notes.js";
import { settingName } from "../engine/settings-source.js";
import { orderRef } from "../lifecycle/vps-converge.js";
import type { RunContext } from "../engine/run-context.js";
import { guardOf, inFlightOn, type Guard } from "./guard-run.js";
import { exclusive } from "./in-flight.js";

/**
 * A check of this run refused a change on the budget in what may be `pulumi up` (the native plugin's). The engine
 * may have made replacements of this run's before this check (each step starts just after its own check): the run
 * now fails, so their replaced orders are judged at once, as after a refusal when ordering (the money model's native
 * case). Returns what was done as a sentence of its own, ending ". " ("" when nothing was).
 */
export async function noteRefusedAtCheck(run: RunContext, view?: AccountView): Promise<string> {
  const guard = guardOf(run);
  noteFailing(guard, view);
  // In the judgements' lock, as after a refusal when ordering: no change of the run lands while its account is read.
  const words = view ? await exclusive(guard, () => cancelIfOver(guard, view)) : "";
  // cancelIfOver's words go on a sentence ("; order N, which …"); a check's refusal says them as one of their own.
  return words ? `${words.charAt(2).toUpperCase()}${words.slice(3)}. ` : "";
}

/**
 * `run` fails on the budget, and with it the whole command: said in the command's shared plan too, so that the other
 * providers' runs judge the orders they replaced so (a replacement on one provider, a refusal on another).
 */
export function noteFailing(run: Guard, view?: AccountView): void {
  run.failing = true;
  view?.sharedPlan?.noteFailing();
}

/**
 * Cancels the orders `run` replaced and still bills beside their replacements, when the run is failing and the
 * account with them is over monthlyBudgetUsd: the account once the run's changes in flight have landed, each counted
 * once from its record, as the run's totals count them (a listing read before a resize in flight is made bills its
 * old fee, one read before an order in flight is placed does not show it). Called in the judgements' lock. Returns
 * what was done, in words ("" when nothing was), for the run's refusal; `ordered`: no refusal follows (the resource
 * just ordered is kept), so it is said as a warning.
 */
export async function cancelReplacedIfOver(run: Guard, view: AccountView, ordered?: string): Promise<string> {
  const words = await cancelIfOver(run, view);
  if (words && ordered !== undefined)
    await emitNotes([warning(`${ordered}: ordered it${words}.`)], undefined);
  return words;
}

async function cancelIfOver(run: Guard, view: AccountView): Promise<string> {
  const { settings } = budgetInUse();
  if (settings.monthlyBudgetUsd === undefined || settings.enforcement === "warn") return "";
  // The orders replaced by any provider of the command (the others' in the shared plan), once any of them fails.
  const others = view.sharedPlan?.replacedByOthers() ?? new Set<number>();
  if (run.replaced.size === 0 && others.size === 0) return "";
  if (!run.failing && !view.sharedPlan?.failing()) return "";
  const budget = cents(settings.monthlyBudgetUsd);
  let listing: Awaited<ReturnType<AccountView["activeOrders"]>>;
  try {
    listing = await view.activeOrders({ fresh: true });
  } catch {
    // Not read: nothing is cancelled; the replaced orders stay named in the run's words (order-guard.ts).
    return "";
  }
  const { listed, changes } = inFlightOn(run, listing);
  const billedCents =
    accountCentsOf(listed).cents + changes.reduce((sum, change) => sum + change.landsCents, 0);
  if (billedCents <= budget) return "";
  // Those still billed: an order another provider's run cancelled already is left alone.
  const replaced = listing.filter(
    (order) => run.replaced.has(order.order_oid) || others.has(order.order_oid),
  );
  for (const oid of run.replaced.keys())
    if (!replaced.some((order) => order.order_oid === oid)) run.replaced.delete(oid);
  const cancelled: number[] = [];
  for (const order of replaced) {
    const oid = order.order_oid;
    try {
      await view.client.deleteVps(orderRef(oid, order.domain_name));
    } catch (error) {
      // Not cancelled: it stays billed beside its replacement, named, until the next `pulumi up` deletes it.
      await emitNotes(
        [
          warning(
            `order ${oid}, which this run replaced, could not be cancelled (${error instanceof Error ? error.message : String(error)}); ` +
              "the next `pulumi up` deletes it",
          ),
        ],
        undefined,
      );
      continue;
    }
    view.noteGone(oid);
    view.sharedPlan?.forgetReplaced(oid);
    run.replaced.delete(oid);
    cancelled.push(oid);
  }
  if (cancelled.length === 0) return "";
  const one = cancelled.length === 1;
  return (
    `; order${one ? "" : "s"} ${cancelled.join(", ")}, which this run replaced, ${one ? "was" : "were"} cancelled ` +
    `now: the run fails, so the engine would have left ${one ? "it" : "them"} billed beside ` +
    `${one ? "its replacement" : "their replacements"}, and the account's monthly fees (${dollars(billedCents)}, with the run's changes under way) over ` +
    `the monthly budget of ${dollars(budget)} (${settingName("monthlyBudgetUsd")})`
  );
}
