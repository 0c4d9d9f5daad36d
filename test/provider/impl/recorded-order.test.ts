/**
 * Every existing VPS counted (issue 40, item 3): check() is handed the recorded inputs, never the outputs or the id,
 * so the state's inputs record the order (RECORDED_ORDER_KEY, `__orderOid`): read() records it on an import or a
 * refresh, check() keeps it, and the look-ahead finds the live order by it first (vps-lookahead.ts, liveOrderOf).
 * An order placed outside Pulumi carries no creation nonce of this state: without the recorded order its resize
 * was invisible to the budget. Against the emulator over real HTTP (L1). Through the real CLI on both front ends:
 * test/engine/recorded-order.test.ts.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { RECORDED_ORDER_KEY } from "../../../provider/impl/fields/vps-fields";
import { stackConfigWith, useImplFixture } from "../support/impl-fixture";
import { until } from "../../helpers/promises";

const fixture = useImplFixture();
const PREVIEW = { __preview: true } as const;
const money = (n: number) => `$${n.toFixed(2)}`;

const configure = (settings: Record<string, string>) =>
  impl.configure({ config: stackConfigWith(fixture().emulator.baseUrl, settings) });

/** An order placed outside Pulumi (no creation token or nonce), and its monthly fee. */
async function orderByHand(): Promise<{ oid: number; feeUsd: number }> {
  const placed = await fixture().byHand.createVps({
    instantiation_options: { domain_name: "legacy.example.com", distro: "deb12.64" },
    vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
    dc_location: "DCDALLAS",
  });
  const order = placed.about_order;
  return { oid: order.order_oid, feeUsd: Number(order.billing_info?.monthly_recurring_amt?.amt_usd) };
}

/** `pulumi import <oid>`: read() with no recorded state; the engine records the inputs it returns. */
async function imported(oid: number): Promise<Record<string, unknown>> {
  const read = await impl.read(String(oid), {});
  return read.inputs as Record<string, unknown>;
}

/** The program's inputs for the imported VPS: what `pulumi import` printed, with `change` over them. */
function program(olds: Record<string, unknown>, change: Record<string, unknown> = {}) {
  const { [RECORDED_ORDER_KEY]: _oid, __creationNonce: _nonce, ...given } = olds;
  return { ...given, creationScope: "shop/prod/legacy", ...change, ...PREVIEW };
}

