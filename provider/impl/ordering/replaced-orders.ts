/**
 * The orders a failing run replaced (issue 64, I3; issue 81). The engine cancels a replaced order only once every
 * create and update of the run succeeded; a failing run leaves it billed beside its replacement, in the state as
 * a pending delete that the next `pulumi up` deletes before anything else. Until then every judge counts it
 * billed: with another run's order come meanwhile the account can stay over monthlyBudgetUsd although every order
 * was judged within it (I3), and the next `up`'s preview, which cannot tell a pending delete from a VPS that
 * stays, refuses or overstates that `up` (I1: the money model's seed 8808, a run refused after a VPS grown by
 * hand during it). So once a run under a limit is failing (a refusal, a withdrawal, the native plugin's check in
 * `pulumi up`, or any create, update or delete of it failing, whatever the error: seed 2202, a new VPS lost to a
 * dropped connection; 81013, an update of a VPS cancelled by hand; 81016, a cancellation refused) and has a
 * replacement made (or one the engine records though its outcome is unknown), the orders it replaced are
 * cancelled at once: their replacements are made, the state still holds each as a pending delete, and the next
 * `up`'s delete finds it gone (nothing to cancel). Nothing is lost: that delete would have cancelled it first
 * whatever the program then says. A cancellation answered with an error is asked once more while the order is
 * read still billed (seed 85004, a 503: cancelSettled below).
 *
 * Owns: the rule and its words. The run's record of its replacements is guard-run.ts's.
 */
import type { AboutOrder } from "../../../contract/index.js";
import type { AccountView } from "../account/account-view.js";
import { VpsIncompleteError } from "../engine/errors.js";
import { RimuNotFoundError } from "../../client/index.js";
import { isOrderGone } from "../../wire-mapping/order-fields.js";
import { emitNotes, warning } from "../engine/notes.js";
import { settingName } from "../engine/settings-source.js";
import { orderRef } from "../lifecycle/vps-converge.js";
import { accountView } from "../lifecycle/runtime-config.js";
import type { RunContext } from "../engine/run-context.js";
import { guardOf, type Guard } from "./guard-run.js";
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
  const words = view ? await exclusive(guard, () => cancelIfFailing(guard, view)) : "";
  // cancelIfFailing's words go on a sentence ("; order N, which …"); a check's refusal says them as one of their own.
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
 * Runs a create, an update or a delete of `name`'s VPS (`what`: "Updating a Vps"), and judges the replaced orders
 * when it throws, on the budget or on anything else: a change failing on an error (seed 2202, a dropped connection),
 * an order cancelled by hand found gone (seed 81013), a cancellation refused (seed 81016, a 503). The engine then
 * fails the command and deletes no replaced order, so a run under a limit is failing as after a refusal, and the
 * orders it (or another provider of the command) replaced are cancelled at once; what was, is said as a warning.
 * vps-provider.ts runs every step through it: the one place all their failures pass. The step's own error is the
 * one thrown.
 */
export async function failingStep<T>(
  context: RunContext,
  name: string,
  what: string,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await stepFailed(context, what, name);
    throw error;
  }
}

async function stepFailed(context: RunContext, what: string, name: string): Promise<void> {
  const { settings } = context.settings.budget;
  if (settings.monthlyBudgetUsd === undefined && settings.maxMonthlyIncreaseUsd === undefined) return;
  const run = guardOf(context);
  try {
    const view = accountView(context, what);
    // In the judgements' lock: no change of the run lands while its account is read.
    await exclusive(run, async () => {
      noteFailing(run, view);
      const words = await cancelIfFailing(run, view);
      if (words) await emitNotes(context, [warning(`${name}: its change failed${words}.`)], undefined);
    });
  } catch {
    // The account not reachable (no API key, a read or a note that failed): the replaced orders stay billed beside
    // their replacements, pending deletes in the state, until the next `pulumi up` deletes them first.
  }
}

/**
 * A replacement's create (of the order `replaced`) failed with `error`. One the engine records all the same (its
 * outcome unknown, RIMU_ERR_CREATE_OUTCOME_UNKNOWN: a pending create) makes the order it replaces a pending delete,
 * which the next `pulumi up` deletes before anything else: replaced as by a made replacement, so the failing run
 * cancels it here too. Left billed, the next preview would count it beside the pending create its update orders (the
 * money model's seed 81014, case 3375). Returns `error`.
 */
export function replacedAllTheSame(run: Guard, error: unknown, replaced?: AboutOrder): unknown {
  if (error instanceof VpsIncompleteError && replaced) run.replaced.set(replaced.order_oid, replaced);
  return error;
}

/**
 * Cancels the orders `run` (or another provider of its command) replaced and still bills beside their replacements,
 * when the run is failing under a limit. Called in the judgements' lock. Returns what was done, in words ("" when
 * nothing was), for the run's refusal; `ordered`: no refusal follows (the resource just ordered is kept), so it is
 * said as a warning.
 */
