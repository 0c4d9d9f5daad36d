/** Request shapes real third-party clients send (docs/rimuhosting-api.md, 4.2 Requests): all must be accepted. */
import type {
  PostNewVpsResponse,
  PutHostServerMoveResponse,
  PutRunningStateResponse,
} from "../../contract/index.js";
import * as http from "node:http";
import type { AboutOrder, Envelope, GetOrdersResponse } from "../../contract/index.js";
import { DEMO_API_KEY } from "../../emulator/index.js";
import type { TestEmulator } from "../helpers/start-emulator.js";
import { useEmulator } from "../helpers/use-emulator.js";
import { createVps, orderPath, record } from "./fixtures.js";

describe("third-party client shapes", () => {
  const emu = useEmulator();

  test.each([
    ["new-vps (libcloud, PHP)", "new-vps"],
    ["new_vps (deltacloud)", "new_vps"],
    ["request (jclouds)", "request"],
    ["new_order_request (pbkwee, akissa)", "new_order_request"],
  ])("create: wrapper %s with sizes sent as strings", async (_name, wrapper) => {
    const domain = `${wrapper.replace(/_/g, "-")}.example.com`;
    const res = await emu().api("POST", "/orders/new-vps", {
      [wrapper]: {
        instantiation_options: { domain_name: domain, distro: "deb12.64", control_panel: "" },
        pricing_plan_code: "MIRO1B",
        vps_parameters: { memory_mb: "2048", disk_space_mb: "8192", disk_space_2_mb: "0" },
        is_just_minimal_init: "false",
        billing_oid: 0,
        user_oid: 0,
      },
    });
    expect(res.status).toBe(200);
    const body = record<PostNewVpsResponse>(res.body);
    expect(body.about_order.vps_parameters).toMatchObject({
      memory_mb: 2048,
      disk_space_mb: 8192,
      disk_space_2_mb: 0,
    });
    expect(body.about_order.domain_name).toBe(domain);
  });

  test("create: an unwrapped record is accepted too", async () => {
    const res = await emu().api("POST", "/orders/new-vps", {
      instantiation_options: { domain_name: "bare.example.com" },
    });
    expect(res.status).toBe(200);
  });

  test("create: the old top-level vps_order_oid_to_clone (libcloud, PHP) clones", async () => {
    const source = (await createVps(emu(), {}, { domain: "oldclone.example.com" })).about_order;
    const res = await emu().api("POST", "/orders/new-vps", {
      "new-vps": { vps_order_oid_to_clone: String(source.order_oid) },
    });
    expect(res.status).toBe(200);
    expect(record<PostNewVpsResponse>(res.body).about_order.domain_name).toBe("oldclone.example.com");
  });

  test.each([
    ["reboot_request (libcloud, deltacloud, PHP)", { reboot_request: { running_state: "RESTARTING" } }],
    ["reboot (RightScale)", { reboot: { running_state: "RESTARTING" } }],
    ["request (jclouds)", { request: { running_state: "RESTARTING" } }],
    ["no wrapper", { running_state: "RESTARTING" }],
  ])("running-state: %s", async (_name, body) => {
    const order = (await createVps(emu(), {}, { domain: "rs.example.com" })).about_order;
    const res = await emu().api("PUT", orderPath(order, "/vps/running-state"), body);
    expect(res.status).toBe(200);
    expect(record<PutRunningStateResponse>(res.body).is_restarted).toBe(true);
  });

  test.each([
    ["vps_resize_request (akissa)", "vps_resize_request"],
    ["resize (RightScale)", "resize"],
    ["running_vps_data (pbkwee)", "running_vps_data"],
  ])('parameters: %s with the string size "8192"', async (_name, wrapper) => {
    const order = (
      await createVps(emu(), { vps_parameters: { disk_space_mb: 4096 } }, { domain: "rz.example.com" })
    ).about_order;
    const res = await emu().api("PUT", orderPath(order, "/vps/parameters"), {
      [wrapper]: { memory_mb: "2048", disk_space_mb: "8192" },
    });
    expect(res.status).toBe(200);
    const after = record<{ about_order: { vps_parameters: { memory_mb: number; disk_space_mb: number } } }>(
      res.body,
    );
    expect(after.about_order.vps_parameters).toMatchObject({ memory_mb: 2048, disk_space_mb: 8192 });
  });

  test("reinstall: reinstall_request (akissa)", async () => {
    const order = (await createVps(emu(), {}, { domain: "ri.example.com" })).about_order;
    const res = await emu().api("PUT", orderPath(order, "/vps/reinstall"), {
      reinstall_request: { instantiation_options: { distro: "ubuntu2404.64" } },
    });
    expect(res.status).toBe(200);
    expect(record<PostNewVpsResponse>(res.body).about_order.distro).toBe("ubuntu2404.64");
  });

  test("move: PHP's numeric host_server_oid and akissa's update_dns", async () => {
    const order = (await createVps(emu(), { host_server_oid: "764" }, { domain: "mv.example.com" }))
      .about_order;
    const res = await emu().api("PUT", orderPath(order, "/vps/host-server"), {
      vps_move_request: { host_server_oid: 835, update_dns: "false" },
    });
    expect(res.status).toBe(200);
    const body = record<PutHostServerMoveResponse>(res.body);
    expect(body.about_order.host_server_oid).toBe("835");
    expect(body.move_messages).toContain("DNS records were left unchanged (is_update_dns=false).");
  });

  test("list: rimuhosting-k8s empty include_inactive, Python form-encoded values, a trailing slash", async () => {
    await createVps(
      emu(),
      {
        meta_data: [
          { key_name: "com.rimuhosting.kclusterid", value: "abc" },
          { key_name: "com.rimuhosting.kismaster", value: "Y" },
        ],
      },
      { domain: "k8s.example.com" },
    );
    for (const path of [
      "/orders;include_inactive=;meta_search=com.rimuhosting.kclusterid%3Aabc+com.rimuhosting.kismaster%3AY",
      "/orders;include_inactive=N;server_type=VPS;meta_search=com.rimuhosting.kclusterid:abc",
      "/orders/;meta_search=com.rimuhosting.kismaster:Y",
    ]) {
      const res = await emu().api("GET", path, undefined, { headers: {} });
      expect(res.status).toBe(200);
      const names = record<{ about_orders: { domain_name: string }[] }>(res.body).about_orders.map(
        (o) => o.domain_name,
      );
      expect(names).toEqual(["k8s.example.com"]);
    }
  });
});

