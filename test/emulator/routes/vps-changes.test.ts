/**
 * The changes to a running VPS against the emulator over real HTTP: R9 its parameters (a resize), R8 a move to
 * another host, R10 a reinstall (its state, status, deletion and PTR records: vps.test.ts).
 */
import type {
  GetDataTransferUsageResponse,
  GetVpsStatusResponse,
  PostNewVpsResponse,
  PutHostServerMoveResponse,
  PutRunningVpsDataResponse,
} from "../../../contract/index.js";
import { useEmulator } from "../../helpers/use-emulator.js";
import { createVps, errorOf, getOrder, orderPath, record, rootKey, setState } from "../fixtures.js";

describe("R9 parameters", () => {
  const emu = useEmulator();

  test("parameters: growing memory and disk restarts the VPS and updates billing pro rata", async () => {
    const order = (
      await createVps(
        emu(),
        { vps_parameters: { memory_mb: 1024, disk_space_mb: 8192 } },
        { domain: "grow.example.com" },
      )
    ).about_order;
    const res = await emu().api("PUT", orderPath(order, "/vps/parameters"), {
      running_vps_data: { memory_mb: 2048, disk_space_mb: 16384 },
    });
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("put_running_vps_data_response");
    const body = record<PutRunningVpsDataResponse>(res.body);
    expect(body.human_readable_message).toBe("Resource change completed.");
    expect(body.resource_change_result.were_resources_changed).toBe(true);
    expect(body.resource_change_request).toEqual({
      memory_mb: 2048,
      disk_space_mb: 16384,
      disk_space_2_mb: null,
      disk_space_3_mb: null,
    });
    const messages = body.resource_change_result.resource_change_messages!;
    expect(messages.join("\n")).toMatch(
      /Memory change from 1GB to 2GB\. {2}Disk change from 8GB to 16GB\. {2}Date: \d{4}-\d\d-\d\d\. {2}Monthly pricing changed from [\d.]+ USD to [\d.]+ USD, [\d.]+ USD more\. {2}Pro-rated change of [\d.]+ USD over \d+ days\./,
    );
    expect(messages).toContain("grow.example.com is pinging OK after the restart.");
    expect(messages.at(-1)).toBe("Completed.");
    const after = await getOrder(emu(), order.order_oid);
    expect(after.vps_parameters).toMatchObject({ memory_mb: 2048, disk_space_mb: 16384 });
    expect(after.billing_info!.monthly_recurring_fee!).toBeGreaterThan(
      order.billing_info!.monthly_recurring_fee!,
    );
    expect(after.running_state).toBe("RUNNING");
  });

  test("parameters: shrinking a disk is refused with 409 and nothing changes", async () => {
    const order = (
      await createVps(emu(), { vps_parameters: { disk_space_mb: 8192 } }, { domain: "shrink.example.com" })
    ).about_order;
    const err = errorOf(
      await emu().api("PUT", orderPath(order, "/vps/parameters"), {
        running_vps_data: { disk_space_mb: 4096 },
      }),
    );
    expect(err.status).toBe(409);
    expect(err.code).toBe("EMU_ERR_DISK_SHRINK");
    expect(err.fieldName).toBe("disk_space_mb");
    expect((await getOrder(emu(), order.order_oid)).vps_parameters?.disk_space_mb).toBe(8192);
  });

  test("parameters: less memory is allowed and costs less", async () => {
    const order = (
      await createVps(emu(), { vps_parameters: { memory_mb: 4096 } }, { domain: "less.example.com" })
    ).about_order;
    const body = record<PutRunningVpsDataResponse>(
      (await emu().api("PUT", orderPath(order, "/vps/parameters"), { running_vps_data: { memory_mb: 2048 } }))
        .body,
    );
    expect(body.resource_change_result.resource_change_messages!.join("\n")).toMatch(
      /USD less\. {2}Pro-rated credit of/,
    );
  });

  test("parameters: a stopped VPS is resized and stays stopped", async () => {
    const order = (await createVps(emu(), {}, { domain: "stopped.example.com" })).about_order;
    await setState(emu(), order, "NOTRUNNING");
    const res = await emu().api("PUT", orderPath(order, "/vps/parameters"), {
      running_vps_data: { memory_mb: 2048 },
    });
    expect(res.status).toBe(200);
    expect((await getOrder(emu(), order.order_oid)).running_state).toBe("NOTRUNNING");
  });

  test("parameters: the same sizes change nothing", async () => {
    const order = (await createVps(emu(), {}, { domain: "same.example.com" })).about_order;
    const body = record<PutRunningVpsDataResponse>(
      (await emu().api("PUT", orderPath(order, "/vps/parameters"), { running_vps_data: { memory_mb: 1024 } }))
        .body,
    );
    expect(body.resource_change_result.were_resources_changed).toBe(false);
  });

  test("parameters: growth beyond the host's free capacity is a 409", async () => {
    const order = (await createVps(emu(), { host_server_oid: "836" }, { domain: "tight.example.com" }))
      .about_order;
    const err = errorOf(
      await emu().api("PUT", orderPath(order, "/vps/parameters"), { running_vps_data: { memory_mb: 65536 } }),
    );
    expect(err.status).toBe(409);
    expect(err.code).toBe("EMU_ERR_HOST_CAPACITY");
  });

  test("parameters: a wrongly typed size is a 400 naming the field", async () => {
    const order = (await createVps(emu(), {}, { domain: "typed.example.com" })).about_order;
    const err = errorOf(
      await emu().api("PUT", orderPath(order, "/vps/parameters"), { running_vps_data: { memory_mb: "big" } }),
    );
    expect(err.status).toBe(400);
    expect(err.fieldName).toBe("memory_mb");
  });
});

