/**
 * R4 POST /orders/new-vps against the emulator over real HTTP: what an order needs, what it refuses and why, and
 * the order it creates (the listings, reads and cancellation of orders: orders.test.ts).
 */
import type { PostNewVpsResponse } from "../../../contract/index.js";
import { PostNewVpsResponse as PostNewVpsSchema } from "../../../contract/index.js";
import { DEMO_ACCOUNTS } from "../../../emulator/index.js";
import { useEmulator } from "../../helpers/use-emulator.js";
import { createVps, errorOf, record, rootKey } from "../fixtures.js";

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
