import type { GetOrdersResponse, PostNewVpsResponse, PutCancelledResponse } from "../../../contract/index.js";
import {
  GetOrdersResponse as GetOrdersSchema,
  PostNewVpsResponse as PostNewVpsSchema,
} from "../../../contract/index.js";
import { DEMO_ACCOUNTS } from "../../../emulator/index.js";
import { useEmulator } from "../../helpers/use-emulator.js";
import { createVps, errorOf, getOrder, orderPath, record, rootKey } from "../fixtures.js";

const bob = DEMO_ACCOUNTS[2]!.apiKey;

describe("R4 POST /orders/new-vps", () => {
  const emu = useEmulator();

  test("create: applies defaults, echoes a generated password and answers with a running VPS", async () => {
    const res = await emu().api("POST", "/orders/new-vps", {
      new_order_request: { instantiation_options: { domain_name: "defaults.example.com" } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(rootKey(res.body)).toBe("post_new_vps_response");
    const created = PostNewVpsSchema.parse(record(res.body));
    expect(created.response_type).toBe("OK");
    expect(created.about_order.running_state).toBe("RUNNING");
    expect(created.about_order.server_type).toBe("VPS");
    expect(created.about_order.billing_info?.cancellation_date).toBeNull();
    expect(created.running_vps_info?.pings_ok).toBe(true);
    expect(created.about_order.vps_parameters).toMatchObject({ memory_mb: 1024, disk_space_mb: 20480 });
    expect(created.about_order.distro).toBe("deb12.64");
    expect(created.about_order.location?.data_center_location_code).toBe("DCDALLAS");
    const echo = created.new_order_request!;
    expect(echo.instantiation_options?.password).toMatch(/^\S{12,}$/);
    expect(echo.instantiation_options?.control_panel).toBe("webmin");
    expect(echo.ip_request).toMatchObject({ num_ips: 1, extra_ip_reason: "" });
    expect(created.setup_messages).toEqual(
      expect.arrayContaining([
        "No VPS paramters provided, using default values.",
        "'memory_mb' not provided, setting to 1024MB.",
        "'disk_space_mb' not provided, setting to 20GB.",
        "Selected billing details as the first 'wire' billing details found for the user: Wire Transfer",
        "Selected user as the logged in user: Demo User",
      ]),
    );
    expect(created.about_order.allocated_ips?.primary_ip).toMatch(
      /^(192\.0\.2|198\.51\.100|203\.0\.113|198\.18)\./,
    );
  });

  test("create: uses the given sizes, plan, data centre and password, and prices from the sizes", async () => {
    const created = await createVps(emu(), {
      instantiation_options: {
        domain_name: "sized.example.com",
        distro: "ubuntu2404.64",
        password: "given-pw-123",
      },
      pricing_plan_code: "MIRO4B",
      dc_location: "DCLONDON",
      vps_parameters: { memory_mb: 4096, disk_space_mb: 81920 },
    });
    expect(created.about_order.vps_parameters).toMatchObject({ memory_mb: 4096, disk_space_mb: 81920 });
    expect(created.about_order.location?.data_center_location_code).toBe("DCLONDON");
    expect(created.new_order_request?.instantiation_options?.password).toBe("given-pw-123");
    const plans = record<{
      pricing_plan_infos: { pricing_plan_code: string; monthly_recurring_fee: number }[];
    }>(
      (
        await emu().api("GET", "/pricing-plans;server-type=VPS;dc-location=DCLONDON", undefined, {
          apiKey: null,
        })
      ).body,
    );
    const miro4b = plans.pricing_plan_infos.find((p) => p.pricing_plan_code === "MIRO4B")!;
    expect(created.about_order.billing_info?.monthly_recurring_fee).toBe(miro4b.monthly_recurring_fee);
  });

  test("create: a user-specified billing method is used and named", async () => {
    const methods = record<{ billing_methods: { billing_oid: number; billing_method_type: string }[] }>(
      (await emu().api("GET", "/billing-methods")).body,
    ).billing_methods;
    const card = methods.find((m) => m.billing_method_type === "TS_CC")!;
    const created = await createVps(emu(), { billing_oid: card.billing_oid }, { domain: "card.example.com" });
    expect(created.about_order.billing_oid).toBe(card.billing_oid);
    expect(created.setup_messages).toContain(
      "Using user-specified billing data: Visa: 4111 xxxx xxxx 1111 expiring 12/2030",
    );
  });

  test("create: an account without wire billing gets its first 'other' method", async () => {
    const created = await createVps(emu(), {}, { apiKey: bob, domain: "bob1.example.com" });
    expect(created.setup_messages).toContain(
      "Selected billing details as the first 'other' billing details found for the user: Prepaid account credit",
    );
  });

  test("create: clone options copy the source VPS", async () => {
    const source = await createVps(
      emu(),
      { vps_parameters: { memory_mb: 2048 } },
      { domain: "src.example.com" },
    );
    const res = await emu().api("POST", "/orders/new-vps", {
      new_order_request: {
        instantiation_via_clone_options: {
          vps_order_oid_to_clone: source.about_order.order_oid,
          domain_name: "clone.example.com",
        },
      },
    });
    expect(res.status).toBe(200);
    const clone = record<PostNewVpsResponse>(res.body).about_order;
    expect(clone.domain_name).toBe("clone.example.com");
    expect(clone.vps_parameters?.memory_mb).toBe(2048);
    expect(clone.order_oid).not.toBe(source.about_order.order_oid);
  });

  test.each([
    ["not JSON", { raw: "{not json" }, "body", 400],
    ["a JSON array", { body: [1, 2] }, "body", 400],
    [
      "a missing domain",
      { body: { new_order_request: { pricing_plan_code: "MIRO1B" } } },
      "instantiation_options.domain_name",
      400,
    ],
    ["an empty body", { raw: "" }, "instantiation_options.domain_name", 400],
    [
      "a domain that is not an FQDN",
      { body: { new_order_request: { instantiation_options: { domain_name: "nodots" } } } },
      "instantiation_options.domain_name",
      400,
    ],
    [
      "an unknown distro",
      {
        body: {
          new_order_request: { instantiation_options: { domain_name: "a.example.com", distro: "windows95" } },
        },
      },
      "instantiation_options.distro",
      400,
    ],
    [
      "an unknown plan",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            pricing_plan_code: "NOPE",
          },
        },
      },
      "pricing_plan_code",
      400,
    ],
    [
      "a dedicated plan",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            pricing_plan_code: "DEDI-E2136",
          },
        },
      },
      "pricing_plan_code",
      400,
    ],
    [
      "an unknown data centre",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            dc_location: "DCMARS",
          },
        },
      },
      "dc_location",
      400,
    ],
    [
      "a disabled data centre",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            dc_location: "DCHOUSTON",
          },
        },
      },
      "dc_location",
      400,
    ],
    [
      "a wrongly typed size",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            vps_parameters: { memory_mb: "lots" },
          },
        },
      },
      "vps_parameters.memory_mb",
      400,
    ],
    [
      "a boolean size",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            vps_parameters: { memory_mb: true },
          },
        },
      },
      "vps_parameters.memory_mb",
      400,
    ],
    [
      "too little memory",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            vps_parameters: { memory_mb: 16 },
          },
        },
      },
      "vps_parameters.memory_mb",
      400,
    ],
    [
      "another account's billing method",
      {
        body: {
          new_order_request: { instantiation_options: { domain_name: "a.example.com" }, billing_oid: 1 },
        },
      },
      "billing_oid",
      400,
    ],
    [
      "an unknown host",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            host_server_oid: "999999",
          },
        },
      },
      "host_server_oid",
      400,
    ],
    [
      "both instantiation blocks",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            instantiation_via_clone_options: { vps_order_oid_to_clone: 1 },
          },
        },
      },
      "instantiation_via_clone_options",
      400,
    ],
    [
      "a clone of an unknown order",
      { body: { new_order_request: { instantiation_via_clone_options: { vps_order_oid_to_clone: 1 } } } },
      "instantiation_via_clone_options.vps_order_oid_to_clone",
      400,
    ],
    [
      "two IPs without a reason",
      {
        body: {
          new_order_request: {
            instantiation_options: { domain_name: "a.example.com" },
            ip_request: { num_ips: 2 },
          },
        },
      },
      "ip_request.extra_ip_reason",
      400,
    ],
  ])(
    "create: %s gets a 4xx naming the field",
    async (_name, input: { raw?: string; body?: unknown }, field, status) => {
      const before = emu().snapshot().length;
      const res = await emu().api("POST", "/orders/new-vps", input.body, { raw: input.raw });
      const err = errorOf(res);
      expect(err.status).toBe(status);
      expect(err.fieldName).toBe(field);
      expect(err.errorClass).toBe("ValidationException");
      expect(emu().snapshot()).toHaveLength(before);
    },
  );

  test("create: more memory than any host has free is a 409 capacity conflict", async () => {
    const res = await emu().api("POST", "/orders/new-vps", {
      new_order_request: {
        instantiation_options: { domain_name: "huge.example.com" },
        vps_parameters: { memory_mb: 10_000_000 },
      },
    });
    const err = errorOf(res);
    expect(err.status).toBe(409);
    expect(err.code).toBe("EMU_ERR_HOST_CAPACITY");
  });

  test("create: a forced small host refuses what does not fit on it", async () => {
    const res = await emu().api("POST", "/orders/new-vps", {
      new_order_request: {
        instantiation_options: { domain_name: "small.example.com" },
        host_server_oid: "836",
        vps_parameters: { memory_mb: 16384 },
      },
    });
    expect(errorOf(res).status).toBe(409);
  });

  test("create: the host is chosen by free capacity and host_server_selector is honoured", async () => {
    const created = await createVps(
      emu(),
      { host_server_selector: { min_vm_disk_free_gb: 1000 } },
      { domain: "sel.example.com" },
    );
    expect(["764", "835"]).toContain(created.about_order.host_server_oid);
  });
});