/**
 * The exact requests RimuHosting's own Python client (pbkwee/RimuHostingAPI rimuapi.py, python-requests
 * 2.x) puts on the wire, captured from it: the header set and order below, JSON bodies in Python's
 * json.dumps spacing, the body `null` with Content-Type application/json on every GET and DELETE,
 * matrix filters from urlencode with `&` turned into `;` (`:` -> %3A, space -> +), the placeholder
 * domains `None` and `na.com` in order slugs, and a form body with an empty `;ip=` for PTR. Sent with
 * node:http because fetch refuses a body on GET.
 */
interface WireResponse {
  status: number;
  contentType: string;
  body: Record<string, unknown>;
}

function pythonRequests(
  emu: TestEmulator,
  method: string,
  path: string,
  body: string,
  options: { contentType?: string; apiKey?: string | null } = {},
): Promise<WireResponse> {
  const headers: Record<string, string> = {
    "User-Agent": "python-requests/2.34.2",
    "Accept-Encoding": "gzip, deflate",
    Accept: "application/json",
    Connection: "keep-alive",
    "Content-Type": options.contentType ?? "application/json",
  };
  const apiKey = options.apiKey === undefined ? DEMO_API_KEY : options.apiKey;
  if (apiKey !== null) headers.Authorization = `rimuhosting apikey=${apiKey}`;
  headers["Content-Length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: emu.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers["content-type"]),
              body: JSON.parse(text) as Record<string, unknown>,
            });
          } catch (error) {
            reject(new Error(`${method} ${path}: not JSON (${res.statusCode}): ${text}`, { cause: error }));
          }
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** What rimuapi.py surfaces from an error: it looks for error_info.human_readable_message. */
function humanMessage(res: WireResponse): string {
  return record<Envelope>(res.body).error_info?.human_readable_message ?? "";
}

