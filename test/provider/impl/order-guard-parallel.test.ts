/**
 * The budget's guard lets a run's judged orders and changes run at once (provider/impl/ordering/order-guard.ts,
 * guard-run.ts's `inFlight`), against a real emulator (L1): the emulator holds each answer of an endpoint once what
 * the request does is done, so the account's listing already shows the orders and fees whose calls have not
 * returned. Each change in flight must count once, whatever the listing shows: twice refuses a run its preview passed
 * (I1), never lets a run past its budget (I3). docs/cost.md, "One at a time".
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { until } from "../../helpers/promises";
import { rejectionOf, useImplFixture } from "../support/impl-fixture";
import { guardSteps } from "../support/guard-steps";

const fixture = useImplFixture();

const { configure, vps, up, change } = guardSteps(fixture);

/** The monthly fee the emulator quotes a VPS of these inputs. */
async function feeOf(inputs: Record<string, unknown>): Promise<number> {
  const checked = await impl.check({}, { ...inputs, __preview: true });
  testing.forgetRun();
  return checked.inputs.plannedMonthlyFeeUsd as number;
}

/** The account's active orders: how many, and their monthly fees in cents. */
async function account(): Promise<{ orders: number; cents: number }> {
  const orders = (await fixture().byHand.listOrders({ includeInactive: false })).about_orders ?? [];
  const cents = orders.reduce(
    (sum, order) => sum + Math.round(Number(order.billing_info?.monthly_recurring_amt?.amt_usd) * 100),
    0,
  );
  return { orders: orders.length, cents };
}

/** Holds the first `count` answers of `endpoint`, once made, until released; `held`: how many are held now. */
function holdAnswers(endpoint: string, count: number) {
  const emulator = fixture().emulator.app.emulator;
  let open!: () => void;
  let taken = 0;
  const released = new Promise<void>((resolve) => (open = resolve));
  const hold = {
    held: 0,
    release() {
      emulator.answerTurn = undefined;
      open();
    },
  };
  emulator.answerTurn = async (name) => {
    if (name !== endpoint || taken === count) return;
    taken++;
    hold.held++;
    await released;
    hold.held--;
  };
  return hold;
}

const FLEET = ["web-1", "web-2", "web-3", "web-4"];
/** How long the fleet's calls get to be all in flight: a serial guard never gets there (it lets one through). */
const IN_FLIGHT_MS = 5_000;

describe("the budget's guard with changes in flight (L1)", () => {
  it("orders a fleet at once, counting each order in flight once, listed or not, to the exact budget", async () => {
    const fee = await feeOf(vps("web-1"));
    const grownFee = await feeOf(vps("db", { memoryMb: 2048 }));
    const db = await up(vps("db")); // an earlier run's VPS
    testing.forgetRun();
    // Exactly room for the fleet and db's growth.
    const budgetCents = Math.round(grownFee * 100) + FLEET.length * Math.round(fee * 100);
    await configure({ monthlyBudgetUsd: (budgetCents / 100).toFixed(2) });
    const hold = holdAnswers("createVps", FLEET.length);
    try {
      const fleet = Promise.all(FLEET.map((name) => up(vps(name))));
      let refused = false; // one refused (counted twice) ends the wait: its error is the test's failure
      fleet.catch(() => (refused = true));
      await until(
        `the ${FLEET.length} orders placed at once, their answers held`,
        () => hold.held === FLEET.length || refused,
        {
          timeoutMs: IN_FLIGHT_MS,
        },
      );
      if (refused) await fleet;
      // The listing shows the orders whose calls have not returned.
      expect((await account()).orders).toBe(1 + FLEET.length);
      // Judged now, each order in flight counted once: db's growth fits exactly, and nothing more does.
      const grown = await change(db, vps("db"), vps("db", { memoryMb: 2048 }));
      expect(grown.outs.memoryMb).toBe(2048);
      const extra = await rejectionOf(up(vps("web-5")));
      expect(extra.message).toMatch(
        /^\[RIMU_ERR_BUDGET\] web-5: ordering it .* account's 5 active orders from \$\d+\.00 .* Nothing was ordered for web-5; before it, this run changed db; this run is still ordering or changing (web-\d, ){2}web-\d and web-\d, counted\. /,
      );
      hold.release();
      // None withdrawn on its read-back: the orders in flight are counted there once too.
      expect((await fleet).map((created) => created.outs.domainName)).toEqual(
        FLEET.map((name) => `${name}.example.com`),
      );
    } finally {
      hold.release();
    }
    expect(await account()).toEqual({ orders: 1 + FLEET.length, cents: budgetCents });
  });

  it("gives the room of a call that failed having ordered nothing back", async () => {
    const fee = await feeOf(vps("web-1"));
    await configure({ monthlyBudgetUsd: fee.toFixed(2) });
    // RimuHosting refuses the order outright (not retried, nothing ordered): its reservation is released.
    fixture().emulator.injectFault({ route: "createVps", kind: "status", status: 400 });
    const failed = await rejectionOf(up(vps("web-1")));
    expect(failed.message).not.toContain("RIMU_ERR_BUDGET");
    expect(failed).not.toBeInstanceOf(impl.VpsIncompleteError);
    await up(vps("web-2"));
    expect(await account()).toEqual({ orders: 1, cents: Math.round(fee * 100) });
  });

  it("resizes a fleet at once, counting each resize in flight once, whichever fee the listing shows", async () => {
    const fee = await feeOf(vps("web-1"));
    const grownFee = await feeOf(vps("web-1", { memoryMb: 2048 }));
    const fleet = [];
    for (const name of FLEET) fleet.push(await up(vps(name)));
    testing.forgetRun();
    // Exactly room for every resize: one more order is over.
    const budgetCents = FLEET.length * Math.round(grownFee * 100);
    expect(budgetCents).toBeGreaterThan(FLEET.length * Math.round(fee * 100));
    await configure({ monthlyBudgetUsd: (budgetCents / 100).toFixed(2) });
    const hold = holdAnswers("changeParameters", FLEET.length);
    try {
      const resized = Promise.all(
        fleet.map((created, i) => change(created, vps(FLEET[i]!), vps(FLEET[i]!, { memoryMb: 2048 }))),
      );
      let refused = false; // one refused (counted twice) ends the wait: its error is the test's failure
      resized.catch(() => (refused = true));
      await until(
        `the ${FLEET.length} resizes made at once, their answers held`,
        () => hold.held === FLEET.length || refused,
        {
          timeoutMs: IN_FLIGHT_MS,
        },
      );
      if (refused) await resized;
      // The listing bills the new fees already: counted from the guard's record, not again.
      expect((await account()).cents).toBe(budgetCents);
      const extra = await rejectionOf(up(vps("web-5")));
      expect(extra.message).toMatch(
        /^\[RIMU_ERR_BUDGET\] web-5: ordering it .* Nothing was ordered for web-5, and this run ordered or changed nothing before it; this run is still ordering or changing (web-\d, ){2}web-\d and web-\d, counted\. /,
      );
      hold.release();
      expect((await resized).map((done) => done.outs.memoryMb)).toEqual(FLEET.map(() => 2048));
    } finally {
      hold.release();
    }
    expect(await account()).toEqual({ orders: FLEET.length, cents: budgetCents });
  });
});
