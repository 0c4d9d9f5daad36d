/**
 * The requests RimuHosting's own command-line scripts (pbkwee/RimuHostingAPI lsvms.py, mkvm.py,
 * vmctl.py, chattrvm.py, pricing.py, rdns.py, rmvm.py, rimuapitests.sh) send, captured from
 * rimuapi.py's debug output while they ran unchanged against the emulator. Each shape the library
 * tests (pbkwee-shapes.test.ts) do not already pin has a test here.
 */
import type { PostNewVpsResponse } from "../../contract/index.js";
import type { AboutOrder, Envelope, GetOrdersResponse } from "../../contract/index.js";
import { useEmulator } from "../helpers/use-emulator.js";
import { record } from "./fixtures.js";
import { humanMessage, pythonRequests, type WireResponse } from "./python-requests.js";

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
