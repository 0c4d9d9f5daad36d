/**
 * Two of the order guard's answers (provider/impl/ordering/order-guard.ts, issue 91), against a real emulator:
 * - a move is priced as the check prices it: the VPS as the order on its new host, one request for both;
 * - after a replacement lands in a run already failing on the budget, the orders it replaced are judged at once
 *   (replaced-orders.ts), and an account that cannot be read then is said, never passed over in silence: the order
 *   it replaced stays billed beside it, and the warning names it and why.
 */
import * as testing from "../../../provider/impl/testing";
import { useImplFixture } from "../support/impl-fixture";
import { guardSteps } from "../support/guard-steps";

const fixture = useImplFixture();

const { configure, vps, up, change } = guardSteps(fixture);

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
});
