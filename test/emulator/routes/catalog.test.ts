import type {
  GetBillingMethodsResponse,
  GetDataCentersResponse,
  GetDistrosResponse,
  GetNewVmPricingResponse,
  GetPricingPlansResponse,
} from "../../../contract/index.js";
import {
  GetBillingMethodsResponse as BillingSchema,
  GetDataCentersResponse as DataCentersSchema,
  GetDistrosResponse as DistrosSchema,
  GetPricingPlansResponse as PlansSchema,
} from "../../../contract/index.js";
import { DEMO_ACCOUNTS } from "../../../emulator/index.js";
import { startTestEmulator } from "../../helpers/start-emulator.js";
import { useEmulator } from "../../helpers/use-emulator.js";
import { createVps, errorOf, record, rootKey } from "../fixtures.js";

const publicCall = { apiKey: null } as const;

describe("R14 distributions", () => {
  const emu = useEmulator();

  test("distributions: current ones listed without a key, old ones not listed but accepted", async () => {
    const res = await emu().api("GET", "/distributions", undefined, publicCall);
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("get_distros_response");
    const body: GetDistrosResponse = DistrosSchema.parse(record(res.body));
    const codes = body.distro_infos!.map((d) => d.distro_code);
    expect(codes).toEqual(expect.arrayContaining(["deb12.64", "deb13.64", "ubuntu2404.64"]));
    for (const old of ["lenny", "centos5", "ubuntu1004.64"]) {
      expect(codes).not.toContain(old);
      const created = await createVps(emu(), {
        instantiation_options: { domain_name: `${old.replace(".", "-")}.example.com`, distro: old },
      });
      expect(created.about_order.distro).toBe(old);
    }
    expect(body.distro_infos!.find((d) => d.distro_code === "deb12.64")).toMatchObject({
      is_recommended: true,
      is_promoted: true,
    });
  });
});

describe("R15 pricing plans", () => {
  const emu = useEmulator();

  async function plans(path: string): Promise<GetPricingPlansResponse> {
    const res = await emu().api("GET", path, undefined, publicCall);
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("get_pricing_plans_response");
    return PlansSchema.parse(record(res.body));
  }

  test("pricing-plans: VPS and dedicated plans, each priced in several data centres", async () => {
    const all = await plans("/pricing-plans");
    const codes = new Set(all.pricing_plan_infos!.map((p) => p.pricing_plan_code));
    expect([...codes]).toEqual(expect.arrayContaining(["MIRO1B", "MIRO4B", "DEDI-E2136"]));
    const miro1b = all.pricing_plan_infos!.filter((p) => p.pricing_plan_code === "MIRO1B");
    expect(
      new Set(miro1b.map((p) => p.offered_at_data_center?.data_center_location_code)).size,
    ).toBeGreaterThan(3);
    expect(new Set(miro1b.map((p) => p.monthly_recurring_fee)).size).toBeGreaterThan(1);
    expect(miro1b[0]).toMatchObject({ server_type: "VPS", minimum_memory_mb: 1024, minimum_disk_gb: 20 });
  });

  test("pricing-plans: server-type and server_type filter by kind", async () => {
    for (const path of ["/pricing-plans;server-type=VPS", "/pricing-plans;server_type=VPS"]) {
      const body = await plans(path);
      expect(body.pricing_plan_infos!.length).toBeGreaterThan(0);
      expect(body.pricing_plan_infos!.every((p) => p.server_type === "VPS")).toBe(true);
    }
    const physical = await plans("/pricing-plans;server-type=PHYSICAL");
    expect(physical.pricing_plan_infos!.every((p) => p.server_type === "PHYSICAL")).toBe(true);
    expect(physical.pricing_plan_infos!.length).toBeGreaterThan(0);
  });

  test("pricing-plans: dc-location and dc_location filter by data centre, any case", async () => {
    for (const path of [
      "/pricing-plans;server-type=VPS;dc-location=dclondon",
      "/pricing-plans;dc_location=DCLONDON",
    ]) {
      const body = await plans(path);
      expect(body.pricing_plan_infos!.length).toBeGreaterThan(0);
      expect(
        body.pricing_plan_infos!.every(
          (p) => p.offered_at_data_center?.data_center_location_code === "DCLONDON",
        ),
      ).toBe(true);
    }
  });

  test("pricing-plans: price_under keeps cheaper plans only", async () => {
    const body = await plans("/pricing-plans;server-type=VPS;dc-location=DCDALLAS;price_under=40");
    expect(body.pricing_plan_infos!.length).toBeGreaterThan(0);
    expect(body.pricing_plan_infos!.every((p) => p.monthly_recurring_fee! < 40)).toBe(true);
    expect(body.pricing_plan_infos!.some((p) => p.pricing_plan_code === "MIRO16B")).toBe(false);
    expect(body.plan_filter).toMatchObject({ server_type: "VPS", dc_location: "DCDALLAS", price_under: 40 });
  });

  test("pricing-plans: bad filters are 400 naming the parameter", async () => {
    expect(
      errorOf(await emu().api("GET", "/pricing-plans;price_under=cheap", undefined, publicCall)).fieldName,
    ).toBe("price_under");
    expect(
      errorOf(await emu().api("GET", "/pricing-plans;dc-location=moon", undefined, publicCall)).fieldName,
    ).toBe("dc-location");
  });
});

