/**
 * The data sources against a real emulator: direct forms and Output forms, configured the way a
 * program is (stack config `rimuhosting:*` through pulumi.runtime.setConfig).
 */
import * as pulumi from "@pulumi/pulumi";
import {
  DataSourceError,
  getBillingMethods,
  getDataCenters,
  getDataTransferUsage,
  getDistributions,
  getDistributionsOutput,
  getOrder,
  getOrderOutput,
  getOrders,
  getPriceQuote,
  getPricingPlans,
  getPricingPlansOutput,
  getVpsStatus,
  type PricingPlan,
} from "../../provider/index";
import { recipe } from "../docs/support/code-blocks";
import { startImplFixture, DEMO_API_KEY, type ImplFixture } from "./support/impl-fixture";
import { rejectionOf } from "../helpers/promises";

let fx: ImplFixture;
let oid: number;

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

/** The one plan this emulator prices in another currency only (Dallas's cheapest by its figure). */
const NZD_ONLY = "MiroVPSLowContention";

beforeAll(async () => {
  fx = await startImplFixture({ planCurrencies: { [NZD_ONLY]: "CUR_NZD" } });
  pulumi.runtime.setConfig("rimuhosting:baseUrl", fx.emulator.baseUrl);
  pulumi.runtime.setConfig("rimuhosting:apiKey", DEMO_API_KEY);
  const created = await fx.byHand.createVps({
    instantiation_options: { domain_name: "data.example.com", distro: "deb12.64" },
    dc_location: "DCDALLAS",
    vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
    meta_data: [{ key_name: "team", value: "data" }],
  });
  oid = created.about_order.order_oid;
});
afterAll(async () => {
  await fx.close();
});

