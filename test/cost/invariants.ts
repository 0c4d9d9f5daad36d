/**
 * The budget's invariants I1–I6 (docs/cost.md, "The invariants"), one checker each, over what a test saw of runs
 * and of the account. Each returns undefined when the invariant holds, or what broke it in words. The model test
 * (money-model.test.ts) calls them after every step; any table of cases may.
 *
 * Money is in whole US cents, orders by their order number.
 */

/** An active order on the account, as the emulator lists it. */
export interface OrderSeen {
  oid: number;
  cents: number;
  domain: string;
}

/** What one preview found: its verdict, its figure and the other judges' verdicts on the same checks. */
export interface PreviewSeen {
  stack: string;
  passed: boolean;
  /** The account's monthly fees after the run, as the preview counts them (its checked fees). */
  figureCents: number;
  /** The account's orders before and after the preview: a preview changes nothing. */
  ordersBefore: readonly OrderSeen[];
  ordersAfter: readonly OrderSeen[];
  /** The bill's and the pack's verdicts on the preview's checks ("fail" blocks); undefined: not judged. */
  bill?: "pass" | "fail";
  pack?: "pass" | "fail";
}

/** What one `up` did after its preview. */
export interface UpSeen {
  stack: string;
  preview: PreviewSeen;
  /** The update ran every step. */
  completed: boolean;
  /** Its errors, each as the engine would print it. */
  errors: readonly string[];
  /** The account's orders when it settled. */
  ordersAfter: readonly OrderSeen[];
  /**
   * Nothing happened outside the run while it ran: no fault, no kill, no outside change, no other run at the same
   * time. I1 promises only then.
   */
  alone: boolean;
}

const total = (orders: readonly OrderSeen[]): number => orders.reduce((sum, o) => sum + o.cents, 0);
const usd = (c: number): string => `$${(c / 100).toFixed(2)}`;
const oids = (orders: readonly OrderSeen[]): string =>
  orders
    .map((o) => `${o.oid}:${usd(o.cents)}`)
    .sort()
    .join(",");

/** I1: a preview that passes, with nothing changed outside the run, means `up` completes at the preview's figure. */
export function I1(up: UpSeen): string | undefined {
  if (!up.preview.passed || !up.alone) return undefined;
  if (!up.completed)
    return `I1: ${up.stack}'s preview passed at ${usd(up.preview.figureCents)}, and up failed: ${up.errors.join(" | ")}`;
  const after = total(up.ordersAfter);
  // NaN: the preview could not price every VPS (a pending create), so it stated no figure.
  if (!Number.isNaN(up.preview.figureCents) && after !== up.preview.figureCents)
    return `I1: ${up.stack}'s preview said the account ends at ${usd(up.preview.figureCents)}; it ended at ${usd(after)}`;
  return undefined;
}

/**
 * I2: a preview that fails means nothing is ordered, changed or cancelled (neither by the preview nor by `up`).
 * `mine`: the stack's own orders, when other runs changed the account meanwhile (only those are compared).
 */
export function I2(
  preview: PreviewSeen,
  ordersAfterUp?: readonly OrderSeen[],
  mine: (order: OrderSeen) => boolean = () => true,
): string | undefined {
  const of = (orders: readonly OrderSeen[]) => oids(orders.filter(mine));
  const before = of(preview.ordersBefore);
  if (of(preview.ordersAfter) !== before)
    return `I2: ${preview.stack}'s preview changed the account: ${before} → ${of(preview.ordersAfter)}`;
  if (!preview.passed && ordersAfterUp && of(ordersAfterUp) !== before)
    return `I2: ${preview.stack}'s preview failed, and its up changed the account: ${before} → ${of(ordersAfterUp)}`;
  return undefined;
}

/** The account once a set of concurrent runs settled, for I3. */
export interface SettledSeen {
  /** The account's monthly budget every stack shares (undefined: none). */
  budgetCents?: number;
  /** The account's orders before the runs started, and once they settled. */
  ordersBefore: readonly OrderSeen[];
  ordersAfter: readonly OrderSeen[];
  /**
   * What the changes made outside the runs while they ran (an order placed by hand, another account user's; a VPS
   * grown by hand) added to the account's monthly fees, each when it was made: not the runs' (none: 0).
   */
  addedByHandCents?: number;
  /**
   * What the runs' resizes and moves added that were judged on a listing read before another of the runs placed an
   * order or grew a VPS, a change that stays, and landed after it (model/landings.ts): the guard did not see that
   * change, and an order's rule did not count them when it read the account before they landed (docs/cost.md, I3
   * and "Several runs at once"): not the runs' to answer for. One judged on a listing that shows the change is.
   */
  judgedBeforeOthersCents?: number;
}

/**
 * I3: once every run of a set of concurrent runs has settled (finished, or killed and followed by one `up` of its
 * stack), the account's new orders are within every budget: the account, less what changes made by hand while the
 * runs ran added when they were made, is within the budget, or, when the account was over it before the runs, no
 * higher than it was (docs/cost.md, I3). A change by hand that lowers the account is not added back: the runs may
 * use the room it made.
 */
