/** Request shapes real third-party clients send (docs/rimuhosting-api.md, 4.2 Requests): all must be accepted (pbkwee's: pbkwee-shapes.test.ts). */
import type {
  PostNewVpsResponse,
  PutHostServerMoveResponse,
  PutRunningStateResponse,
} from "../../contract/index.js";
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