describe("data sources", () => {
  it("getPricingPlans: VPS plans in the documented shape, filtered by price", async () => {
    const { plans } = await getPricingPlans();
    expect(plans.length).toBeGreaterThan(0);
    const miro = plans.find((p) => p.code === "MIRO1B");
    expect(miro).toEqual({
      code: "MIRO1B",
      description: expect.any(String),
      serverType: "VPS",
      minimumMemoryMb: 1024,
      minimumDiskGb: 20,
      monthlyFeeUsd: expect.any(Number),
      ...(miro?.dcLocation ? { dcLocation: miro.dcLocation } : {}),
    });
    expect(plans.every((p) => p.serverType === "VPS")).toBe(true);
    const cheapest = Math.min(...plans.flatMap((p) => p.monthlyFeeUsd ?? []));
    const under = await getPricingPlans({ priceUnder: cheapest + 0.01 });
    expect(under.plans.length).toBeGreaterThan(0);
    expect(under.plans.length).toBeLessThan(plans.length);
    expect(
      under.plans.every((p) => p.monthlyFeeUsd !== undefined && p.monthlyFeeUsd <= cheapest + 0.01),
    ).toBe(true);
  });

  it("getPricingPlans: a plan priced in another currency only has no USD fee (not $0), and the README's cheapest pick passes it over", async () => {
    const { plans } = await getPricingPlans({ serverType: "VPS", dcLocation: "DCDALLAS" });
    const nzdOnly = plans.find((p) => p.code === NZD_ONLY);
    expect(nzdOnly).toBeDefined();
    expect(nzdOnly).not.toHaveProperty("monthlyFeeUsd");
    // The README quickstart's own pick (its `.apply(...)` function, read from the page), on these plans.
    const quickstart = recipe("README.md#quickstart");
    const pick = /\.apply\(\s*(\(r\) =>[\s\S]*?),?\s*\);\n/.exec(quickstart)?.[1];
    expect(pick).toBeDefined();
    const cheapest = new Function(`return ${pick}`)() as (r: { plans: PricingPlan[] }) => PricingPlan;
    const usdFees = plans.flatMap((p) => p.monthlyFeeUsd ?? []);
    // In either order of the list: the plan without a USD price first or last.
    for (const listed of [plans, [...plans].reverse()])
      expect(cheapest({ plans: listed })).toMatchObject({ monthlyFeeUsd: Math.min(...usdFees) });
    // The quote for that plan is in its own currency, with no USD value either.
    const quote = await getPriceQuote({ pricingPlanCode: NZD_ONLY, dcLocation: "DCDALLAS" });
    expect(quote).toEqual({
      monthlyAmount: expect.any(Number),
      currency: "CUR_NZD",
      message: expect.any(String),
    });
  });

  it("getPricingPlansOutput: takes Inputs and resolves to the same result", async () => {
    const direct = await getPricingPlans({ serverType: "VPS" });
    const viaOutput = await valueOf(getPricingPlansOutput({ serverType: pulumi.output("VPS" as const) }));
    expect(viaOutput).toEqual(direct);
  });

  it("getDistributions: codes with promoted/recommended flags", async () => {
    const { distributions } = await getDistributions();
    expect(distributions).toContainEqual({
      code: "deb12.64",
      description: expect.stringContaining("Debian 12"),
      isPromoted: expect.any(Boolean),
      isRecommended: expect.any(Boolean),
    });
    expect(await valueOf(getDistributionsOutput())).toEqual({ distributions });
  });

  it("getDataCenters and getBillingMethods", async () => {
    const { dataCenters } = await getDataCenters();
    expect(dataCenters).toContainEqual({ code: "DCDALLAS", name: "Dallas", countryCode: "US" });
    const { billingMethods } = await getBillingMethods();
    expect(billingMethods.length).toBeGreaterThan(0);
    expect(billingMethods[0]).toMatchObject({
      billingOid: expect.any(Number),
      description: expect.any(String),
    });
    expect(billingMethods.some((m) => m.orderOids.includes(oid))).toBe(true);
  });

  it("getOrders / getOrder: camelCase orders, metadata without the creation token, inactive on request", async () => {
    const { orders } = await getOrders({ serverType: "VPS" });
    const mine = orders.find((o) => o.orderOid === oid);
    expect(mine).toMatchObject({
      domainName: "data.example.com",
      serverType: "VPS",
      runningState: "RUNNING",
      cancelled: false,
      dcLocation: "DCDALLAS",
      memoryMb: 1024,
      metaData: { team: "data" },
    });
    expect(await getOrder({ orderOid: oid })).toEqual(mine);
    expect(await valueOf(getOrderOutput({ orderOid: pulumi.output(oid) }))).toEqual(mine);

    const gone = await fx.byHand.createVps({
      instantiation_options: { domain_name: "gone.example.com" },
      dc_location: "DCDALLAS",
    });
    await fx.byHand.deleteVps(gone.about_order.order_oid);
    const active = await getOrders();
    expect(active.orders.some((o) => o.orderOid === gone.about_order.order_oid)).toBe(false);
    const all = await getOrders({ includeInactive: true });
    expect(all.orders.find((o) => o.orderOid === gone.about_order.order_oid)).toMatchObject({
      cancelled: true,
    });
  });

  it("getVpsStatus and getDataTransferUsage: live state of a VPS", async () => {
    const status = await getVpsStatus({ orderOid: oid });
    expect(status).toMatchObject({
      orderOid: oid,
      runningState: "RUNNING",
      host: { load: expect.any(Array) },
    });
    const usage = await getDataTransferUsage({ orderOid: oid });
    expect(usage.orderOid).toBe(oid);
    expect(typeof usage.usage).toBe("object");
  });

  it("getPriceQuote: a monthly price for a prospective VPS, nothing ordered", async () => {
    const before = fx.emulator.snapshot().length;
    const small = await getPriceQuote({ memoryMb: 1024, diskSpaceMb: 20480, dcLocation: "DCDALLAS" });
    const big = await getPriceQuote({ memoryMb: 8192, diskSpaceMb: 163840, dcLocation: "DCDALLAS" });
    expect(small.monthlyAmount).toBeGreaterThan(0);
    expect(big.monthlyAmount).toBeGreaterThan(small.monthlyAmount);
    expect(small.message).toEqual(expect.any(String));
    expect(fx.emulator.snapshot().length).toBe(before);
  });

  it("argument and configuration errors are clear", async () => {
    await expect(getOrder({ orderOid: -1 })).rejects.toThrow(
      /getOrder: orderOid must be an order oid.*not -1/,
    );
    await expect(getVpsStatus({ orderOid: 1.5 })).rejects.toThrow(/getVpsStatus: orderOid must .*not 1\.5/);
    await expect(getDataTransferUsage({} as never)).rejects.toThrow(
      /getDataTransferUsage: orderOid must .*not undefined/,
    );
    await expect(getOrder({ orderOid: "42" as never })).rejects.toThrow(/not "42"/);
    pulumi.runtime.setConfig("rimuhosting:apiKey", "");
    try {
      await expect(getOrders()).rejects.toThrow(/getOrders needs a RimuHosting API key.*rimuhosting:apiKey/);
      // The catalogue needs no key: the four README lists as needing none.
      await expect(getDistributions()).resolves.toHaveProperty("distributions");
      await expect(getPricingPlans()).resolves.toHaveProperty("plans");
      await expect(getDataCenters()).resolves.toHaveProperty("dataCenters");
      await expect(
        getPriceQuote({ pricingPlanCode: "MIRO1B", dcLocation: "DCDALLAS" }),
      ).resolves.toHaveProperty("monthlyAmount");
    } finally {
      pulumi.runtime.setConfig("rimuhosting:apiKey", DEMO_API_KEY);
    }
  });
});