describe("R16 new-vm pricing and R17 data centres", () => {
  const emu = useEmulator();

  test("quote: PUT computes the price from memory, disk and data centre without creating anything", async () => {
    const quote = async (body: unknown, apiKey: string | null = null) => {
      const res = await emu().api("PUT", "/pricing-plans/new-vm-pricing", body, { apiKey });
      expect(res.status).toBe(200);
      expect(rootKey(res.body)).toBe("get_new_vm_pricing_response");
      return record<GetNewVmPricingResponse>(res.body);
    };
    const small = await quote({
      new_order_request: {
        vps_parameters: { memory_mb: 1024, disk_space_mb: 10240 },
        dc_location: "DCDALLAS",
      },
    });
    const big = await quote({
      new_order_request: {
        vps_parameters: { memory_mb: 4096, disk_space_mb: 10240 },
        dc_location: "DCDALLAS",
      },
    });
    const sydney = await quote({
      new_order_request: {
        vps_parameters: { memory_mb: 1024, disk_space_mb: 10240 },
        dc_location: "DCSYDNEY",
      },
    });
    expect(big.monthly_recurring_amt!.amt).toBeGreaterThan(small.monthly_recurring_amt!.amt);
    expect(sydney.monthly_recurring_amt!.amt).toBeGreaterThan(small.monthly_recurring_amt!.amt);
    expect(small.monthly_recurring_amt).toMatchObject({ currency: "CUR_USD" });
    expect(small.human_readable_message).toMatch(
      /^The price for 1024MB memory and 10GB disk in Dallas is \d+\.\d\d USD\/month\. {2}You need to enter billing information\.$/,
    );
    const withKey = await quote(
      { new_order_request: { vps_parameters: { memory_mb: 1024, disk_space_mb: 10240 } } },
      DEMO_ACCOUNTS[0]!.apiKey,
    );
    expect(withKey.human_readable_message).not.toMatch(/billing information/);
    expect(emu().snapshot()).toEqual([]);
  });

  test("quote: the quoted price is what the created order is billed", async () => {
    const request = { vps_parameters: { memory_mb: 2048, disk_space_mb: 30720 }, dc_location: "DCLONDON" };
    const quoted = record<GetNewVmPricingResponse>(
      (await emu().api("PUT", "/pricing-plans/new-vm-pricing", { new_order_request: request })).body,
    );
    const created = await createVps(emu(), request, { domain: "quoted.example.com" });
    expect(created.about_order.billing_info?.monthly_recurring_fee).toBe(quoted.monthly_recurring_amt!.amt);
  });

  test("quote: a plan priced in NZ$ only is billed in NZ$, as quoted, never in US$ (docs/emulator.md's MIRO2B)", async () => {
    const nzd = await startTestEmulator({ planCurrencies: { MIRO2B: "CUR_NZD" } });
    try {
      const request = { pricing_plan_code: "MIRO2B", dc_location: "DCDALLAS" };
      const quoted = record<GetNewVmPricingResponse>(
        (await nzd.api("PUT", "/pricing-plans/new-vm-pricing", { new_order_request: request })).body,
      );
      expect(quoted.monthly_recurring_amt).toEqual({ amt: expect.any(Number), currency: "CUR_NZD" });
      const created = await createVps(nzd, request, { domain: "kiwi.example.com" });
      expect(created.about_order.billing_info).toMatchObject({
        monthly_recurring_fee: null, // the service gives it in USD
        monthly_recurring_amt: quoted.monthly_recurring_amt,
      });
      expect(created.about_order.order_description).toMatch(/; \d+\.\d\d NZD\/m$/);
    } finally {
      await nzd.close();
    }
  });

  test("quote: GET works without a key, with matrix parameters", async () => {
    const res = await emu().api(
      "GET",
      "/pricing-plans/new-vm-pricing;memory_mb=2048;disk_space_mb=20480;dc_location=DCNY",
      undefined,
      publicCall,
    );
    expect(res.status).toBe(200);
    expect(record<GetNewVmPricingResponse>(res.body).human_readable_message).toMatch(
      /2048MB memory and 20GB disk in New York/,
    );
  });

  test("quote: an unknown data centre is a 400 naming dc_location", async () => {
    const err = errorOf(
      await emu().api(
        "PUT",
        "/pricing-plans/new-vm-pricing",
        { new_order_request: { dc_location: "DCMARS" } },
        publicCall,
      ),
    );
    expect(err.fieldName).toBe("dc_location");
  });

  test("quote: GET refuses an unknown or disabled data centre (400 naming dc_location), accepts any case", async () => {
    for (const dc of ["DCMARS", "DCHOUSTON"]) {
      const err = errorOf(
        await emu().api("GET", `/pricing-plans/new-vm-pricing;dc_location=${dc}`, undefined, publicCall),
      );
      expect(err).toMatchObject({ status: 400, code: "EMU_ERR_UNKNOWN_DC", fieldName: "dc_location" });
    }
    const res = await emu().api(
      "GET",
      "/pricing-plans/new-vm-pricing;dc-location=dcny",
      undefined,
      publicCall,
    );
    expect(res.status).toBe(200);
    expect(record<GetNewVmPricingResponse>(res.body).human_readable_message).toMatch(/in New York/);
  });

  test("data-centers: the enabled ones, with names and country codes, without a key", async () => {
    const res = await emu().api("GET", "/data-centers", undefined, publicCall);
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("get_data_centers_response");
    const body: GetDataCentersResponse = DataCentersSchema.parse(record(res.body));
    expect(body.data_center_infos).toEqual(
      expect.arrayContaining([
        {
          data_center_location_code: "DCDALLAS",
          data_center_location_name: "Dallas",
          data_center_location_country_2ltr: "US",
        },
        {
          data_center_location_code: "DCSYDNEY",
          data_center_location_name: "Sydney",
          data_center_location_country_2ltr: "AU",
        },
      ]),
    );
    expect(body.data_center_infos!.map((d) => d.data_center_location_code)).not.toContain("DCHOUSTON");
  });
});

describe("R13 billing methods", () => {
  const emu = useEmulator();

  test("billing-methods: several types, each listing the active orders billed to it", async () => {
    const created = await createVps(emu(), {}, { domain: "billed.example.com" });
    const res = await emu().api("GET", "/billing-methods");
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("get_billing_methods_response");
    const body: GetBillingMethodsResponse = BillingSchema.parse(record(res.body));
    expect(body.billing_methods!.map((m) => m.billing_method_type)).toEqual([
      "TS_CC",
      "TS_WIRE",
      "TS_PAYPAL",
    ]);
    const wire = body.billing_methods!.find((m) => m.billing_method_type === "TS_WIRE")!;
    expect(wire.orders_on_this_billing_method).toEqual([
      expect.objectContaining({
        order_oid: created.about_order.order_oid,
        domain_name: "billed.example.com",
        slug: created.about_order.slug,
        about_billing: expect.objectContaining({
          monthly_recurring_fee: created.about_order.billing_info?.monthly_recurring_fee,
        }),
      }),
    ]);
  });
});
