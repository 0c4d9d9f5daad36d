/**
 * The budget at the moment of ordering (docs/cost.md): no order and no growing change is sent to RimuHosting
 * that would take the account over a limit, whatever the run's flags (`--skip-preview`, `--target`), on both
 * front ends (both call create() and update() of vps-provider.ts, which call here).
 *
 * Scope: the account the API key reaches. Just before a new order (a create, a replacement's create, a pending
 * create ordered in update) or a change that changes the fee (a resize, a move; an adopted order brought to the
 * program), the account's active orders are read fresh and their fees summed; this change's growth is
 * RimuHosting's quote of the request less what the VPS (or the VPS it replaces) is billed now. Refused when the
 * total after is over monthlyBudgetUsd, or this run's increase (what this process applied so far, and this) is
 * over maxMonthlyIncreaseUsd. A change that does not grow the fee is never refused. A price that cannot be had:
 * `enforce` refuses it (never counted as $0), `warn` goes on with a warning.
 *
 * One change is judged and applied at a time in this process (a lock), so two creates running in parallel
 * cannot both pass on the same total. The judging uses cost/money.ts's cents and budget.ts's settings.
 */
import type { AboutOrder } from "../../contract/index.js";
import { budgetInUse } from "./budget.js";
import { cents, dollars } from "./cost/money.js";
import { creationNonceOf, creationTokenFor } from "./creation-token.js";
import { VPS_ERROR_CODES, VpsError, VpsIncompleteError } from "./errors.js";
import { pricedOf, type QuotedValues } from "./money.js";
import { emitNotes, resourceKey, resourceName, warning } from "./notes.js";
import { settingName } from "./settings-source.js";
import { feeOfMoney } from "./planned-fee.js";
import { currentRun, runState } from "./run-context.js";
import { configuredBaseUrl } from "./runtime-config.js";
import { liveOrderOf, priceOf } from "./vps-lookahead.js";
import { computeChanges, REPLACE_FORCING_INPUTS } from "./vps-changes.js";
import type { VpsInputs } from "./vps-input-schema.js";
import { orderOutputs, type RecordedOutputs } from "./vps-outputs.js";
import { orderFields } from "../wire-mapping/order-fields.js";
import { carriesCreationToken } from "../client/index.js";
import type { AccountView } from "./account-view.js";
import { same } from "./canonical-json.js";

/** What this guard keeps of one run (run-context.ts). */
const GUARD = runState("the budget guard's record of what the run ordered and changed", () => ({
  /** What this process did in this run, by what it did (in the order first done): ordered → web-1, web-2. */
  done: new Map<string, string[]>(),
  /** The growth this process applied in this run (new VPSs, growing changes), in cents a month. */
  appliedCents: 0,
  /**
   * Resources whose check planned a replacement: the recorded inputs of the VPS being replaced, whose order
   * liveOrderOf finds as the look-ahead does (the recorded order id first: an imported VPS carries no nonce).
   */
  replacing: new Map<string, VpsInputs>(),
  /** The tail of the lock: each judged change waits for the one before it. */
  lock: Promise.resolve(),
}));

const guard = () => currentRun().get(GUARD);

/** A change this process applied to `name` ("ordered", "changed", "adopted", "cancelled"). */
export function noteDone(what: string, name: string): void {
  const { done } = guard();
  const names = done.get(what) ?? [];
  if (!names.includes(name)) names.push(name);
  done.set(what, names);
}

/**
 * check() of an existing resource whose change replaces it: the replacement's create (checked again with no old
 * inputs, so with a new nonce) counts its quote less what the order it replaces is billed.
 */
export function noteCheckedChange(olds: VpsInputs, news: VpsInputs): void {
  if (Object.keys(olds).length === 0) return;
  if (REPLACE_FORCING_INPUTS.some((name) => !same(olds[name] ?? null, news[name] ?? null)))
    guard().replacing.set(resourceKey(news), olds);
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
export function whatWasDone(refused: string, check?: "preview" | "mayApply"): string {
  const { done } = guard();
  const did = [...done].map(([what, names]) => `${what} ${listed(names)}`);
  if (done.size === 0 && check === "preview") return "Nothing was ordered or changed";
  const said =
    done.size === 0
      ? `Nothing was ${refused}, and this run ordered or changed nothing before it`
      : `Nothing was ${refused}; before it, this run ${did.join(", ")}`;
  return check === "mayApply"
    ? `${said}. If this is the update of \`pulumi up\`, the VPSs checked before it go on, each ordered or ` +
        `changed only within the budget`
    : said;
}

/** Runs `fn` alone among the judged changes of this process. */
async function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const run = guard();
  const before = run.lock;
  let release!: () => void;
  run.lock = new Promise((resolve) => (release = resolve));
  await before;
  try {
    return await fn();
  } finally {
    release();
  }
}