describe("R8 host-server move", () => {
  const emu = useEmulator();

  test("move: a running VPS runs on the new host afterwards with an IP from the new subnet", async () => {
    const order = (await createVps(emu(), { host_server_oid: "764" }, { domain: "move.example.com" }))
      .about_order;
    expect(order.allocated_ips?.primary_ip).toMatch(/^192\.0\.2\./);
    const res = await emu().api("PUT", orderPath(order, "/vps/host-server"), {
      vps_move_request: { selected_host_server_oid: "835", move_reason: "test" },
    });
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("put_host_server_move_response");
    const body = record<PutHostServerMoveResponse>(res.body);
    expect(body.about_order.host_server_oid).toBe("835");
    expect(body.about_order.running_state).toBe("RUNNING");
    expect(body.about_order.allocated_ips?.primary_ip).toMatch(/^198\.18\.1\./);
    expect(body.move_request).toMatchObject({
      selected_host_server_oid: "835",
      pricing_change_option: "CHOOSE_BEST_OPTION",
    });
    expect(body.move_messages!.join("\n")).toMatch(
      /IP address changed from 192\.0\.2\.\d+ to 198\.18\.1\.\d+/,
    );
    const status = record<GetVpsStatusResponse>((await emu().api("GET", orderPath(order, "/vps"))).body);
    expect(status.running_vps_info.running_state).toBe("RUNNING");
    expect(status.about_order?.host_server_oid).toBe("835");
  });

  test("move: without a host the server picks another host in the same data centre", async () => {
    const order = (await createVps(emu(), {}, { domain: "pick.example.com" })).about_order;
    const body = record<PutHostServerMoveResponse>(
      (await emu().api("PUT", orderPath(order, "/vps/host-server"), { vps_move_request: {} })).body,
    );
    expect(body.about_order.host_server_oid).not.toBe(order.host_server_oid);
    expect(body.about_order.location?.data_center_location_code).toBe("DCDALLAS");
  });

  test("move: a stopped VPS stays stopped", async () => {
    const order = (await createVps(emu(), {}, { domain: "stopmove.example.com" })).about_order;
    await setState(emu(), order, "NOTRUNNING");
    const body = record<PutHostServerMoveResponse>(
      (await emu().api("PUT", orderPath(order, "/vps/host-server"), {})).body,
    );
    expect(body.about_order.running_state).toBe("NOTRUNNING");
  });

  test("move: to its own host is a 409, to an unknown host a 400", async () => {
    const order = (await createVps(emu(), {}, { domain: "samehost.example.com" })).about_order;
    const same = errorOf(
      await emu().api("PUT", orderPath(order, "/vps/host-server"), {
        vps_move_request: { selected_host_server_oid: order.host_server_oid },
      }),
    );
    expect(same.status).toBe(409);
    const unknown = errorOf(
      await emu().api("PUT", orderPath(order, "/vps/host-server"), {
        vps_move_request: { selected_host_server_oid: "nope" },
      }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.fieldName).toBe("selected_host_server_oid");
  });

  test("move: a target without room is a 409", async () => {
    const order = (
      await createVps(emu(), { vps_parameters: { memory_mb: 16384 } }, { domain: "big.example.com" })
    ).about_order;
    const err = errorOf(
      await emu().api("PUT", orderPath(order, "/vps/host-server"), {
        vps_move_request: { selected_host_server_oid: "836" },
      }),
    );
    expect(err.status).toBe(409);
    expect(err.code).toBe("EMU_ERR_HOST_CAPACITY");
  });
});

describe("R10 reinstall", () => {
  const emu = useEmulator();

  test("reinstall: changes the distro, wipes the disk, keeps the IP and the sizes given as null", async () => {
    const created = await createVps(
      emu(),
      { vps_parameters: { memory_mb: 2048, disk_space_mb: 10240 } },
      { domain: "re.example.com" },
    );
    const order = created.about_order;
    const res = await emu().api("PUT", orderPath(order, "/vps/reinstall"), {
      new_order_request: {
        instantiation_options: { distro: "lenny" },
        dc_location: null,
        vps_parameters: { memory_mb: null, disk_space_mb: null },
      },
    });
    expect(res.status).toBe(200);
    expect(rootKey(res.body)).toBe("post_new_vps_response");
    const body = record<PostNewVpsResponse>(res.body);
    expect(body.about_order.distro).toBe("lenny");
    expect(body.about_order.order_oid).toBe(order.order_oid);
    expect(body.about_order.allocated_ips?.primary_ip).toBe(order.allocated_ips?.primary_ip);
    expect(body.about_order.vps_parameters).toMatchObject({ memory_mb: 2048, disk_space_mb: 10240 });
    expect(body.about_order.running_state).toBe("RUNNING");
    expect(body.new_order_request?.instantiation_options?.password).toBeTruthy();
    expect(body.new_order_request?.instantiation_options?.password).not.toBe(
      created.new_order_request?.instantiation_options?.password,
    );
    const usage = record<GetDataTransferUsageResponse>(
      (await emu().api("GET", orderPath(order, "/vps/data-transfer-usage"))).body,
    );
    expect(usage.data_transfer_usage_info).toMatchObject({ disk_used_mb: 900 });
  });

  test("reinstall: given sizes change, and a smaller disk is allowed because it is wiped", async () => {
    const order = (
      await createVps(emu(), { vps_parameters: { disk_space_mb: 20480 } }, { domain: "re2.example.com" })
    ).about_order;
    const body = record<PostNewVpsResponse>(
      (
        await emu().api("PUT", orderPath(order, "/vps/reinstall"), {
          reinstall_request: {
            instantiation_options: { distro: "deb13.64", domain_name: "renamed.example.com" },
            vps_parameters: { disk_space_mb: 10240 },
          },
        })
      ).body,
    );
    expect(body.about_order).toMatchObject({ distro: "deb13.64", domain_name: "renamed.example.com" });
    expect(body.about_order.vps_parameters?.disk_space_mb).toBe(10240);
  });

  test("reinstall: an unknown distro is a 400 naming the field", async () => {
    const order = (await createVps(emu(), {}, { domain: "re3.example.com" })).about_order;
    const err = errorOf(
      await emu().api("PUT", orderPath(order, "/vps/reinstall"), {
        new_order_request: { instantiation_options: { distro: "beos5" } },
      }),
    );
    expect(err.status).toBe(400);
    expect(err.fieldName).toBe("instantiation_options.distro");
  });

  test('reinstall: a control panel other than webmin is a 400 naming the field; "" removes it', async () => {
    const order = (await createVps(emu(), {}, { domain: "re-cp.example.com" })).about_order;
    const err = errorOf(
      await emu().api("PUT", orderPath(order, "/vps/reinstall"), {
        new_order_request: { instantiation_options: { distro: "deb13.64", control_panel: "cpanel" } },
      }),
    );
    expect(err).toMatchObject({ status: 400, fieldName: "instantiation_options.control_panel" });
    // Refused before anything changed.
    expect((await getOrder(emu(), order.order_oid)).distro).toBe(order.distro);
    const res = await emu().api("PUT", orderPath(order, "/vps/reinstall"), {
      new_order_request: { instantiation_options: { control_panel: "" } },
    });
    expect(res.status).toBe(200);
    expect((await getOrder(emu(), order.order_oid)).order_description).toMatch(/Control Panel: none/);
  });

  test("reinstall: another data centre means a new host there and a new IP", async () => {
    const order = (await createVps(emu(), {}, { domain: "re4.example.com" })).about_order;
    const body = record<PostNewVpsResponse>(
      (
        await emu().api("PUT", orderPath(order, "/vps/reinstall"), {
          new_order_request: { dc_location: "DCSYDNEY" },
        })
      ).body,
    );
    expect(body.about_order.location?.data_center_location_code).toBe("DCSYDNEY");
    expect(body.about_order.allocated_ips?.primary_ip).not.toBe(order.allocated_ips?.primary_ip);
  });
});