export function I3(settled: SettledSeen): string | undefined {
  if (settled.budgetCents === undefined) return undefined;
  const byHand = settled.addedByHandCents ?? 0;
  const late = settled.judgedBeforeOthersCents ?? 0;
  const after = total(settled.ordersAfter) - byHand - late;
  const before = total(settled.ordersBefore);
  if (after <= Math.max(settled.budgetCents, before)) return undefined;
  const setAside = [
    ...(byHand ? [`the ${usd(byHand)} changes by hand added`] : []),
    ...(late ? [`the ${usd(late)} resizes and moves judged before another run's change added`] : []),
  ];
  return (
    `I3: the runs took the account from ${usd(before)} to ${usd(after + byHand + late)} (orders ` +
    `${oids(settled.ordersAfter)})${setAside.length ? `, ${usd(after)} less ${setAside.join(" and ")}` : ""}, ` +
    `over its budget of ${usd(settled.budgetCents)}`
  );
}

/** The account against the stacks' states, for I4. */
export interface OwnedSeen {
  orders: readonly OrderSeen[];
  /** Each stack's state: the order numbers it records. */
  states: ReadonlyMap<string, ReadonlySet<number>>;
  /** Orders placed outside every stack (by hand). */
  outside: ReadonlySet<number>;
  /** What the runs printed (errors, warnings): an order named there is accounted for until the next `up`. */
  said: readonly string[];
  /**
   * Each stack's VPSs as its state holds them (replaced orders waiting for their delete left out), for the stacks
   * none of whose orders was cancelled outside Pulumi since their last refresh: each must be billed.
   */
  held?: ReadonlyMap<string, ReadonlySet<number>>;
}

/**
 * I4: every billed order is in exactly one stack's state, or was named in the output of the run that made it (to be
 * taken back by the next `up` of that stack); and the other way round, no run cancels an order its stack's state
 * still holds as one of the program's VPSs (a state that says a VPS is there when it is not lost the VPS).
 */
export function I4(owned: OwnedSeen): string | undefined {
  const billed = new Set(owned.orders.map((o) => o.oid));
  for (const [stack, oids] of owned.held ?? [])
    for (const oid of oids)
      if (!billed.has(oid)) return `I4: ${stack}'s state holds order ${oid}, which is no longer billed`;
  for (const order of owned.orders) {
    if (owned.outside.has(order.oid)) continue;
    const holders = [...owned.states].filter(([, oids]) => oids.has(order.oid)).map(([stack]) => stack);
    if (holders.length > 1) return `I4: order ${order.oid} is in the states of ${holders.join(" and ")}`;
    if (holders.length === 1) continue;
    if (owned.said.some((line) => line.includes(String(order.oid)))) continue;
    return `I4: order ${order.oid} (${order.domain}, ${usd(order.cents)}) is billed, in no state, and no run named it`;
  }
  return undefined;
}

/** A budget refusal's code (docs/errors.md): a preview's failure for another reason is no verdict on the budget. */
const BUDGET_REFUSAL = /RIMU_ERR_BUDGET\b/;

/**
 * I5: the preview, the guard, the bill and the pack give one verdict on the budget. A preview that fails for
 * another reason only (an adoption refused, a data centre full) gives none: the bill and the pack, which judge the
 * budget alone, are not compared with it.
 */
export function I5(up: UpSeen, guardRefused: boolean): string | undefined {
  const { preview } = up;
  const refusedOnBudget = up.errors.some((error) => BUDGET_REFUSAL.test(error));
  if (!preview.passed && !refusedOnBudget) return undefined;
  const provider = preview.passed ? "pass" : "fail";
  const judges = { provider, bill: preview.bill ?? provider, pack: preview.pack ?? provider };
  if (new Set(Object.values(judges)).size > 1)
    return `I5: ${up.stack}'s judges differ: ${JSON.stringify(judges)}`;
  if (preview.passed && guardRefused && up.alone)
    return `I5: ${up.stack}'s preview passed and the guard refused: ${up.errors.join(" | ")}`;
  return undefined;
}

/** One VPS updated in place: what diff() planned, and the live order before and after. */
export interface UpdateSeen {
  name: string;
  /** The inputs diff() planned to change ("memoryMb", "diskSpaceMb", "metaData", …). */
  planned: readonly string[];
  before: Readonly<Record<string, unknown>>;
  after: Readonly<Record<string, unknown>>;
}

/**
 * I6: `update` does what `diff()` planned and nothing else: a field drifted outside Pulumi and not in the plan is
 * left as it is.
 */
export function I6(update: UpdateSeen): string | undefined {
  const changed = Object.keys(update.before).filter(
    (key) => JSON.stringify(update.before[key]) !== JSON.stringify(update.after[key]),
  );
  const unplanned = changed.filter((key) => !update.planned.includes(key));
  if (unplanned.length === 0) return undefined;
  return (
    `I6: the update of ${update.name} changed ${unplanned.map((k) => `${k} ${JSON.stringify(update.before[k])} → ` + JSON.stringify(update.after[k])).join(", ")}, ` +
    `which diff() did not plan (it planned ${update.planned.join(", ") || "nothing"})`
  );
}

/** Every checker, by name: the model test names each in its checks. */
export const INVARIANTS = { I1, I2, I3, I4, I5, I6 } as const;
