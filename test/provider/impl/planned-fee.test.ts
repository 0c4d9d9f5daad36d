/**
 * L1: plannedMonthlyFeeUsd, the fee a VPS is billed once this run's change is applied, in check()'s result (the
 * contract policy packs, the bill and the budget read): the quote for a new VPS, a resize and a replacement, the
 * live fee when unchanged; absent when it cannot be known; never a change by itself; and states without it work.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import * as native from "../../../provider/native/vps-resource";
import { UNKNOWN } from "../../../provider/impl/inputs/unknowns";
import { plannedFeeOf } from "../../../provider/impl/budget/planned-fee";
import { accountView, configuredBaseUrl } from "../../../provider/impl/lifecycle/runtime-config";
import { currentRun } from "../../../provider/impl/engine/run-context";
import { priceOf } from "../../../provider/impl/lookahead/vps-lookahead";
import { orderFields } from "../../../provider/wire-mapping/order-fields";
import { APP_INPUTS, createChecked, unchecked, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture({ planCurrencies: { MIRO8B: "CUR_NZD" } });
const PREVIEW = { __preview: true } as const;
const quotes = () =>
  fixture()
    .emulator.requestLog()
    .filter((r) => r.route === "quoteNewVm");
const money = (line: string) => [...line.matchAll(/\$(\d+\.\d\d)/g)].map((m) => Number(m[1]));
const lineOf = (pattern: RegExp) => fixture().logs.find((l) => pattern.test(l)) ?? "";

/** A VPS created as `pulumi up` would, then a new run (a new provider host). */
async function existing() {
  const { id, outs, inputs } = await createChecked(APP_INPUTS);
  testing.forgetRun();
  fixture().logs.length = 0;
  return { id, outs, inputs };
}

