import type { GetVpsStatusResponse } from "../../contract/index.js";
import { HOST_RESERVED_MEM_MB } from "../../emulator/catalog/hosts.js";
import { startTestEmulator } from "../helpers/start-emulator.js";
import { useEmulator } from "../helpers/use-emulator.js";
import { createVps, orderPath, record } from "./fixtures.js";

describe("concurrency", () => {
  const emu = useEmulator();

  test("creates at once: all succeed with distinct oids and IPs, and host capacity adds up", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createVps(
          emu(),
          { vps_parameters: { memory_mb: 2048, disk_space_mb: 10240 } },
          { domain: `c${i}.example.com` },
        ),
      ),
    );
    const oids = results.map((r) => r.about_order.order_oid);
    const ips = results.map((r) => r.about_order.allocated_ips!.primary_ip);
    expect(new Set(oids).size).toBe(12);
    expect(new Set(ips).size).toBe(12);
    const byHost = new Map<string, number>();
    for (const r of results)
      byHost.set(r.about_order.host_server_oid!, (byHost.get(r.about_order.host_server_oid!) ?? 0) + 1);
    for (const r of results) {
      const status = record<GetVpsStatusResponse>(
        (await emu().api("GET", orderPath(r.about_order, "/vps"))).body,
      );
      const host = status.host_server_info!;
      expect(host.host_mem_mb_free).toBe(
        host.host_mem_mb_total! - HOST_RESERVED_MEM_MB - 2048 * byHost.get(r.about_order.host_server_oid!)!,
      );
    }
  });

  test("creates at once on a small host: exactly as many as fit succeed, the rest get 409", async () => {
    const small = await startTestEmulator();
    try {
      // Host 836 has 8192MB, 2048MB of it reserved: three 2048MB VPSs fit.
      const responses = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          small.api("POST", "/orders/new-vps", {
            new_order_request: {
              instantiation_options: { domain_name: `s${i}.example.com` },
              host_server_oid: "836",
              vps_parameters: { memory_mb: 2048, disk_space_mb: 10240 },
            },
          }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 409, 409]);
      expect(small.snapshot()).toHaveLength(3);
    } finally {
      await small.close();
    }
  });

  test("mutations of one order run one after another", async () => {
    const order = (await createVps(emu(), {}, { domain: "serial.example.com" })).about_order;
    const states = ["NOTRUNNING", "RUNNING", "RESTARTING", "NOTRUNNING"] as const;
    const responses = await Promise.all(
      states.map((s) => emu().api("PUT", orderPath(order, "/vps/running-state"), { running_state: s })),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(
      emu()
        .snapshot()
        .find((o) => o.orderOid === order.order_oid)?.runningState,
    ).toBe("NOTRUNNING");
  });
});
