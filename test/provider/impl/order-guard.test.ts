/**
 * The budget at the moment of ordering (provider/impl/ordering/order-guard.ts), called as the host calls create() and
 * update() after a check with no preview (`pulumi up --skip-preview`, or a VPS the preview did not judge),
 * against a real emulator (L1). The account's orders are read from the emulator by hand: a refusal orders nothing.
 * Through the real CLI: test/engine/budget-flags.test.ts.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { until } from "../../helpers/promises";
import { rejectionOf, useImplFixture } from "../support/impl-fixture";
import { guardSteps } from "../support/guard-steps";

const fixture = useImplFixture({ planCurrencies: { MIRO8B: "CUR_NZD" } });

const { configure, vps, up, change } = guardSteps(fixture);

const orderOids = async () =>
  ((await fixture().byHand.listOrders({ includeInactive: false })).about_orders ?? [])
    .map((order) => order.order_oid)
    .sort();

const money = (n: number) => `$${n.toFixed(2)}`;

/** The monthly fee the emulator quotes a VPS of these inputs. */
async function feeOf(inputs: Record<string, unknown>): Promise<number> {
  const checked = await impl.check({}, { ...inputs, __preview: true });
  testing.forgetRun();
  return checked.inputs.plannedMonthlyFeeUsd as number;
}