/** A change to judge: its name, what it is, the quote of its request and what it replaces. */
interface Planned {
  name: string;
  /** "ordering it", "resizing it (memoryMb)". */
  doing: string;
  /** What is refused: "ordered for web-3". */
  refused: string;
  /** What RimuHosting quotes: the plan, data centre and sizes the VPS has after the change. */
  priced: QuotedValues;
  /** The fee billed now of what this change replaces or changes (undefined: a new VPS; NaN: not known). */
  nowUsd?: number;
}

const limitsSet = (): boolean => {
  const { settings, problems } = budgetInUse();
  return (
    problems.length === 0 &&
    (settings.monthlyBudgetUsd !== undefined || settings.maxMonthlyIncreaseUsd !== undefined)
  );
};

/** The account's active orders, read fresh once per judged change (never the run's kept listing). */
type Orders = () => Promise<readonly AboutOrder[]>;

/**
 * Judges what `plan` says (undefined: nothing to judge), then applies it: throws the refusal before `apply` runs,
 * or runs it and counts its growth once it applied (also when it failed after a change, VpsIncompleteError).
 */
async function judged<T>(
  view: AccountView,
  plan: (orders: Orders) => Promise<Planned | undefined>,
  apply: () => Promise<T>,
): Promise<T> {
  return exclusive(async () => {
    let listing: Promise<readonly AboutOrder[]> | undefined;
    const orders = () => (listing ??= view.activeOrders({ fresh: true }));
    const planned = await plan(orders);
    if (!planned) return apply();
    const growth = await judge(view, orders, planned);
    try {
      const result = await apply();
      guard().appliedCents += Math.max(0, growth);
      return result;
    } catch (error) {
      if (error instanceof VpsIncompleteError) guard().appliedCents += Math.max(0, growth);
      throw error;
    }
  });
}

/**
 * The quote of `planned` in USD, or why there is none: a quote that failed (`failed`), a price with no USD amount.
 */
async function quoteUsd(
  view: AccountView,
  planned: Planned,
): Promise<{ usd?: number; why?: string; failed?: true }> {
  const quoted = await priceOf({ view, baseUrl: configuredBaseUrl() }, planned.priced);
  if ("problem" in quoted) return { why: quoted.problem, failed: true };
  const fee = feeOfMoney(quoted.price);
  return fee.usd === undefined ? { why: fee.why } : { usd: fee.usd };
}

/** The verdict on `planned`: its growth in cents when it may go on; throws the refusal otherwise. */
async function judge(view: AccountView, listing: Orders, planned: Planned): Promise<number> {
  const { settings } = budgetInUse();
  const warn = settings.enforcement === "warn";
  const stop = async (reason: string, advice: string): Promise<number> => {
    if (!warn)
      throw new VpsError(
        VPS_ERROR_CODES.budget,
        `${planned.name}: ${reason}. ${whatWasDone(planned.refused)}. ${advice}.`,
      );
    await emitNotes(
      [warning(`${planned.name}: ${reason} (${settingName("budgetEnforcement")}: warn); it goes on.`)],
      undefined,
    );
    return 0;
  };
  const quoted = await quoteUsd(view, planned);
  if (quoted.usd === undefined || Number.isNaN(planned.nowUsd))
    return stop(
      `the budget cannot count ${planned.doing}: ${quoted.why ?? "RimuHosting does not report what it is billed now"}, ` +
        `and a price it cannot count is never counted as $0`,
      `${quoted.failed ? "Run it again once RimuHosting quotes it" : "Choose a plan RimuHosting prices in USD"}, ` +
        `or set ${settingName("budgetEnforcement")} to warn`,
    );
  const growth = cents(quoted.usd) - (planned.nowUsd === undefined ? 0 : cents(planned.nowUsd));
  if (growth <= 0) return growth;
  const orders = settings.monthlyBudgetUsd === undefined ? [] : await listing();
  const fees = orders.map((order) => orderFields(order).monthlyFeeUsd);
  const unknown = orders.filter((_, i) => fees[i] === undefined).map((order) => order.order_oid);
  const beforeCents = fees.reduce<number>((sum, fee) => sum + (fee === undefined ? 0 : cents(fee)), 0);
  const over: string[] = [];
  const budget = settings.monthlyBudgetUsd;
  if (budget !== undefined && unknown.length > 0)
    return stop(
      `the budget cannot total the account: RimuHosting reports no monthly fee for order ${listed(unknown.map(String))}`,
      `Leave out ${settingName("monthlyBudgetUsd")}, or set ${settingName("budgetEnforcement")} to warn`,
    );
  if (budget !== undefined && beforeCents + growth > cents(budget))
    over.push(
      `take the monthly fees of the account's ${orders.length} active order${orders.length === 1 ? "" : "s"} from ${dollars(beforeCents)} to ` +
        `${dollars(beforeCents + growth)}, over the monthly budget of ${dollars(cents(budget))} ` +
        `(${settingName("monthlyBudgetUsd")})`,
    );
  const increase = settings.maxMonthlyIncreaseUsd;
  const { appliedCents } = guard();
  if (increase !== undefined && appliedCents + growth > cents(increase))
    over.push(
      `take this run's increase to ${dollars(appliedCents + growth)} a month (${dollars(appliedCents)} applied ` +
        `before it), over the ${dollars(cents(increase))} one run may add (${settingName("maxMonthlyIncreaseUsd")})`,
    );
  if (over.length === 0) return growth;
  await stop(
    `${planned.doing} (+${dollars(growth)} a month) would ${over.join(", and ")}`,
    "Raise the limit, or order less in this run",
  );
  return growth;
}

