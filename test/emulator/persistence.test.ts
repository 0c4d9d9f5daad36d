import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { startTestEmulator } from "../helpers/start-emulator.js";
import { useTempDir } from "../helpers/use-emulator.js";
import { EmulatorState } from "../../emulator/state/schema.js";
import { createVps, getOrder, orderPath } from "./fixtures.js";

describe("persistence", () => {
  const tmp = useTempDir();

  test("persist: a restart on the same state file loses nothing", async () => {
    const stateFile = path.join(tmp(), "restart", "state.json");
    const first = await startTestEmulator({ stateFile });
    const kept = (
      await createVps(
        first,
        { vps_parameters: { memory_mb: 2048 }, meta_data: [{ key_name: "k", value: "v" }] },
        { domain: "kept.example.com" },
      )
    ).about_order;
    const gone = (await createVps(first, {}, { domain: "gone.example.com" })).about_order;
    await first.api("DELETE", orderPath(gone, "/vps"));
    await first.api("PUT", orderPath(kept, "/vps/running-state"), { running_state: "NOTRUNNING" });
    await first.close();

    const second = await startTestEmulator({ stateFile });
    try {
      const again = await getOrder(second, kept.order_oid);
      expect(again).toMatchObject({
        domain_name: "kept.example.com",
        running_state: "NOTRUNNING",
        meta_data: [{ key_name: "k", value: "v" }],
        allocated_ips: kept.allocated_ips,
      });
      expect(again.vps_parameters?.memory_mb).toBe(2048);
      expect((await getOrder(second, gone.order_oid)).billing_info?.cancellation_date).not.toBeNull();
      // Ids keep increasing after a restart: a new order never reuses one.
      const next = (await createVps(second, {}, { domain: "next.example.com" })).about_order;
      expect([kept.order_oid, gone.order_oid]).not.toContain(next.order_oid);
      expect(next.allocated_ips?.primary_ip).not.toBe(kept.allocated_ips?.primary_ip);
    } finally {
      await second.close();
    }
  });

  test("persist: the file is versioned, valid against the state schema, and written without temp files left", async () => {
    const stateFile = path.join(tmp(), "valid", "state.json");
    const emu = await startTestEmulator({ stateFile });
    await createVps(emu, {}, { domain: "file.example.com" });
    await emu.close();
    const parsed = EmulatorState.parse(JSON.parse(readFileSync(stateFile, "utf8")));
    expect(parsed.version).toBe(1);
    expect(parsed.orders.map((o) => o.domainName)).toEqual(["file.example.com"]);
    expect(readdirSync(path.dirname(stateFile))).toEqual(["state.json"]);
    expect(JSON.stringify(parsed)).not.toMatch(/password/i);
  });

  test("persist: an invalid state file is refused at start-up with a clear error", async () => {
    const stateFile = path.join(tmp(), "bad.json");
    writeFileSync(stateFile, JSON.stringify({ version: 99, orders: "nope" }));
    await expect(startTestEmulator({ stateFile })).rejects.toThrow(/does not match state version 1/);
    writeFileSync(stateFile, "{ not json");
    await expect(startTestEmulator({ stateFile })).rejects.toThrow(/is not JSON/);
  });

  test("persist: without a state file nothing is written (not even a default file in the working directory)", async () => {
    const cwd = path.join(tmp(), "memory-only");
    mkdirSync(cwd);
    const before = process.cwd();
    process.chdir(cwd);
    try {
      const emu = await startTestEmulator();
      await createVps(emu, {}, { domain: "mem.example.com" });
      await emu.close();
    } finally {
      process.chdir(before);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });
});