describe("the budget when ordering (L1)", () => {
  it("refuses a create over monthlyBudgetUsd, ordering nothing, and says so in one coded line", async () => {
    const fee = await feeOf(vps("web-1"));
    await configure({ monthlyBudgetUsd: String(fee - 0.01) });
    const error = await rejectionOf(up(vps("web-1")));
    expect(error.message).toBe(
      `[RIMU_ERR_BUDGET] web-1: ordering it (+${money(fee)} a month) would take the monthly fees of the ` +
        `account's 0 active orders from $0.00 to ${money(fee)} with this run's changes, over the monthly budget ` +
        `of ${money(fee - 0.01)} ` +
        `(rimuhosting:monthlyBudgetUsd). Nothing was ordered for web-1, and this run ordered or changed nothing ` +
        `before it. Raise the limit, or order less in this run. See docs/cost.md.`,
    );
    expect(error).not.toBeInstanceOf(impl.VpsIncompleteError);
    expect(await orderOids()).toEqual([]);
  });

  it("names what the run already ordered, counts the account's every order, and never orders past it", async () => {
    const fee = await feeOf(vps("web-1"));
    const byHand = await up(vps("by-hand"));
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: String(3.5 * fee) });
    await up(vps("web-1"));
    await up(vps("web-2"));
    const before = await orderOids();
    const error = await rejectionOf(up(vps("web-3")));
    // The same figures as the preview's: the account before this run's changes, then after them.
    expect(error.message).toContain(
      `from ${money(fee)} to ${money(4 * fee)} with this run's changes, over the monthly budget of ${money(3.5 * fee)}`,
    );
    expect(error.message).toContain(
      "Nothing was ordered for web-3; before it, this run ordered web-1 and web-2. Raise the limit",
    );
    expect(await orderOids()).toEqual(before);
    expect(before).toContain(Number(byHand.id));
  });

  it("the native plugin's check, which runs in `pulumi up` too, names what the run ordered before it", async () => {
    const fee = await feeOf(vps("web-1"));
    await configure({ monthlyBudgetUsd: String(2.5 * fee) });
    // As the plugin runs `pulumi up --skip-preview`: each check with the preview flag (it cannot tell), then create.
    const nativeCheck = (name: string) =>
      impl.checkVps({}, vps(name, { __preview: true }), { mayApply: true });
    for (const name of ["web-1", "web-2"]) {
      const { inputs, failures } = await nativeCheck(name);
      expect(failures).toEqual([]);
      const { __preview: _flag, ...checked } = inputs;
      await impl.create(checked);
    }
    expect((await nativeCheck("web-3")).failures.map((f) => f.reason)).toEqual([
      expect.stringContaining(
        "Nothing was ordered or changed for web-3; before it, this run ordered web-1 and web-2. If this is the " +
          "update of `pulumi up`, the VPSs checked before it go on, each ordered or changed only within the budget",
      ),
    ]);
  });

  it("judges creates running in parallel one at a time: never both past the limit", async () => {
    const fee = await feeOf(vps("web-1"));
    await configure({ monthlyBudgetUsd: String(1.5 * fee) });
    const results = await Promise.allSettled([up(vps("web-1")), up(vps("web-2"))]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await orderOids()).toHaveLength(1);
  });

  it("maxMonthlyIncreaseUsd counts what this run applied before, not what the account is billed", async () => {
    const fee = await feeOf(vps("web-1"));
    await up(vps("old"));
    testing.forgetRun();
    await configure({ maxMonthlyIncreaseUsd: String(1.5 * fee) });
    await up(vps("web-1"));
    const error = await rejectionOf(up(vps("web-2")));
    expect(error.message).toContain(
      `would take this run's increase to ${money(2 * fee)} a month (${money(fee)} from its other changes), over the ` +
        `${money(1.5 * fee)} one run may add (rimuhosting:maxMonthlyIncreaseUsd)`,
    );
    expect(await orderOids()).toHaveLength(2);
  });

  it("refuses a resize that grows the fee past the budget: the VPS and its record stay as they were", async () => {
    const created = await up(vps("db"));
    const inputs = vps("db");
    testing.forgetRun();
    const fee = created.outs.monthlyFeeUsd as number;
    await configure({ monthlyBudgetUsd: String(fee + 0.5) });
    const error = await rejectionOf(change(created, inputs, { ...inputs, memoryMb: 2048 }));
    expect(error.message).toMatch(
      new RegExp(
        `^\\[RIMU_ERR_BUDGET\\] db: resizing it \\(memoryMb\\) \\(\\+\\$\\d+\\.\\d\\d a month\\) would take the ` +
          `monthly fees of the account's 1 active order from \\${money(fee)} to .*Nothing was changed on db, and ` +
          `this run ordered or changed nothing before it\\.`,
      ),
    );
    expect(error).not.toBeInstanceOf(impl.VpsIncompleteError);
    const order = (await fixture().byHand.getOrder(Number(created.id))).about_order;
    expect(order.vps_parameters?.memory_mb).toBe(1024);
  });

  it("lets a growing change within the budget through, and a shrink through on an account over it", async () => {
    const created = await up(vps("db"));
    await up(vps("web"));
    const inputs = vps("db");
    testing.forgetRun();
    const fee = created.outs.monthlyFeeUsd as number;
    await configure({ monthlyBudgetUsd: String(4 * fee) });
    const grown = await change(created, inputs, { ...inputs, memoryMb: 2048 });
    expect(grown.outs.memoryMb).toBe(2048);
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: "1", maxMonthlyIncreaseUsd: "0" });
    const grownInputs = { ...inputs, memoryMb: 2048 };
    const shrunk = await change({ id: created.id, outs: grown.outs }, grownInputs, inputs);
    expect(shrunk.outs.memoryMb).toBe(1024);
  });

  it("counts a replacement's create as its quote less the fee of the VPS it replaces", async () => {
    const created = await up(vps("app"));
    const inputs = created.inputs;
    testing.forgetRun();
    const fee = created.outs.monthlyFeeUsd as number;
    // The account is at its budget; the replacement (a new name) costs the same.
    await configure({ monthlyBudgetUsd: String(fee), maxMonthlyIncreaseUsd: "0" });
    const renamed = { ...vps("app"), domainName: "app-2.example.com" };
    await impl.check(inputs, renamed); // the engine's check of the replacement, with the old inputs
    const replacement = await up(renamed); // and again with none, then its create
    expect(replacement.outs.domainName).toBe("app-2.example.com");
  });

  it("a price with no USD amount: enforce refuses it (never $0), warn orders it with a warning", async () => {
    const nzd = vps("big", { pricingPlanCode: "MIRO8B", memoryMb: 8192, diskSpaceMb: 163840 });
    await configure({ monthlyBudgetUsd: "1000" });
    const error = await rejectionOf(up(nzd));
    expect(error.message).toMatch(
      /^\[RIMU_ERR_BUDGET\] big: the budget cannot count ordering it: RimuHosting priced it as NZ\$[\d,.]+ with no USD amount, and fees are counted in USD, and a price it cannot count is never counted as \$0\. Nothing was ordered for big/,
    );
    expect(await orderOids()).toEqual([]);
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: "1000", budgetEnforcement: "warn" });
    await up(nzd);
    expect(await orderOids()).toHaveLength(1);
    expect(fixture().logs).toContainEqual(
      expect.stringMatching(
        /^\[rimuhosting\] warning: big: the budget cannot count ordering it: .* \(rimuhosting:budgetEnforcement: warn\); it goes on\.$/,
      ),
    );
  });

  it("counts the replacement of an imported VPS (no nonce of this state) as its quote less the old order's fee", async () => {
    // An order placed outside Pulumi, then `pulumi import`ed: read() records its order id, and no order carries
    // the nonce check() gives the state. The replaced order is found by the recorded id, as the look-ahead does.
    const placed = await fixture().byHand.createVps({
      instantiation_options: { domain_name: "legacy.example.com", distro: "deb12.64" },
      vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
      dc_location: "DCDALLAS",
    });
    const oid = placed.about_order.order_oid;
    const fee = Number(placed.about_order.billing_info?.monthly_recurring_amt?.amt_usd);
    const read = (await impl.read(String(oid), {})).inputs as Record<string, unknown>;
    const { __orderOid: _oid, __creationNonce: _nonce, ...given } = read;
    const program = { ...given, creationScope: "shop/prod/legacy" };
    // The state after the import's `pulumi up`: the recorded order and a nonce that no order carries.
    const olds = (await impl.check(read, program)).inputs;
    expect(olds.__orderOid).toBe(oid);
    for (const state of [read, olds]) {
      testing.forgetRun();
      // The account is at its budget; the replacement (a new name) costs the same as the order it replaces.
      await configure({ monthlyBudgetUsd: String(fee), maxMonthlyIncreaseUsd: "0" });
      const renamed = { ...program, domainName: "legacy-2.example.com" };
      await impl.check(state, renamed); // the engine's check of the replacement, with the old inputs
      const replacement = await up(renamed);
      expect(replacement.outs.domainName).toBe("legacy-2.example.com");
      await impl.delete(replacement.id, replacement.outs);
    }
  });

  it("a replacement and a new VPS the plan holds within the budget both go through: the replaced order counts once", async () => {
    const created = await up(vps("app"));
    testing.forgetRun();
    const fee = created.outs.monthlyFeeUsd as number;
    // The update of `pulumi up`: the replacement (a new name) and a new VPS, the account's end total 2 × fee.
    await configure({ monthlyBudgetUsd: String(2 * fee + 1) });
    const renamed = { ...vps("app"), domainName: "app-2.example.com" };
    await impl.check(created.inputs, renamed); // the engine's check of the replacement, with the old inputs
    const replacement = await up(renamed); // and again with none, then its create: the old order is still billed
    const web = await up(vps("web"));
    expect(web.outs.domainName).toBe("web.example.com");
    await impl.delete(created.id, created.outs); // the engine cancels the replaced order last
    expect(await orderOids()).toEqual([Number(replacement.id), Number(web.id)].sort());
  });

  it("a shrink and a create landing exactly on the budget both go through, whichever runs first", async () => {
    const fee = await feeOf(vps("web"));
    for (const createFirst of [true, false]) {
      const db = await up(vps("db", { memoryMb: 2048 }));
      testing.forgetRun();
      // The update of `pulumi up`: both checked (the shrink first, as the preview passed them), then applied.
      await configure({ monthlyBudgetUsd: String(2 * fee) });
      const shrunk = (await impl.check(db.inputs, vps("db"))).inputs;
      const web = (await impl.check({}, vps("web"))).inputs;
      const create = () => impl.create(web);
      const shrink = () => impl.update(db.id, db.outs as never, shrunk);
      const [first, second] = createFirst ? [create, shrink] : [shrink, create];
      await first();
      await second();
      const live = (await fixture().byHand.listOrders({ includeInactive: false })).about_orders ?? [];
      expect(live.map((o) => o.vps_parameters?.memory_mb).sort()).toEqual([1024, 1024]);
      for (const order of live) await fixture().byHand.deleteVps(order.order_oid);
      testing.forgetRun();
    }
  });

  describe('a create checked before the shrink its preview counted (docs/cost.md, "When")', () => {
    // The engine checks an update's resources in the order their registrations reach it, which can differ from the
    // preview's (a loop of VPSs, a YAML program), and runs a create just after its check: through the CLI, the money
    // model's seed 6464, case 19. The guard counts only the shrinks this run checked (I3), so it waits for the check
    // of one the preview planned (ordering/previewed-wait.ts), a reason to wait, never counted.
    afterEach(() => testing.setPreviewedWait(undefined));

    /** db billed at 2 GB, a budget of two 1 GB VPSs; `preview`: the preview checks db's shrink, then web. */
    async function setUp(preview: boolean) {
      const fee = await feeOf(vps("web"));
      const billed = await feeOf(vps("db", { memoryMb: 2048 }));
      const db = await up(vps("db", { memoryMb: 2048 }));
      testing.forgetRun();
      await configure({ monthlyBudgetUsd: String(2 * fee) });
      if (preview) {
        expect((await impl.check(db.inputs, { ...vps("db"), __preview: true })).failures).toBeUndefined();
        expect((await impl.check({}, { ...vps("web"), __preview: true })).failures).toBeUndefined();
      }
      testing.forgetRun();
      // The update: web checked and created before db is checked.
      const web = (await impl.check({}, vps("web"))).inputs;
      return { fee, billed, db, web, before: await orderOids() };
    }

    it("waits for the update's check of that shrink, then orders, the account within the budget", async () => {
      const { fee, db, web, before } = await setUp(true);
      const waiting = testing.nextPreviewedWait();
      const creating = impl.create(web);
      // The guard is waiting (a create judged at once settles `creating` first, and the test fails on it).
      await Promise.race([waiting, creating]);
      const checkedDb = await impl.check(db.inputs, vps("db"));
      const created = await creating;
      expect(await orderOids()).toEqual([...before, Number(created.id)].sort());
      await impl.update(db.id, db.outs as never, checkedDb.inputs);
      const billed = fixture()
        .emulator.snapshot()
        .filter((o) => !o.cancelled)
        .reduce((sum, o) => sum + o.monthlyFeeUsd, 0);
      expect(billed).toBeCloseTo(2 * fee, 2);
    });

    it("with no shrink previewed, refuses at once, ordering nothing", async () => {
      const { fee, billed, web, before } = await setUp(false);
      const error = await rejectionOf(impl.create(web));
      expect(error.message).toContain(
        `from ${money(billed)} to ${money(billed + fee)} with this run's changes, over the monthly budget of ` +
          `${money(2 * fee)}`,
      );
      expect(await orderOids()).toEqual(before);
    });

    it("refuses once the wait runs out when the update never checks the previewed shrink, ordering nothing", async () => {
      const { fee, billed, web, before } = await setUp(true);
      testing.setPreviewedWait(300);
      const error = await rejectionOf(impl.create(web));
      expect(error.message).toContain(
        `from ${money(billed)} to ${money(billed + fee)} with this run's changes, over the monthly budget of ` +
          `${money(2 * fee)}`,
      );
      expect(await orderOids()).toEqual(before);
    });

    it("waits no longer than the create's own time limit (the engine's customTimeouts), then refuses, ordering nothing", async () => {
      const { fee, billed, web, before } = await setUp(true);
      // A wait bound far past this test's timeout: only the create's 0.3 s limit can end the wait in time.
      testing.setPreviewedWait(600_000);
      const error = await rejectionOf(impl.create(web, { timeoutSeconds: 0.3 }));
      expect(error.message).toContain(
        `from ${money(billed)} to ${money(billed + fee)} with this run's changes, over the monthly budget of ` +
          `${money(2 * fee)}`,
      );
      expect(await orderOids()).toEqual(before);
    }, 30_000);
  });

  it("a create a cent past the budget with the run's shrink is refused, ordering nothing", async () => {
    const fee = await feeOf(vps("web"));
    const db = await up(vps("db", { memoryMb: 2048 }));
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: String(2 * fee - 0.01) });
    await impl.check(db.inputs, vps("db"));
    const web = (await impl.check({}, vps("web"))).inputs;
    const before = await orderOids();
    const error = await rejectionOf(impl.create(web));
    expect(error.message).toContain(`to ${money(2 * fee)} with this run's changes, over the monthly budget`);
    expect(await orderOids()).toEqual(before);
  });

  it("withdraws its own order when an order placed before it by another run takes the account past the budget", async () => {
    const fee = await feeOf(vps("web-1"));
    await configure({ monthlyBudgetUsd: String(1.5 * fee) });
    // This run's order is judged on an account with nothing, then held before RimuHosting takes it; meanwhile
    // another run's order is taken first (a lower order number).
    fixture().emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 2000 });
    const ours = up(vps("web-1"));
    // Until the emulator holds our order (the delay taken), not a fixed wait: on a loaded machine our run had not
    // reached RimuHosting after 300 ms, the delay held theirs instead, and ours, judged first, rightly stayed.
    const faults = fixture().emulator.app.emulator.faults;
    await until("this run's order held by the delay", () => faults.pending().length === 0);
    const theirs = await fixture().byHand.createVps({
      instantiation_options: { domain_name: "other-stack.example.com", distro: "deb12.64" },
      vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
      dc_location: "DCDALLAS",
    });
    const error = await rejectionOf(ours);
    expect(error.message).toMatch(
      new RegExp(
        `^\\[RIMU_ERR_BUDGET\\] web-1: ordered it as order \\d+, then found the account's orders placed up to it ` +
          `\\(it and the 1 placed before it, by any run or by hand\\) take the monthly fees to \\${money(2 * fee)} with this run's changes, over the ` +
          `monthly budget of \\${money(1.5 * fee)} \\(rimuhosting:monthlyBudgetUsd\\); order \\d+ was cancelled at once`,
      ),
    );
    expect(error).not.toBeInstanceOf(impl.VpsIncompleteError);
    expect(await orderOids()).toEqual([theirs.about_order.order_oid]);
  });

  /**
   * A resize by another run at the same moment as this run's order (docs/cost.md, "Several runs at once"): the rule
   * after each new order counts the account's orders up to it by order number, at their fees when it reads them. A
   * resize that has landed by then is counted, and this run's order goes; one that lands after is neither counted
   * nor undone (a resize is judged when it is made, on the listing of that moment), and the account stays over.
   */
  it.each([
    ["lands before the order is read back: the order is withdrawn, the account within", "createVps", true],
    ["lands after it: both are kept, and the account is over its budget", "changeParameters", false],
  ] as const)("another run's resize %s", async (_title, held, withdrawn) => {
    const f1 = await feeOf(vps("db"));
    const f2 = await feeOf(vps("db", { memoryMb: 2048 }));
    const db = await up(vps("db"));
    const budget = Math.max(f2, 2 * f1);
    await configure({ monthlyBudgetUsd: String(budget) });
    // Each change alone fits the budget; together they do not. `held` is the request held 2 s before it is made.
    fixture().emulator.injectFault({ route: held, kind: "delay", delayMs: 2000 });
    const resize = async () => {
      testing.forgetRun();
      const checked = await impl.check(db.inputs, vps("db", { memoryMb: 2048 }));
      return impl.update(db.id, db.outs as never, checked.inputs);
    };
    const order = async () => {
      testing.forgetRun();
      return up(vps("web"));
    };
    // The held change is judged first, then the other one is made while it waits.
    const first = held === "createVps" ? order() : resize();
    // Until the emulator holds the first change (its delay taken), not a fixed wait (as above).
    const faults = fixture().emulator.app.emulator.faults;
    await until(`the ${held} held by the delay`, () => faults.pending().length === 0);
    const second = held === "createVps" ? resize() : order();
    const [ordered] = await Promise.allSettled(held === "createVps" ? [first, second] : [second, first]);
    // The account's active orders as the emulator bills them.
    const fees = fixture()
      .emulator.snapshot()
      .filter((o) => !o.cancelled)
      .map((o) => o.monthlyFeeUsd);
    const total = fees.reduce((sum, fee) => sum + fee, 0);
    expect({
      withdrawn:
        ordered.status === "rejected" && /was cancelled at once/.test((ordered.reason as Error).message),
      orders: fees.length,
      over: total > budget,
    }).toEqual({ withdrawn, orders: withdrawn ? 1 : 2, over: !withdrawn });
  });

  // A run failing under a limit cancels the orders it replaced (ordering/replaced-orders.ts); a cancellation answered
  // with an error is read, and asked once more while the order is still billed (the money model's seed 85004).
  it.each([
    [1, "asked once more, it is cancelled"],
    // The refusal and the failed create each judge the replaced orders (replaced-orders.ts): four asks in all.
    [4, "refused each time, it stays billed, named in a warning"],
  ] as const)(
    "a failing run's cancellation of the order it replaced, answered %i time(s) with a 503: %s",
    async (times, _outcome) => {
      const fee = await feeOf(vps("app"));
      const app = await up(vps("app"));
      testing.forgetRun();
      // Room for app's replacement (the same fee: it adds nothing), not for one more VPS.
      await configure({ monthlyBudgetUsd: fee.toFixed(2) });
      await impl.check(app.inputs, vps("app-2")); // the engine's check of the replacement, with the old inputs
      const replacement = await up(vps("app-2"));
      fixture().emulator.injectFault({
        route: "deleteVps",
        kind: "status",
        status: 503,
        retryAfterSeconds: 0,
        times,
      });
      const refused = await rejectionOf(up(vps("web-2")));
      fixture().emulator.app.emulator.faults.clear();
      expect(refused.message).toMatch(/^\[RIMU_ERR_BUDGET\] web-2: ordering it /);
      const cancelled = `order ${app.id}, which this run replaced, was cancelled now`;
      const warned = expect.stringContaining(
        `order ${app.id}, which this run replaced, could not be cancelled`,
      );
      if (times === 1) {
        expect(refused.message).toContain(cancelled);
        expect(await orderOids()).toEqual([Number(replacement.id)]);
        expect(fixture().logs).not.toContainEqual(warned);
      } else {
        expect(refused.message).not.toContain(cancelled);
        expect(await orderOids()).toEqual([Number(app.id), Number(replacement.id)].sort());
        expect(fixture().logs).toContainEqual(warned);
      }
    },
  );
});