/**
 * A new order (create(), a replacement's create, a pending create ordered by update()), judged and placed by
 * `order` ("found": this state's own order already on the account, which orders nothing new).
 */
export async function guardedOrder<T extends { found: boolean }>(
  view: AccountView,
  news: VpsInputs,
  nonce: string,
  order: () => Promise<T>,
): Promise<T> {
  const name = resourceName(news);
  const plan = async (listing: Orders): Promise<Planned | undefined> => {
    const orders = await listing();
    const token = creationTokenFor(news);
    if (orders.some((o) => carriesCreationToken(o, token) && creationNonceOf(o) === nonce)) return undefined;
    const old = guard().replacing.get(resourceKey(news));
    const replaced = old === undefined ? undefined : liveOrderOf({ isNew: false, before: old }, orders).order;
    return {
      name,
      doing: replaced ? `ordering its replacement (for order ${replaced.order_oid})` : "ordering it",
      refused: `ordered for ${name}`,
      priced: pricedOf(news),
      nowUsd: replaced ? (orderFields(replaced).monthlyFeeUsd ?? NaN) : undefined,
    };
  };
  const ordered = limitsSet() ? await judged(view, plan, order) : await order();
  if (!ordered.found) noteDone("ordered", name);
  return ordered;
}

/**
 * A change to a live order (update(), or an adopted order brought to the program), judged when it resizes or
 * moves the VPS, and applied by `change`. `what`: the word for what this run then did ("changed", "adopted").
 */
export async function guardedChange<T>(
  view: AccountView,
  target: { live: AboutOrder; recorded: RecordedOutputs; news: VpsInputs },
  what: string,
  change: () => Promise<T>,
): Promise<T> {
  const name = resourceName(target.news);
  const plan = (): Planned | undefined => {
    if (!limitsSet()) return undefined;
    const { live, recorded, news } = target;
    const current = orderOutputs(live, recorded);
    const changes = computeChanges(String(live.order_oid), current, news);
    if (changes.parameters.length === 0 && !changes.move) return undefined;
    // The order's plan, data centre and sizes with the program's over them; a move keeps the data centre
    // (check() refuses a host in another, host-checks.ts), and RimuHosting prices a VPS by those alone.
    const priced: QuotedValues = { ...pricedOf(current), ...pricedOf(news) };
    const steps = [
      ...(changes.parameters.length > 0 ? [`resizing it (${changes.parameters.join(", ")})`] : []),
      ...(changes.move ? [`moving it to host ${String(news.hostServerOid)}`] : []),
    ];
    return {
      name,
      doing: steps.join(" and "),
      refused: `changed on ${name}`,
      priced,
      nowUsd: orderFields(live).monthlyFeeUsd ?? NaN,
    };
  };
  try {
    const planned = plan();
    const result = planned ? await judged(view, async () => planned, change) : await change();
    noteDone(what, name);
    return result;
  } catch (error) {
    if (error instanceof VpsIncompleteError) noteDone(what, name);
    throw error;
  }
}