export async function cancelReplacedIfFailing(
  run: Guard,
  view: AccountView,
  ordered?: string,
): Promise<string> {
  const words = await cancelIfFailing(run, view);
  if (words && ordered !== undefined)
    await emitNotes(run.context, [warning(`${ordered}: ordered it${words}.`)], undefined);
  return words;
}

async function cancelIfFailing(run: Guard, view: AccountView): Promise<string> {
  const { settings } = run.context.settings.budget;
  const limited = settings.monthlyBudgetUsd !== undefined || settings.maxMonthlyIncreaseUsd !== undefined;
  if (!limited || settings.enforcement === "warn") return "";
  // The orders replaced by any provider of the command (the others' in the shared plan), once any of them fails: of
  // the others', only those whose replacement is kept. One still being judged may yet be withdrawn, its create failing
  // on the budget, and the engine then keeps the order it replaced in the state as live (issue 80: cancelled here, the
  // state would hold a cancelled VPS); its own run judges it.
  const others = view.sharedPlan?.replacedByOthers(undefined, true) ?? new Set<number>();
  if (run.replaced.size === 0 && others.size === 0) return "";
  if (!run.failing && !view.sharedPlan?.failing()) return "";
  let listing: Awaited<ReturnType<AccountView["activeOrders"]>>;
  try {
    listing = await view.activeOrders({ fresh: true });
  } catch (error) {
    // Not read: nothing is cancelled, and said (issue 91: a replacement landing in a failing run said nothing, its
    // replaced order left billed beside it in silence).
    return unreadWords([...run.replaced.keys(), ...others], error);
  }
  // Those still billed: an order another provider's run cancelled already is left alone.
  const replaced = listing.filter(
    (order) => run.replaced.has(order.order_oid) || others.has(order.order_oid),
  );
  for (const oid of run.replaced.keys())
    if (!replaced.some((order) => order.order_oid === oid)) run.replaced.delete(oid);
  const cancelled: number[] = [];
  for (const order of replaced) {
    const oid = order.order_oid;
    const refused = await cancelSettled(view, orderRef(oid, order.domain_name));
    if (refused !== undefined) {
      // Refused twice: it stays billed beside its replacement, named, a pending delete in the state that the next
      // `pulumi up` deletes first, once its preview (which counts it) passes.
      await emitNotes(
        run.context,
        [
          warning(
            `order ${oid}, which this run replaced, could not be cancelled (${refused instanceof Error ? refused.message : String(refused)}); ` +
              "the next `pulumi up` deletes it first, once its preview passes: that preview counts it against the " +
              "budget, so raise the limit for that run if it refuses",
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
    `${one ? "its replacement" : "their replacements"} until the next \`pulumi up\`, whose preview would count ` +
    `${one ? "it" : "them"} against the budget (${settingName(settings.monthlyBudgetUsd === undefined ? "maxMonthlyIncreaseUsd" : "monthlyBudgetUsd")})`
  );
}

/** The words for replaced orders `oids` left billed because the account's orders could not be read: `error`. */
function unreadWords(oids: readonly number[], error: unknown): string {
  if (oids.length === 0) return "";
  const one = oids.length === 1;
  return (
    `; order${one ? "" : "s"} ${oids.join(", ")}, which this run replaced, could not be cancelled: the account's ` +
    `orders could not be read (${error instanceof Error ? error.message : String(error)}); the next \`pulumi up\` ` +
    `deletes ${one ? "it" : "them"} first, once its preview passes: that preview counts ${one ? "it" : "them"} ` +
    "against the budget, so raise the limit for that run if it refuses"
  );
}

/**
 * Cancels the replaced order `ref`: an answer that is an error is settled by reading the order. Gone, it counts as
 * cancelled (an answer lost after the cancellation). Still billed, it was not cancelled (a 503, a 429), and is asked
 * once more: left billed, it keeps the account over the budget beside its replacement, the next preview refusing on
 * it (the money model's seed 85004: a replacement ordered after another change was refused, its replaced order's
 * cancellation answered with a 503). The transport never repeats a cancellation, which a second time would fail on
 * an order already cancelled; one read still billed first is not. Returns the error of a cancellation refused twice,
 * or of one whose order could not be read (undefined: cancelled).
 */
async function cancelSettled(view: AccountView, ref: ReturnType<typeof orderRef>): Promise<unknown> {
  let refused: unknown;
  for (let ask = 0; ask < 2; ask++) {
    try {
      await view.client.deleteVps(ref);
      return undefined;
    } catch (error) {
      if (error instanceof RimuNotFoundError) return undefined;
      refused = error;
    }
    const order = await view.client.getOrder(ref).then(
      (response) => response.about_order,
      (readError: unknown) => (readError instanceof RimuNotFoundError ? null : undefined),
    );
    if (order === null || (order && isOrderGone(order, Date.now()))) return undefined;
    // Not read: whether it was cancelled is not known, so it is not asked again.
    if (order === undefined) return refused;
  }
  return refused;
}
