/**
 * The request shapes pbkwee's rimuapi.py (python-requests) sends (docs/rimuhosting-api.md, 4.2 Requests): all must
 * be accepted (the CLI scripts built on it: pbkwee-scripts.test.ts; other clients: third-party-shapes.test.ts).
 */
import type {
  PostNewVpsResponse,
  PutHostServerMoveResponse,
  PutRunningStateResponse,
} from "../../contract/index.js";
import type { AboutOrder, Envelope, GetOrdersResponse } from "../../contract/index.js";
import { DEMO_API_KEY } from "../../emulator/index.js";
import { useEmulator } from "../helpers/use-emulator.js";
import { record } from "./fixtures.js";
import { humanMessage, pythonRequests, type WireResponse } from "./python-requests.js";

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