describe("pbkwee rimuapi.py wire shapes (python-requests)", () => {
  const emu = useEmulator();

  async function pbkweeOrder(domain: string): Promise<AboutOrder> {
    const res = await pythonRequests(
      emu(),
      "POST",
      "/r/orders/new-vps",
      `{"new_order_request": {"instantiation_options": {"domain_name": "${domain}", "distro": "deb12.64"}, ` +
        `"distro": "deb12.64", "dc_location": "DCDALLAS", "memory_mb": 1024, "disk_space_mb": 8192, ` +
        `"meta_data": [{"key_name": "owner", "value": "pb:${domain}"}], "ssh_pub_key": "ssh-ed25519 AAAAkey user@host", ` +
        `"vps_parameters": {"disk_space_mb": 8192, "memory_mb": 1024}, ` +
        `"file_injection_data": [{"data_as_string": "ssh-ed25519 AAAAkey user@host", "path": "/root/.ssh/authorized_keys"}]}}`,
    );
    expect(res.status).toBe(200);
    return record<PostNewVpsResponse>(res.body).about_order;
  }

  test("create: the pbkwee body with top-level copies of distro/sizes/ssh_pub_key is accepted", async () => {
    const order = await pbkweeOrder("pb-create.example.com");
    expect(order.domain_name).toBe("pb-create.example.com");
    expect(order.distro).toBe("deb12.64");
    expect(order.vps_parameters).toMatchObject({ memory_mb: 1024, disk_space_mb: 8192 });
    expect(order.location?.data_center_location_code).toBe("DCDALLAS");
    expect(order.meta_data).toEqual([{ key_name: "owner", value: "pb:pb-create.example.com" }]);
  });

  test.each([
    ["GET /r/distributions without Authorization", "/r/distributions", null, "get_distros_response"],
    ["GET /r/data-centers without Authorization", "/r/data-centers", null, "get_data_centers_response"],
    [
      "GET /r/pricing-plans/new-vm-pricing without Authorization",
      "/r/pricing-plans/new-vm-pricing",
      null,
      "get_new_vm_pricing_response",
    ],
    ["GET /r/orders;include_inactive=N", "/r/orders;include_inactive=N", DEMO_API_KEY, "get_orders_response"],
  ])('%s, body "null" as application/json', async (_name, path, apiKey, root) => {
    const res = await pythonRequests(emu(), "GET", path, "null", { apiKey });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual([root]);
  });

  test("list: urlencoded matrix filters (%3A, +) and order_oids, with a null body", async () => {
    const a = await pbkweeOrder("pb-list-a.example.com");
    await pbkweeOrder("pb-list-b.example.com");
    const oidsOf = (res: WireResponse) =>
      record<GetOrdersResponse>(res.body).about_orders?.map((o) => o.order_oid);
    const search = await pythonRequests(
      emu(),
      "GET",
      "/r/orders;server_type=VPS;meta_search=owner%3Apb%3Apb-list-a.example.com;include_inactive=Y",
      "null",
    );
    expect(search.status).toBe(200);
    expect(oidsOf(search)).toEqual([a.order_oid]);
    const bothPairs = await pythonRequests(
      emu(),
      "GET",
      "/r/orders;meta_search=owner%3Apb%3Apb-list-a.example.com+owner%3Apb%3Apb-list-b.example.com;include_inactive=Y",
      "null",
    );
    expect(oidsOf(bothPairs)).toEqual([]);
    const byOid = await pythonRequests(
      emu(),
      "GET",
      `/r/orders;server_type=VPS;order_oids=${a.order_oid};include_inactive=N`,
      "null",
    );
    expect(oidsOf(byOid)).toEqual([a.order_oid]);
  });

  test("order, status and running state on the placeholder slugs order-<oid>-None and order-<oid>-na.com", async () => {
    const order = await pbkweeOrder("pb-slug.example.com");
    const info = await pythonRequests(emu(), "GET", `/r/orders/order-${order.order_oid}-None`, "null");
    expect(info.status).toBe(200);
    expect(record<{ about_order: AboutOrder }>(info.body).about_order.order_oid).toBe(order.order_oid);
    const status = await pythonRequests(
      emu(),
      "GET",
      `/r/orders/order-${order.order_oid}-na.com/vps`,
      "null",
    );
    expect(status.status).toBe(200);
    expect(Object.keys(status.body)).toEqual(["get_vps_status_response"]);
    const stop = await pythonRequests(
      emu(),
      "PUT",
      `/r/orders/order-${order.order_oid}-na.com/vps/running-state`,
      '{"running_state_change_request": {"running_state": "NOTRUNNING"}}',
    );
    expect(stop.status).toBe(200);
    expect(record<PutRunningStateResponse>(stop.body).running_vps_info?.running_state).toBe("NOTRUNNING");
  });

  test("parameters on order-<oid>-None, move with selected_host_server_oid null, reinstall keeping sizes", async () => {
    const order = await pbkweeOrder("pb-change.example.com");
    const base = `/r/orders/order-${order.order_oid}`;
    const params = await pythonRequests(
      emu(),
      "PUT",
      `${base}-None/vps/parameters`,
      '{"running_vps_data": {"memory_mb": 2048}}',
    );
    expect(params.status).toBe(200);
    const move = await pythonRequests(
      emu(),
      "PUT",
      `${base}-na.com/vps/host-server`,
      '{"vps_move_request": {"is_update_dns": false, "move_reason": "", ' +
        '"pricing_change_option": "CHOOSE_BEST_OPTION", "selected_host_server_oid": null}}',
    );
    expect(move.status).toBe(200);
    const moved = record<PutHostServerMoveResponse>(move.body).about_order;
    expect(moved?.host_server_oid).not.toBe(order.host_server_oid);
    const reinstall = await pythonRequests(
      emu(),
      "PUT",
      `${base}-na.com/vps/reinstall`,
      '{"new_order_request": {"distro": "ubuntu2404.64", "instantiation_options": {"distro": "ubuntu2404.64"}, "vps_parameters": {}}}',
    );
    expect(reinstall.status).toBe(200);
    const after = record<PostNewVpsResponse>(reinstall.body).about_order;
    expect(after.distro).toBe("ubuntu2404.64");
    expect(after.domain_name).toBe("pb-change.example.com");
    expect(after.vps_parameters).toMatchObject({ memory_mb: 2048, disk_space_mb: 8192 });
  });

  test("ptr: empty ;ip= means the primary address; an empty form domain_name= clears it", async () => {
    const order = await pbkweeOrder("pb-ptr.example.com");
    const primary = order.allocated_ips?.primary_ip;
    const form = { contentType: "application/x-www-form-urlencoded" };
    const set = await pythonRequests(
      emu(),
      "PUT",
      `/r/orders/order-${order.order_oid}-example.com/ptr;ip=`,
      "domain_name=ptr.example.com",
      form,
    );
    expect(set.status).toBe(200);
    expect(Object.keys(set.body)).toEqual(["jaxrs_response"]);
    expect(record<Envelope>(set.body).human_readable_message).toBe(
      `Reverse DNS for ${primary} set to ptr.example.com.`,
    );
    const byIp = await pythonRequests(
      emu(),
      "PUT",
      `/r/orders/order-${order.order_oid}-pb-ptr.example.com/ptr;ip=${primary}`,
      "domain_name=ptr2.example.com",
      form,
    );
    expect(record<Envelope>(byIp.body).human_readable_message).toBe(
      `Reverse DNS for ${primary} set to ptr2.example.com.`,
    );
    const clear = await pythonRequests(
      emu(),
      "PUT",
      `/r/orders/order-${order.order_oid}-example.com/ptr;ip=`,
      "domain_name=",
      form,
    );
    expect(clear.status).toBe(200);
    expect(record<Envelope>(clear.body).human_readable_message).toBe(
      `Removed the reverse DNS name of ${primary}.`,
    );
  });

  test("quote: PUT new-vm-pricing with the pbkwee create body prices the sizes it names", async () => {
    const quote = (memory: number, disk: number) =>
      pythonRequests(
        emu(),
        "PUT",
        "/r/pricing-plans/new-vm-pricing",
        `{"new_order_request": {"memory_mb": ${memory}, "disk_space_mb": ${disk}, "dc_location": "DCDALLAS", ` +
          `"instantiation_options": {"domain_name": "notexample.com"}, "vps_parameters": {"disk_space_mb": ${disk}, "memory_mb": ${memory}}}}`,
      );
    const amount = (res: WireResponse) =>
      record<{ monthly_recurring_amt: { amt_usd: number } }>(res.body).monthly_recurring_amt.amt_usd;
    const small = await quote(1024, 8192);
    const big = await quote(4096, 40960);
    expect(small.status).toBe(200);
    expect(amount(big)).toBeGreaterThan(amount(small));
  });

  test("delete: DELETE .../vps with body null cancels; the order stays readable and leaves the active list", async () => {
    const order = await pbkweeOrder("pb-delete.example.com");
    const del = await pythonRequests(
      emu(),
      "DELETE",
      `/r/orders/order-${order.order_oid}-na.com/vps`,
      "null",
    );
    expect(del.status).toBe(200);
    expect(record<{ cancel_messages: string[] }>(del.body).cancel_messages.length).toBeGreaterThan(0);
    const info = await pythonRequests(emu(), "GET", `/r/orders/order-${order.order_oid}-None`, "null");
    const after = record<{ about_order: AboutOrder }>(info.body).about_order;
    expect(after.running_state).toBe("NOTRUNNING");
    expect(after.billing_info?.cancellation_date).toBeTruthy();
    const active = await pythonRequests(emu(), "GET", "/r/orders;include_inactive=N", "null");
    const all = await pythonRequests(emu(), "GET", "/r/orders;include_inactive=Y", "null");
    const oids = (res: WireResponse) =>
      record<GetOrdersResponse>(res.body).about_orders?.map((o) => o.order_oid) ?? [];
    expect(oids(active)).not.toContain(order.order_oid);
    expect(oids(all)).toContain(order.order_oid);
  });

  test("errors carry error_info.human_readable_message, which rimuapi.py shows", async () => {
    const badKey = await pythonRequests(emu(), "GET", "/r/orders;include_inactive=N", "null", {
      apiKey: "99999999999999999999999999999999",
    });
    expect(badKey.status).toBe(403);
    expect(humanMessage(badKey)).toMatch(/API key is not valid/);
    const unknown = await pythonRequests(emu(), "GET", "/r/orders/order-987654321-None", "null");
    expect(unknown.status).toBe(404);
    expect(humanMessage(unknown)).toMatch(/No order 987654321/);
    const badDistro = await pythonRequests(
      emu(),
      "POST",
      "/r/orders/new-vps",
      '{"new_order_request": {"instantiation_options": {"domain_name": "bad.example.com", "distro": "nosuchdistro.64"}, ' +
        '"distro": "nosuchdistro.64", "vps_parameters": {}}}',
    );
    expect(badDistro.status).toBe(400);
    expect(humanMessage(badDistro)).toContain("nosuchdistro.64");
  });
});