describe("R1 GET /orders filters", () => {
  const emu = useEmulator({ dedicatedServers: true });
  let active: number;
  let deleted: number;
  let london: number;

  beforeAll(async () => {
    active = (
      await createVps(
        emu(),
        {
          meta_data: [
            { key_name: "team", value: "web" },
            { key_name: "pulumi-rimuhosting:creation-token", value: "tok-1" },
          ],
        },
        { domain: "alpha.example.com" },
      )
    ).about_order.order_oid;
    london = (
      await createVps(
        emu(),
        { dc_location: "DCLONDON", meta_data: [{ key_name: "team", value: "db" }] },
        { domain: "beta.example.com" },
      )
    ).about_order.order_oid;
    deleted = (
      await createVps(
        emu(),
        { meta_data: [{ key_name: "team", value: "web" }] },
        { domain: "gamma.example.com" },
      )
    ).about_order.order_oid;
    expect((await emu().api("DELETE", `/orders/order-${deleted}-x/vps`)).status).toBe(200);
  });

  async function oids(path: string, apiKey?: string): Promise<number[]> {
    const res = await emu().api("GET", path, undefined, { apiKey });
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("get_orders_response");
    const body = GetOrdersSchema.parse(record(res.body));
    expect(body.human_readable_message).toBe(`Found ${body.about_orders!.length} orders`);
    return body.about_orders!.map((o) => o.order_oid).sort();
  }

  test("list: active orders only by default and with include_inactive=N", async () => {
    expect(await oids("/orders")).toEqual([active, london].sort());
    expect(await oids("/orders;include_inactive=N")).toEqual([active, london].sort());
    expect(await oids("/orders;include_inactive=")).toEqual([active, london].sort());
  });

  test("list: include_inactive=Y adds cancelled orders", async () => {
    expect(await oids("/orders;include_inactive=Y")).toEqual([active, london, deleted].sort());
  });

  test("list: server_type and server-type filter by kind", async () => {
    expect(await oids("/orders;server_type=VPS")).toEqual([active, london].sort());
    expect(await oids("/orders;server-type=PHYSICAL")).toEqual([]);
    const bobPhysical = await oids("/orders;server_type=PHYSICAL", bob);
    expect(bobPhysical).toHaveLength(1);
    expect(await oids("/orders;server_type=VPS", bob)).toEqual([]);
  });

  test("list: order_oids and order_oid pick orders", async () => {
    expect(await oids(`/orders;order_oids=${london}`)).toEqual([london]);
    expect(await oids(`/orders;order_oids=${london},${active}`)).toEqual([active, london].sort());
    expect(await oids(`/orders;order_oid=${active}`)).toEqual([active]);
    expect(await oids(`/orders;order_oid=${deleted};include_inactive=Y`)).toEqual([deleted]);
  });

  test("list: search matches domain text", async () => {
    expect(await oids("/orders;search=beta")).toEqual([london]);
    expect(await oids("/orders;search=GAMMA;include_inactive=Y")).toEqual([deleted]);
    expect(await oids("/orders;search=nothing-matches")).toEqual([]);
  });

  test("list: meta_search needs every key:value pair, and keys may contain ':'", async () => {
    expect(await oids("/orders;meta_search=team:web;include_inactive=Y")).toEqual([active, deleted].sort());
    expect(await oids("/orders;meta_search=team:web")).toEqual([active]);
    expect(
      await oids(
        `/orders;meta_search=${encodeURIComponent("team:web pulumi-rimuhosting:creation-token:tok-1")}`,
      ),
    ).toEqual([active]);
    expect(await oids("/orders;meta_search=team:web+pulumi-rimuhosting:creation-token:tok-2")).toEqual([]);
  });

  test("list: dc_location and dc-location filter by data centre, case-insensitively", async () => {
    expect(await oids("/orders;dc_location=DCLONDON")).toEqual([london]);
    expect(await oids("/orders;dc-location=dcdallas")).toEqual([active]);
  });

  test("list: the applied filter is echoed", async () => {
    const res = await emu().api("GET", "/orders;include_inactive=Y;server_type=VPS");
    const body = record<GetOrdersResponse>(res.body);
    expect(body.order_filter).toMatchObject({ include_inactive: "Y", server_type: "VPS" });
  });

  test.each(["maybe", "None", "null", "2"])(
    "list: an unknown include_inactive value (%s) is the default, active orders only",
    async (value) => {
      expect(await oids(`/orders;include_inactive=${value}`)).toEqual([active, london].sort());
    },
  );

  test.each(["True", "yes", "1", "on"])("list: include_inactive=%s means Y", async (value) => {
    expect(await oids(`/orders;include_inactive=${value}`)).toEqual([active, london, deleted].sort());
  });

  test.each([
    ["/orders;server_type=BOAT", "server_type"],
    ["/orders;server-type=BOAT", "server-type"],
    ["/orders;order_oids=abc", "order_oids"],
    ["/orders;dc_location=DCMARS", "dc_location"],
  ])("list: a bad filter value (%s) is a 400 naming the parameter", async (path, field) => {
    const err = errorOf(await emu().api("GET", path));
    expect(err.status).toBe(400);
    expect(err.fieldName).toBe(field);
  });
});

