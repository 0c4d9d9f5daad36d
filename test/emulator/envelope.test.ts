/** Every endpoint: one root key (the contract's), the full envelope, a JSON content type, a contract-valid record. */
import { ENDPOINTS, type EndpointName } from "../../contract/index.js";
import { useEmulator } from "../helpers/use-emulator.js";
import { createVps, orderPath, record, rootKey } from "./fixtures.js";

const ENVELOPE_FIELDS = [
  "status_code",
  "status_message",
  "response_type",
  "human_readable_message",
  "error_info",
  "extended_error_infos",
  "redirect_uri",
  "response_display_duration_type",
  "response_created_time",
  "response_created_time_epoch_ms",
];

describe("response envelope", () => {
  const emu = useEmulator();

  test("every endpoint answers its contract root key with the full envelope", async () => {
    const order = (await createVps(emu(), {}, { domain: "env.example.com" })).about_order;
    const doomed = (await createVps(emu(), {}, { domain: "doomed.example.com" })).about_order;
    const form = { contentType: "application/x-www-form-urlencoded", raw: "domain_name=env.example.com" };
    const calls: [EndpointName, string, string, unknown, object?][] = [
      ["listOrders", "GET", "/orders", undefined],
      ["getOrder", "GET", orderPath(order), undefined],
      [
        "createVps",
        "POST",
        "/orders/new-vps",
        { new_order_request: { instantiation_options: { domain_name: "e2.example.com" } } },
      ],
      ["getVpsStatus", "GET", orderPath(order, "/vps"), undefined],
      ["getDataTransferUsage", "GET", orderPath(order, "/vps/data-transfer-usage"), undefined],
      ["moveVps", "PUT", orderPath(order, "/vps/host-server"), { vps_move_request: {} }],
      [
        "changeParameters",
        "PUT",
        orderPath(order, "/vps/parameters"),
        { running_vps_data: { memory_mb: 2048 } },
      ],
      ["reinstallVps", "PUT", orderPath(order, "/vps/reinstall"), { new_order_request: {} }],
      [
        "setRunningState",
        "PUT",
        orderPath(order, "/vps/running-state"),
        { running_state_change_request: { running_state: "RESTARTING" } },
      ],
      ["setReverseDns", "PUT", orderPath(order, "/ptr"), undefined, form],
      ["listBillingMethods", "GET", "/billing-methods", undefined],
      ["listDistributions", "GET", "/distributions", undefined],
      ["listPricingPlans", "GET", "/pricing-plans", undefined],
      ["quoteNewVm", "PUT", "/pricing-plans/new-vm-pricing", { new_order_request: {} }],
      ["listDataCenters", "GET", "/data-centers", undefined],
      ["cancelOrder", "PUT", orderPath(order, "/cancelled"), undefined],
      ["deleteVps", "DELETE", orderPath(doomed, "/vps"), undefined],
    ];
    expect(new Set(calls.map((c) => c[0]))).toEqual(new Set(Object.keys(ENDPOINTS)));
    for (const [name, method, path, body, options] of calls) {
      const res = await emu().api(method, path, body, options);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(rootKey(res.body)).toBe(ENDPOINTS[name].rootKey);
      const rec = record<Record<string, unknown>>(res.body);
      for (const field of ENVELOPE_FIELDS)
        expect({ name, field, present: field in rec }).toEqual({ name, field, present: true });
      expect(rec).toMatchObject({ status_code: 200, response_type: "OK", error_info: null });
      expect(ENDPOINTS[name].response.safeParse(rec).success).toBe(true);
    }
  });

  test("errors carry the full envelope too, with error_info filled in", async () => {
    const res = await emu().api("GET", "/orders;server_type=BOAT");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(rootKey(res.body)).toBe("jaxrs_response");
    const rec = record<Record<string, unknown>>(res.body);
    for (const field of ENVELOPE_FIELDS) expect(field in rec).toBe(true);
    expect(rec).toMatchObject({
      status_code: 400,
      response_type: "ERROR",
      error_info: {
        error_class: "ValidationException",
        field_name: "server_type",
        human_readable_message: expect.stringContaining("server_type"),
        full_error_message: expect.stringContaining("EMU_ERR_VALIDATION"),
      },
    });
  });

  test("an unknown route is a 404 in the error envelope", async () => {
    for (const path of ["/nothing", "/orders/order-1-x/vps/nothing"]) {
      const res = await emu().api("GET", path);
      expect(res.status).toBe(404);
      expect(rootKey(res.body)).toBe("jaxrs_response");
    }
    const outside = await fetch(emu().baseUrl.replace(/\/r$/, "/elsewhere"));
    expect(outside.status).toBe(404);
    expect(rootKey(await outside.json())).toBe("jaxrs_response");
  });
});