/**
 * The requests RimuHosting's own command-line scripts (pbkwee/RimuHostingAPI lsvms.py, mkvm.py,
 * vmctl.py, chattrvm.py, pricing.py, rdns.py, rmvm.py, rimuapitests.sh) send, captured from
 * rimuapi.py's debug output while they ran unchanged against the emulator. Each shape the library
 * tests above do not already pin has a test here.
 */
describe("pbkwee CLI scripts' wire shapes", () => {
  const emu = useEmulator();

  const oidsOf = (res: WireResponse) =>
    record<GetOrdersResponse>(res.body).about_orders?.map((o) => o.order_oid) ?? [];

  async function mkvm(domain: string, extra = ""): Promise<AboutOrder> {
    const res = await pythonRequests(
      emu(),
      "POST",
      "/r/orders/new-vps",
      `{"new_order_request": {"vps_parameters": {"disk_space_mb": "8192", "memory_mb": "4096"}, ` +
        `"instantiation_options": {"distro": "deb12.64", "domain_name": "${domain}"}, "is_ssd_host_required": true${extra}}}`,
    );
    expect(res.status).toBe(200);
    return record<PostNewVpsResponse>(res.body).about_order;
  }

  test("mkvm.py: sample server JSON (sizes as strings, is_ssd_host_required) with --extra_server_json and --features", async () => {
    const order = await mkvm(
      "cli-create.example.com",
      ', "host_server_selector": {"min_vm_disk_free_gb": 30}, "features": "ssd nvme"',
    );
    expect(order.domain_name).toBe("cli-create.example.com");
    expect(order.vps_parameters).toMatchObject({ memory_mb: 4096, disk_space_mb: 8192 });
  });

  describe("lsvms.py listings", () => {
    let active: AboutOrder;
    let cancelled: AboutOrder;
    beforeAll(async () => {
      active = await mkvm("cli-list-active.example.com");
      cancelled = await mkvm("cli-list-gone.example.com");
      const del = await pythonRequests(
        emu(),
        "DELETE",
        `/r/orders/order-${cancelled.order_oid}-na.com/vps`,
        "null",
      );
      expect(del.status).toBe(200);
    });

    test("without --include_inactive it sends include_inactive=None: the default, active orders only", async () => {
      const res = await pythonRequests(
        emu(),
        "GET",
        "/r/orders;server_type=VPS;include_inactive=None",
        "null",
      );
      expect(res.status).toBe(200);
      expect(oidsOf(res)).toContain(active.order_oid);
      expect(oidsOf(res)).not.toContain(cancelled.order_oid);
      expect(record<GetOrdersResponse>(res.body).order_filter?.include_inactive).toBe("N");
    });

    test("--include_inactive sends Python's True: inactive orders are listed", async () => {
      const res = await pythonRequests(
        emu(),
        "GET",
        `/r/orders;server_type=VPS;order_oid=${cancelled.order_oid};search=cli-list;include_inactive=True`,
        "null",
      );
      expect(res.status).toBe(200);
      expect(oidsOf(res)).toEqual([cancelled.order_oid]);
    });

    test("--exclude_inactive sends Python's False: active orders only", async () => {
      const res = await pythonRequests(
        emu(),
        "GET",
        "/r/orders;server_type=VPS;include_inactive=False",
        "null",
      );
      expect(res.status).toBe(200);
      expect(oidsOf(res)).toContain(active.order_oid);
      expect(oidsOf(res)).not.toContain(cancelled.order_oid);
    });

    test.each(["ALL", "all", "ANY", "*", "None"])(
      "a catch-all server_type=%s is no filter",
      async (value) => {
        const res = await pythonRequests(
          emu(),
          "GET",
          `/r/orders;server_type=${value};include_inactive=Y`,
          "null",
        );
        expect(res.status).toBe(200);
        expect(oidsOf(res)).toEqual(expect.arrayContaining([active.order_oid, cancelled.order_oid]));
        expect(record<GetOrdersResponse>(res.body).order_filter?.server_type).toBeNull();
      },
    );
  });

  test("mkvm.py --reinstall_order_oid: looks the order up by order_oids, then reinstalls with null sizes and dc_location", async () => {
    const order = await mkvm("cli-reinstall.example.com");
    const lookup = await pythonRequests(
      emu(),
      "GET",
      `/r/orders;server_type=VPS;include_inactive=N;order_oids=${order.order_oid}`,
      "null",
    );
    expect(oidsOf(lookup)).toEqual([order.order_oid]);
    const res = await pythonRequests(
      emu(),
      "PUT",
      `/r/orders/order-${order.order_oid}-na.com/vps/reinstall`,
      '{"new_order_request": {"vps_parameters": {"disk_space_mb": null, "memory_mb": null}, ' +
        '"instantiation_options": {"distro": "deb12.64", "domain_name": "example.com"}, "is_ssd_host_required": true, "dc_location": null}}',
    );
    expect(res.status).toBe(200);
    const after = record<PostNewVpsResponse>(res.body).about_order;
    expect(after.vps_parameters).toMatchObject({ memory_mb: 4096, disk_space_mb: 8192 });
    expect(after.location?.data_center_location_code).toBe(order.location?.data_center_location_code);
  });

  test("chattrvm.py: sizes in GB x 1000 on order-<oid>-None, all three disks", async () => {
    const order = await mkvm("cli-resize.example.com");
    const res = await pythonRequests(
      emu(),
      "PUT",
      `/r/orders/order-${order.order_oid}-None/vps/parameters`,
      '{"running_vps_data": {"disk_space_mb": 12000, "disk_space_2_mb": 4000, "disk_space_3_mb": 3000}}',
    );
    expect(res.status).toBe(200);
    const after = record<{ about_order: AboutOrder }>(res.body).about_order;
    expect(after.vps_parameters).toMatchObject({
      disk_space_mb: 12000,
      disk_space_2_mb: 4000,
      disk_space_3_mb: 3000,
    });
  });

  test("pricing.py: the sample server JSON with string sizes and is_ssd_host_required", async () => {
    const res = await pythonRequests(
      emu(),
      "PUT",
      "/r/pricing-plans/new-vm-pricing",
      '{"new_order_request": {"vps_parameters": {"disk_space_mb": "8192", "memory_mb": "4096"}, ' +
        '"instantiation_options": {"distro": "deb12.64", "domain_name": "notexample.com"}, "is_ssd_host_required": true}}',
    );
    expect(res.status).toBe(200);
    expect(
      record<{ monthly_recurring_amt: { amt_usd: number } }>(res.body).monthly_recurring_amt.amt_usd,
    ).toBeGreaterThan(0);
  });

  test("rdns.py without --domain_name form-encodes Python's None: the name is cleared", async () => {
    const order = await mkvm("cli-ptr.example.com");
    const form = { contentType: "application/x-www-form-urlencoded" };
    const path = `/r/orders/order-${order.order_oid}-example.com/ptr;ip=`;
    const set = await pythonRequests(emu(), "PUT", path, "domain_name=ptr.example.com", form);
    expect(set.status).toBe(200);
    const clear = await pythonRequests(emu(), "PUT", path, "domain_name=None", form);
    expect(clear.status).toBe(200);
    expect(record<Envelope>(clear.body).human_readable_message).toBe(
      `Removed the reverse DNS name of ${order.allocated_ips?.primary_ip}.`,
    );
  });

  test("rdns.py --ip with an address the order does not have is a 400 naming ip", async () => {
    const order = await mkvm("cli-ptr-ip.example.com");
    const res = await pythonRequests(
      emu(),
      "PUT",
      `/r/orders/order-${order.order_oid}-example.com/ptr;ip=1.2.3.4`,
      "domain_name=x.example.com",
      { contentType: "application/x-www-form-urlencoded" },
    );
    expect(res.status).toBe(400);
    expect(humanMessage(res)).toContain("1.2.3.4");
  });
});