describe("a failing data source", () => {
  // Pulumi's program runner prints a RunError as its message alone; any other error as ~20 lines of stack.
  async function failure(call: Promise<unknown>): Promise<Error & { code?: string; fieldName?: string }> {
    const error = await rejectionOf(call, DataSourceError);
    expect(pulumi.RunError.isInstance(error)).toBe(true);
    expect(error.stack).toBe(error.message);
    return error;
  }

  it("a refused argument: named as the argument, with advice to fix it", async () => {
    const error = await failure(getPriceQuote({ pricingPlanCode: "NOPE1", dcLocation: "DCDALLAS" }));
    expect(error.code).toBe("RIMU_ERR_VALIDATION");
    expect(error.fieldName).toBe("pricingPlanCode");
    expect(error.message).toMatch(/^\[RIMU_ERR_VALIDATION\] getPriceQuote: pricingPlanCode .*NOPE1/);
    expect(error.message).not.toContain("pricing_plan_code");
    expect(error.message).toMatch(/Fix the argument named above/);
  });

  it("the service unavailable: temporary, run again; a read changed nothing", async () => {
    fx.emulator.injectFault({
      route: "listOrders",
      kind: "status",
      status: 503,
      retryAfterSeconds: 0,
      times: 20,
    });
    try {
      const error = await failure(getOrders());
      expect(error.message).toMatch(/^\[RIMU_ERR_TRANSIENT\] getOrders: /);
      expect(error.message).toContain("This is temporary: run the same pulumi command again");
      expect(error.message).toContain("nothing was changed");
      expect(error.message).not.toContain("pulumi up");
    } finally {
      fx.emulator.app.emulator.faults.clear();
    }
  });

  it("a bad orderOid and a missing key are the same clean errors", async () => {
    expect((await failure(getOrder({ orderOid: -1 }))).code).toBe("RIMU_ERR_INVALID_INPUT");
    pulumi.runtime.setConfig("rimuhosting:apiKey", "");
    try {
      expect((await failure(getOrders())).code).toBe("RIMU_ERR_CONFIG");
    } finally {
      pulumi.runtime.setConfig("rimuhosting:apiKey", DEMO_API_KEY);
    }
  });
});
