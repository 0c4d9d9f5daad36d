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
import { activeOrderOids, rejectionOf, useImplFixture } from "../support/impl-fixture";
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

/**
 * Holds the first `count` calls of `endpoint` until released; `held`: how many are held now. `answers`: each once
 * what it does is done (an order placed is listed meanwhile); `requests`: each before anything is done (not listed).
 */
function holdAnswers(endpoint: string, count: number, what: "answers" | "requests" = "answers") {
  const emulator = fixture().emulator.app.emulator;
  const hook = what === "answers" ? "answerTurn" : "turn";
  let open!: () => void;
  let taken = 0;
  const released = new Promise<void>((resolve) => (open = resolve));
  const hold = {
    held: 0,
    release() {
      emulator[hook] = undefined;
      open();
    },
  };
  emulator[hook] = async (name) => {
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

  it("asks a change's quote before its turn: no judgement waits on another's quote", async () => {
    await configure({ monthlyBudgetUsd: "1000" });
    // Checked first; then web-1's judgement holds the lock while its listing of the account is held.
    const web1 = (await impl.check({}, vps("web-1"))).inputs;
    const web2 = (await impl.check({}, vps("web-2", { memoryMb: 2048 }))).inputs;
    const emulator = fixture().emulator.app.emulator;
    const hold = holdAnswers("listOrders", 1, "requests");
    const served: string[] = [];
    const holding = emulator.turn!;
    emulator.turn = async (name, request) => {
      served.push(name);
      await holding(name, request);
    };
    try {
      const first = impl.create(web1);
      await until("web-1's judgement listing the account, held", () => hold.held === 1, {
        timeoutMs: IN_FLIGHT_MS,
      });
      const quotedBefore = served.filter((name) => name === "quoteNewVm").length;
      const second = impl.create(web2);
      // web-2's quote (a plan of its own: not one kept from web-1's) is asked while web-1 is judged.
      await until(
        "web-2's quote asked during web-1's turn",
        () => served.filter((name) => name === "quoteNewVm").length > quotedBefore,
        {
          timeoutMs: IN_FLIGHT_MS,
        },
      );
      hold.release();
      await Promise.all([first, second]);
    } finally {
      hold.release();
    }
    expect((await account()).orders).toBe(2);
  });

  describe("a failing run's replaced orders, judged with its changes in flight counted once (issue 67)", () => {
    // A run refused on the budget cancels the orders it replaced (ordering/replaced-orders.ts): the engine would leave
    // them billed beside their replacements, and the next `up`'s preview would count them (issue 81, seed 8808),
    // whether the account with them is over monthlyBudgetUsd (a resize in flight growing it) or not (one shrinking it).

    /**
     * app replaced by app-2 (the same fee), then db resized from `dbMb` to `toMb`, its call held before it is made,
     * while web-2 (`webMb`) is refused: the refusal's words, then the account once db's resize is made.
     */
    async function replacedWhileResizing(dbMb: number, toMb: number, webMb: number) {
      const fee = await feeOf(vps("app"));
      const grownFee = await feeOf(vps("app", { memoryMb: 2048 }));
      // The fees these cases need: a 2 GB VPS costs more than a 1 GB one, and no more than two.
      expect(grownFee).toBeGreaterThan(fee);
      expect(Math.round(grownFee * 100)).toBeLessThanOrEqual(2 * Math.round(fee * 100));
      const app = await up(vps("app"));
      const db = await up(vps("db", { memoryMb: dbMb }));
      testing.forgetRun();
      const budgetCents = 3 * Math.round(fee * 100);
      await configure({ monthlyBudgetUsd: (budgetCents / 100).toFixed(2) });
      const renamed = vps("app-2");
      await impl.check(app.inputs, renamed); // the engine's check of the replacement, with the old inputs
      await up(renamed); // app's order stays billed until the engine cancels it, after every create and update
      const hold = holdAnswers("changeParameters", 1, "requests");
      try {
        const resize = change(db, vps("db", { memoryMb: dbMb }), vps("db", { memoryMb: toMb }));
        let failed = false; // a resize refused ends the wait: its error is the test's failure
        resize.catch(() => (failed = true));
        await until("db's resize judged, its call held before it is made", () => hold.held === 1 || failed, {
          timeoutMs: IN_FLIGHT_MS,
        });
        if (failed) await resize;
        const refused = await rejectionOf(up(vps("web-2", { memoryMb: webMb })));
        expect(refused.message).toMatch(/^\[RIMU_ERR_BUDGET\] web-2: ordering it /);
        hold.release();
        expect((await resize).outs.memoryMb).toBe(toMb);
        const oids = () => activeOrderOids(fixture());
        return {
          refused: refused.message,
          app: Number(app.id),
          oids: await oids(),
          account: await account(),
          budgetCents,
        };
      } finally {
        hold.release();
      }
    }

    it("a growing resize in flight, not made yet when the account is read: the replaced order is cancelled", async () => {
      const seen = await replacedWhileResizing(1024, 2048, 1024);
      expect(seen.refused).toContain(`order ${seen.app}, which this run replaced, was cancelled now`);
      // Left billed, app's order would have kept the account over the budget once db grew (I3).
      expect(seen.oids).not.toContain(seen.app);
      expect(seen.account.cents).toBeLessThanOrEqual(seen.budgetCents);
    });

    it("a shrink in flight, not made yet when the account is read: the replaced order is cancelled too", async () => {
      const seen = await replacedWhileResizing(2048, 1024, 2048);
      // Within the budget once db has shrunk, but the next `up` deletes it first, and its preview would count it.
      expect(seen.refused).toContain(`order ${seen.app}, which this run replaced, was cancelled now`);
      expect(seen.oids).not.toContain(seen.app);
      expect(seen.account.orders).toBe(2);
    });
  });
});