describe("R2 GET /orders/{order} and R3 PUT .../cancelled", () => {
  const emu = useEmulator();

  test("get: the domain part of the segment is ignored", async () => {
    const created = await createVps(emu(), {}, { domain: "get.example.com" });
    const oid = created.about_order.order_oid;
    for (const segment of [
      `order-${oid}-get-example-com`,
      `order-${oid}-anything`,
      `order-${oid}-`,
      `order-${oid}`,
    ]) {
      const res = await emu().api("GET", `/orders/${segment}`);
      expect(res.status).toBe(200);
      expect(rootKey(res.body)).toBe("get_order_response");
      expect(
        record<{ about_order: { order_oid: number; slug: string } }>(res.body).about_order,
      ).toMatchObject({
        order_oid: oid,
        slug: `order-${oid}-get-example-com`,
      });
    }
  });

  test("get: an unknown order and a malformed segment are 404", async () => {
    expect(errorOf(await emu().api("GET", "/orders/order-1-x")).status).toBe(404);
    expect(errorOf(await emu().api("GET", "/orders/not-an-order")).status).toBe(404);
  });

  test("cancel: sets a cancellation date at the end of the period, keeps running and listed", async () => {
    const created = await createVps(emu(), {}, { domain: "cancel.example.com" });
    const oid = created.about_order.order_oid;
    const res = await emu().api("PUT", `/orders/order-${oid}-x/cancelled`);
    expect(res.status).toBe(200);
    const body = record<PutCancelledResponse>(res.body);
    const date = body.about_order!.billing_info!.cancellation_date!;
    expect(date.ms_since_epoch).toBeGreaterThan(Date.now() + 86_400_000);
    expect(body.about_order!.running_state).toBe("RUNNING");
    const order = await getOrder(emu(), oid);
    expect(order.running_state).toBe("RUNNING");
    const listed = record<GetOrdersResponse>((await emu().api("GET", "/orders")).body).about_orders!;
    expect(listed.map((o) => o.order_oid)).toContain(oid);
    expect((await emu().api("GET", orderPath(order, "/vps"))).status).toBe(200);

    const again = await emu().api("PUT", `/orders/order-${oid}-x/cancelled`);
    expect(again.status).toBe(200);
    expect(
      record<PutCancelledResponse>(again.body).about_order!.billing_info!.cancellation_date!.ms_since_epoch,
    ).toBe(date.ms_since_epoch);
  });

  test("cancel: a removed order is a 409", async () => {
    const created = await createVps(emu(), {}, { domain: "cancel2.example.com" });
    await emu().api("DELETE", orderPath(created.about_order, "/vps"));
    const err = errorOf(await emu().api("PUT", orderPath(created.about_order, "/cancelled")));
    expect(err.status).toBe(409);
    expect(err.code).toBe("EMU_ERR_ORDER_CANCELLED");
  });
});