describe("plannedMonthlyFeeUsd in check()'s result", () => {
  it("a new VPS in a preview: RimuHosting's quote, with the one quote the preview asks anyway", async () => {
    const checked = await impl.check({}, { ...APP_INPUTS, ...PREVIEW });
    expect(checked.failures).toBeUndefined();
    const quoted = money(lineOf(/app: new VPS:/))[0];
    expect(quoted).toBeGreaterThan(0);
    expect(checked.inputs.plannedMonthlyFeeUsd).toBe(quoted);
    expect(quotes()).toHaveLength(1);
  });

  it("the update that follows a preview (the dynamic Vps checks again there): the same figures", async () => {
    // A policy pack judges `pulumi up`'s update phase from these checked inputs too (policy-pack/policies.ts).
    const previewed = await impl.check({}, { ...APP_INPUTS, ...PREVIEW });
    const updating = await impl.check({}, APP_INPUTS);
    expect(updating.inputs.plannedMonthlyFeeUsd).toBeGreaterThan(0);
    expect(updating.inputs.plannedMonthlyFeeUsd).toBe(previewed.inputs.plannedMonthlyFeeUsd);
    const { outs, inputs } = await existing();
    const resize = { ...APP_INPUTS, memoryMb: 2048 };
    const resizePreviewed = await impl.check(inputs, { ...resize, ...PREVIEW });
    testing.forgetRun();
    const resizing = await impl.check(inputs, resize);
    expect(resizing.inputs.plannedMonthlyFeeUsd).toBeGreaterThan(outs.monthlyFeeUsd as number);
    expect(resizing.inputs.plannedMonthlyFeeUsd).toBe(resizePreviewed.inputs.plannedMonthlyFeeUsd);
  });

  it("absent where it cannot be known: an unknown size, a price with no USD amount", async () => {
    const unknown = await impl.check({}, unchecked({ ...APP_INPUTS, memoryMb: UNKNOWN, ...PREVIEW }));
    expect(unknown.failures).toBeUndefined();
    expect(unknown.inputs).not.toHaveProperty("plannedMonthlyFeeUsd");
    // MIRO8B is priced in NZD only here: never counted as $0.
    const nzd = await impl.check(
      {},
      { ...APP_INPUTS, pricingPlanCode: "MIRO8B", memoryMb: 8192, ...PREVIEW },
    );
    expect(nzd.failures).toBeUndefined();
    expect(nzd.inputs).not.toHaveProperty("plannedMonthlyFeeUsd");
  });

  it("an unchanged VPS: the fee it is billed now, without a quote", async () => {
    const { outs, inputs } = await existing();
    const mark = quotes().length;
    const checked = await impl.check(inputs, { ...APP_INPUTS, ...PREVIEW });
    expect(checked.inputs.plannedMonthlyFeeUsd).toBe(outs.monthlyFeeUsd);
    expect(quotes()).toHaveLength(mark);
  });

  it("a resize: the quote diff() shows as the new fee, asked once for both", async () => {
    const { id, outs, inputs } = await existing();
    const before = quotes().length;
    const news = { ...APP_INPUTS, memoryMb: 2048, ...PREVIEW };
    const checked = await impl.check(inputs, news);
    await impl.diff(id, outs, checked.inputs);
    const [now, after] = money(lineOf(/app: resize 1024 → 2048 MB/));
    expect(now).toBe(outs.monthlyFeeUsd);
    expect(checked.inputs.plannedMonthlyFeeUsd).toBe(after);
    expect(after).toBeGreaterThan(now!);
    expect(quotes().length - before).toBe(1);
  });

  it("a replacement: the quote for the new VPS, the same as its own check's", async () => {
    const { inputs } = await existing();
    const news = { ...APP_INPUTS, dcLocation: "DCLONDON" as const, ...PREVIEW };
    const first = await impl.check(inputs, news);
    const again = await impl.check({}, news); // the engine checks a replacement's create again, without olds
    expect(first.inputs.plannedMonthlyFeeUsd).toBeGreaterThan(0);
    expect(again.inputs.plannedMonthlyFeeUsd).toBe(first.inputs.plannedMonthlyFeeUsd);
  });

  it("a move of a VPS resized outside Pulumi: diff()'s move, priced on the new host at the sizes it keeps", async () => {
    // diff() plans a move only (the state and the program agree on the sizes); update() moves the order and leaves
    // its memory as the order has it (planned-update.ts). The fee is the move's own quote, of those sizes.
    const { id, inputs } = await createChecked({ ...APP_INPUTS, hostServerOid: "835" });
    const oid = Number(id);
    await fixture().byHand.changeParameters(oid, { memory_mb: 2048 });
    const live = orderFields((await fixture().byHand.getOrder(oid)).about_order);
    testing.forgetRun();
    const { __creationNonce: _nonce, plannedMonthlyFeeUsd: _fee, ...program } = inputs;
    const mark = quotes().length;
    const checked = await impl.check(inputs, { ...program, hostServerOid: "764", ...PREVIEW });
    expect(checked.failures).toBeUndefined();
    expect(checked.inputs.plannedMonthlyFeeUsd).toBe(live.monthlyFeeUsd);
    // One quote, the move's (naming host 764): not a resize's quote beside it, which names no host.
    expect(quotes().length - mark).toBe(1);
  });

  it("is never a change by itself, and states recorded without it (or with an old one) work", async () => {
    const { id, outs, inputs } = await existing();
    const checked = await impl.check(inputs, { ...APP_INPUTS, ...PREVIEW });
    expect(checked.inputs.plannedMonthlyFeeUsd).toBe(outs.monthlyFeeUsd);
    expect((await impl.diff(id, outs, checked.inputs)).changes).toBe(false);
    expect((await impl.diff(id, outs, { ...checked.inputs, plannedMonthlyFeeUsd: 1234.5 })).changes).toBe(
      false,
    );
    // Old inputs from an earlier version (none) or an earlier run (another figure) check the same.
    const { plannedMonthlyFeeUsd: _none, ...older } = checked.inputs;
    const fromOlder = await impl.check(older, { ...APP_INPUTS, ...PREVIEW });
    expect(fromOlder.failures).toBeUndefined();
    expect(fromOlder.inputs.plannedMonthlyFeeUsd).toBe(outs.monthlyFeeUsd);
    const fromStale = await impl.check({ ...inputs, plannedMonthlyFeeUsd: 1 }, { ...APP_INPUTS, ...PREVIEW });
    expect(fromStale.inputs.plannedMonthlyFeeUsd).toBe(outs.monthlyFeeUsd);
    // A refresh hands back inputs without it, and they check and diff as before.
    const refreshed = await impl.read(id, outs);
    expect(refreshed.inputs).not.toHaveProperty("plannedMonthlyFeeUsd");
    expect(refreshed.props).not.toHaveProperty("plannedMonthlyFeeUsd");
    expect((await impl.diff(id, refreshed.props!, refreshed.inputs!)).changes).toBe(false);
  });

  it("currentMonthlyFeeUsd beside it: what the VPS is billed now, absent for a new one", async () => {
    const fresh = await impl.check({}, { ...APP_INPUTS, ...PREVIEW });
    expect(fresh.inputs).not.toHaveProperty("currentMonthlyFeeUsd");
    const { outs, inputs } = await existing();
    const resized = await impl.check(inputs, { ...APP_INPUTS, memoryMb: 2048, ...PREVIEW });
    expect(resized.inputs.currentMonthlyFeeUsd).toBe(outs.monthlyFeeUsd);
    expect(resized.inputs.plannedMonthlyFeeUsd).toBeGreaterThan(outs.monthlyFeeUsd as number);
    const set = await impl.check({}, unchecked({ ...APP_INPUTS, currentMonthlyFeeUsd: 1 }));
    expect(set.failures?.[0]?.reason).toMatch(/currentMonthlyFeeUsd: is not an input of Vps/);
  });

  it("an adoption: the adopted order's fee now, in the preview and in the update that follows it", async () => {
    // The update phase's checked inputs are what a policy pack judges `pulumi up` by (policy-pack/policies.ts):
    // without the fee now, monthly-budget would count the adopted order as a new VPS after it was adopted.
    const created = await fixture().byHand.createVps({
      instantiation_options: { domain_name: APP_INPUTS.domainName, distro: APP_INPUTS.distro },
      dc_location: APP_INPUTS.dcLocation,
      vps_parameters: { memory_mb: APP_INPUTS.memoryMb, disk_space_mb: APP_INPUTS.diskSpaceMb },
    });
    const oid = created.about_order.order_oid;
    const billed = orderFields((await fixture().byHand.getOrder(oid)).about_order).monthlyFeeUsd;
    const adopting = { ...APP_INPUTS, adoptOrderOid: oid };
    const previewed = await impl.check({}, { ...adopting, ...PREVIEW });
    expect(previewed.failures).toBeUndefined();
    testing.forgetRun();
    const updating = await impl.check({}, adopting);
    expect(updating.failures).toBeUndefined();
    for (const checked of [previewed, updating]) {
      expect(checked.inputs.currentMonthlyFeeUsd).toBeGreaterThan(0);
      expect(checked.inputs.currentMonthlyFeeUsd).toBe(billed);
    }
    expect(updating.inputs.plannedMonthlyFeeUsd).toBe(previewed.inputs.plannedMonthlyFeeUsd);
    // The native plugin's check, in `pulumi up` as in a preview (its checks carry no preview flag): the same.
    testing.forgetRun();
    const urn = "urn:pulumi:prod::shop::rimuhosting:index:Vps::app";
    const { creationScope: _scope, __provider: _provider, ...wire } = adopting;
    const nativeChecked = await native.check(urn, {}, wire);
    expect(nativeChecked.failures).toEqual([]);
    expect(nativeChecked.inputs.currentMonthlyFeeUsd).toBe(billed);
    expect(nativeChecked.inputs.plannedMonthlyFeeUsd).toBe(previewed.inputs.plannedMonthlyFeeUsd);
  });

  it("the deployment that checked them beside them, on both front ends, so a pack tells recorded fees apart", async () => {
    // Under --target the engine hands a pack the recorded inputs of a VPS it does not check (issue 55, item 7e).
    testing.beginRun(undefined, { engine: "127.0.0.1:40001" }); // a run of the engine at that address
    try {
      const dynamic = await impl.check({}, { ...APP_INPUTS, ...PREVIEW });
      const urn = "urn:pulumi:prod::shop::rimuhosting:index:Vps::app";
      const { creationScope: _scope, __provider: _provider, ...wire } = APP_INPUTS;
      const viaNative = await native.check(urn, {}, wire);
      expect([dynamic.inputs.checkedInDeployment, viaNative.inputs.checkedInDeployment]).toEqual([
        "127.0.0.1:40001",
        "127.0.0.1:40001",
      ]);
    } finally {
      testing.beginRun(undefined, { engine: undefined });
    }
    expect((await impl.check({}, { ...APP_INPUTS, ...PREVIEW })).inputs).not.toHaveProperty(
      "checkedInDeployment",
    );
    const set = await impl.check({}, unchecked({ ...APP_INPUTS, checkedInDeployment: "127.0.0.1:1" }));
    expect(set.failures?.[0]?.reason).toMatch(/checkedInDeployment: is not an input of Vps/);
  });

  it("a program cannot set it", async () => {
    const checked = await impl.check({}, unchecked({ ...APP_INPUTS, plannedMonthlyFeeUsd: 1 }));
    expect(checked.failures?.[0]?.reason).toMatch(/plannedMonthlyFeeUsd: is not an input of Vps/);
  });

  it("a quote RimuHosting refuses reads the same from the planned fee and from priceOf (the order guard's)", async () => {
    // One quote helper: the budget's reason and the order guard's refusal must not tell one failure two ways.
    const at = {
      view: accountView(currentRun(), "Checking a Vps"),
      baseUrl: configuredBaseUrl(currentRun()),
    };
    const refused = { ...APP_INPUTS, memoryMb: 16 }; // below any plan's memory: R16 answers 400
    const fee = await plannedFeeOf(
      { ...at, isNew: true, before: {}, after: refused, known: refused, unknown: new Set<string>() },
      {},
    );
    const quoted = await priceOf(at, refused);
    expect(fee.usd).toBeUndefined();
    expect(fee.why).toMatch(/^RimuHosting would not quote it: memoryMb/);
    expect(quoted).toEqual({ problem: fee.why });
  });
});