describe("a VPS whose order carries no nonce of this state (pulumi import)", () => {
  test("the import records its order, and a resize is counted against maxMonthlyIncreaseUsd and monthlyBudgetUsd", async () => {
    const { oid, feeUsd } = await orderByHand();
    const olds = await imported(oid);
    expect(olds[RECORDED_ORDER_KEY]).toBe(oid);

    testing.forgetRun();
    const same = await impl.check(olds, program(olds));
    expect(same.failures).toBeUndefined();
    expect(same.inputs.plannedMonthlyFeeUsd).toBe(feeUsd);
    // check() keeps the order in the inputs the engine records, so the next preview finds it too.
    expect(same.inputs[RECORDED_ORDER_KEY]).toBe(oid);

    testing.forgetRun();
    const resized = await impl.check(same.inputs, program(olds, { memoryMb: 4096 }));
    const afterUsd = resized.inputs.plannedMonthlyFeeUsd as number;
    expect(afterUsd).toBeGreaterThan(feeUsd + 1);

    testing.forgetRun();
    await configure({ maxMonthlyIncreaseUsd: "1" });
    const overIncrease = await impl.check(same.inputs, program(olds, { memoryMb: 4096 }));
    expect(overIncrease.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(/^\[RIMU_ERR_BUDGET\] .* over the \$1\.00 one run may add/),
    ]);
    expect(overIncrease.failures?.[0]?.reason).toContain(
      `legacy +${money(afterUsd - feeUsd)} (${money(feeUsd)} → ${money(afterUsd)})`,
    );

    testing.forgetRun();
    await configure({ monthlyBudgetUsd: String(feeUsd) });
    const overBudget = await impl.check(same.inputs, program(olds, { memoryMb: 4096 }));
    expect(overBudget.failures?.[0]?.reason).toContain(
      `from ${money(feeUsd)} to ${money(afterUsd)}, over the monthly budget of ${money(feeUsd)}`,
    );
    // No change: within any limit it already meets.
    testing.forgetRun();
    await configure({ monthlyBudgetUsd: String(feeUsd), maxMonthlyIncreaseUsd: "0" });
    expect((await impl.check(same.inputs, program(olds))).failures).toBeUndefined();
  });

  test("the reason a fee cannot be counted is true: no order recorded, or the recorded one cancelled", async () => {
    const { oid } = await orderByHand();
    const olds = await imported(oid);
    await configure({ maxMonthlyIncreaseUsd: "100" });
    // As an earlier release recorded it: neither the order nor a nonce any order carries.
    const { [RECORDED_ORDER_KEY]: _oid, ...older } = olds;
    testing.forgetRun();
    expect((await impl.check(older, program(olds))).failures?.[0]?.reason).toContain(
      "this stack's state records no order number for it and no active order carries its creation nonce " +
        "(a state written before the provider recorded the order): run `pulumi refresh` once to record it",
    );
    // A refresh records it.
    const refreshed = await impl.read(String(oid), { ...older, orderOid: oid });
    expect(refreshed.inputs?.[RECORDED_ORDER_KEY]).toBe(oid);
    await fixture().byHand.deleteVps(oid);
    testing.forgetRun();
    expect((await impl.check(olds, program(olds))).failures?.[0]?.reason).toContain(
      `order ${oid}, which this stack's state records, is not among the account's active orders`,
    );
  });

  test("a replacement does not keep the order it replaces; a program cannot set the recorded order", async () => {
    const { oid } = await orderByHand();
    const olds = await imported(oid);
    testing.forgetRun();
    // A new data centre, the imported host left out (a host in DCDALLAS cannot take it: host-data-centre.test.ts).
    const moved = await impl.check(olds, program(olds, { dcLocation: "DCLONDON", hostServerOid: undefined }));
    expect(moved.failures).toBeUndefined();
    expect(moved.inputs[RECORDED_ORDER_KEY]).toBeUndefined();
    const forged = await impl.check(olds, { ...program(olds), [RECORDED_ORDER_KEY]: oid + 1 });
    expect(forged.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(/__orderOid: is internal and must not be set by the program/),
    ]);
  });

  test("a VPS created by the last run and cancelled by hand since is not taken for a create still to order", async () => {
    const news = {
      domainName: "fresh.example.com",
      distro: "deb12.64",
      dcLocation: "DCDALLAS" as const,
      memoryMb: 512,
      diskSpaceMb: 10240,
      creationScope: "shop/prod/fresh",
    };
    testing.forgetRun();
    const checked = (await impl.check({}, news)).inputs;
    // The inputs the engine records of a create: its nonce, no order number (check() records it at the next run).
    expect(checked[RECORDED_ORDER_KEY]).toBeUndefined();
    const { id } = await impl.create(checked);
    await fixture().byHand.deleteVps(Number(id));
    await configure({ maxMonthlyIncreaseUsd: "100" });
    testing.forgetRun();
    // Its order is listed among the inactive ones (include_inactive): its fee is unknown, not a new VPS's quote.
    expect((await impl.check(checked, { ...news, ...PREVIEW })).failures?.[0]?.reason).toContain(
      `order ${id}, which carries this VPS's creation nonce, is no longer active (cancelled outside Pulumi?`,
    );
  });

  test("a create still to order whose order is placed between the check's two listings is priced as that order", async () => {
    const news = {
      domainName: "late.example.com",
      distro: "deb12.64",
      dcLocation: "DCDALLAS" as const,
      memoryMb: 512,
      diskSpaceMb: 10240,
      creationScope: "shop/prod/late",
    };
    testing.forgetRun();
    const checked = (await impl.check({}, news)).inputs;
    const emulator = fixture().emulator.app.emulator;
    // The create (of an earlier run, its outcome unknown to the state) is held before its order is placed; the
    // check's active listing misses it, and its order is placed just before the listing of inactive orders too.
    let releaseCreate!: () => void;
    const createHeld = new Promise<void>((resolve) => (releaseCreate = resolve));
    let creating: Promise<{ id: string }> | undefined;
    let [createReached, placedBetween] = [false, false];
    emulator.turn = async (endpoint, request) => {
      if (endpoint === "createVps") {
        createReached = true;
        return createHeld;
      }
      if (endpoint !== "listOrders" || request.emu.matrix.get("include_inactive")?.[0] !== "Y") return;
      emulator.turn = undefined;
      releaseCreate();
      await creating;
      placedBetween = true;
    };
    try {
      const earlier = testing.beginRun(`earlier run ${Math.random()}`);
      creating = testing.serving(earlier, () => impl.create(checked));
      await until("the earlier run's order to be held", () => createReached);
      await configure({ maxMonthlyIncreaseUsd: "0" });
      testing.forgetRun();
      const seen = await impl.check(checked, { ...news, ...PREVIEW });
      const { id } = await creating;
      expect(placedBetween).toBe(true);
      // Not "no longer active", no unknown fee: its own order, unchanged, so a $0 increase passes.
      expect(seen.failures).toBeUndefined();
      expect(seen.inputs[RECORDED_ORDER_KEY]).toBe(Number(id));
    } finally {
      emulator.turn = undefined;
      releaseCreate();
    }
  });
});
