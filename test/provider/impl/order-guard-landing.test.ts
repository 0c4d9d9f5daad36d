/**
 * Two of the order guard's answers (provider/impl/ordering/order-guard.ts, issue 91), against a real emulator:
 * - a move is priced as the check prices it: the VPS as the order on its new host, one request for both;
 * - after a replacement lands in a run already failing on the budget, the orders it replaced are judged at once
 *   (replaced-orders.ts), and an account that cannot be read then is said, never passed over in silence: the order
 *   it replaced stays billed beside it, and the warning names it and why.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { until } from "../../helpers/promises";
import { rejectionOf, useImplFixture } from "../support/impl-fixture";
import { guardSteps } from "../support/guard-steps";

const fixture = useImplFixture();

const { configure, vps, up, change } = guardSteps(fixture);

const orderOids = async () =>
  ((await fixture().byHand.listOrders({ includeInactive: false })).about_orders ?? [])
    .map((order) => order.order_oid)
    .sort();

/** The monthly fee the emulator quotes a VPS of these inputs. */
async function feeOf(inputs: Record<string, unknown>): Promise<number> {
  const checked = await impl.check({}, { ...inputs, __preview: true });
  testing.forgetRun();
  return checked.inputs.plannedMonthlyFeeUsd as number;
}

describe("the order guard after the check (issue 91)", () => {
  it("prices a move as the check does, on its new host: one quote of the VPS there for both", async () => {
    const created = await up(vps("web-1", { hostServerOid: "764" }));
    testing.forgetRun(); // `pulumi up`: a new provider host
    await configure({ monthlyBudgetUsd: "1000" });
    const start = fixture().emulator.requestLog().length;
    await change(created, created.inputs, vps("web-1", { hostServerOid: "835" }));
    const routes = fixture()
      .emulator.requestLog()
      .slice(start)
      .map((entry) => entry.route);
    expect(routes.filter((route) => route === "quoteNewVm")).toHaveLength(1);
    expect(routes).toContain("moveVps");
    expect(
      fixture()
        .emulator.snapshot()
        .find((o) => String(o.orderOid) === created.id),
    ).toMatchObject({
      hostOid: "835",
    });
    expect(testing.guardVerdicts().map((v) => v.judgement)).toEqual(["fits"]);
  });

  it("a replacement landing in a failing run whose account cannot be read then names the order left billed", async () => {
    const fee = await feeOf(vps("app"));
    const app = await up(vps("app"));
    testing.forgetRun();
    // Room for app's replacement (the same fee: it adds nothing), not for one more VPS.
    await configure({ monthlyBudgetUsd: fee.toFixed(2) });
    await impl.check(app.inputs, vps("app-2")); // the engine's check of the replacement, with the old inputs
    // The run fails on the budget first; then the replacement is ordered, and lands in the failing run.
    expect((await rejectionOf(up(vps("web-2")))).message).toMatch(/^\[RIMU_ERR_BUDGET\] web-2: ordering it /);
    // The emulator holds the replacement's answer once ordered; the account's listing then fails (a 500: not repeated).
    fixture().emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 500 });
    const before = await orderOids();
    const replacing = up(vps("app-2"));
    await until("the replacement ordered", async () => (await orderOids()).length > before.length);
    fixture().emulator.injectFault({ route: "listOrders", kind: "status", status: 500 });
    const replacement = await replacing;
    expect(await orderOids()).toEqual([Number(app.id), Number(replacement.id)].sort());
    expect(fixture().logs).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^\\[rimuhosting\\] warning: app-2: ordered it; order ${app.id}, which this run replaced, could not be ` +
            `cancelled: the account's orders could not be read \\(.+\\); the next \`pulumi up\` deletes it first`,
        ),
      ),
    );
  });
});
