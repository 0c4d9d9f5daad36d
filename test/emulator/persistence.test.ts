import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { startTestEmulator } from "../helpers/start-emulator.js";
import { useTempDir } from "../helpers/use-emulator.js";
import { EmulatorState, STATE_VERSION } from "../../emulator/state/schema.js";
import { createVps, errorOf, getOrder, orderPath } from "./fixtures.js";

describe("persistence", () => {
  const tmp = useTempDir();

  test("persist: a restart on the same state file loses nothing", async () => {
    mkdirSync(path.join(tmp(), "restart"));
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
    mkdirSync(path.join(tmp(), "valid"));
    const stateFile = path.join(tmp(), "valid", "state.json");
    const emu = await startTestEmulator({ stateFile });
    await createVps(emu, {}, { domain: "file.example.com" });
    await emu.close();
    const parsed = EmulatorState.parse(JSON.parse(readFileSync(stateFile, "utf8")));
    expect(parsed.version).toBe(STATE_VERSION);
    expect(parsed.orders.map((o) => o.domainName)).toEqual(["file.example.com"]);
    expect(readdirSync(path.dirname(stateFile))).toEqual(["state.json"]);
    expect(JSON.stringify(parsed)).not.toMatch(/password/i);
  });

  test("persist: an invalid state file is refused at start-up with a clear error", async () => {
    const stateFile = path.join(tmp(), "bad.json");
    writeFileSync(stateFile, JSON.stringify({ version: STATE_VERSION, orders: "nope" }));
    await expect(startTestEmulator({ stateFile })).rejects.toThrow(
      `does not match state version ${STATE_VERSION}`,
    );
    writeFileSync(stateFile, JSON.stringify({ version: 99, orders: "nope" }));
    await expect(startTestEmulator({ stateFile })).rejects.toThrow(
      `The emulator state file ${stateFile} is state version 99, written by a newer emulator; this emulator reads versions 1 to ${STATE_VERSION}.`,
    );
    writeFileSync(stateFile, "{ not json");
    await expect(startTestEmulator({ stateFile })).rejects.toThrow(/is not JSON/);
  });

  test("persist: a state file in a missing directory is refused at start-up, naming the directory", async () => {
    const stateFile = path.join(tmp(), "no-such-dir", "state.json");
    await expect(startTestEmulator({ stateFile })).rejects.toThrow(
      `The directory of the state file ${stateFile} (${path.dirname(stateFile)}) does not exist. Create it first`,
    );
    expect(readdirSync(tmp())).not.toContain("no-such-dir");
  });

  test("persist: every answer waits until the change is in the file (read straight after each create)", async () => {
    const stateFile = path.join(tmp(), "durable.json");
    const emu = await startTestEmulator({ stateFile });
    try {
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) => createVps(emu, {}, { domain: `d${i}.example.com` })),
      );
      // No close(): what the file holds now is what a kill -9 would leave.
      const onDisk = EmulatorState.parse(JSON.parse(readFileSync(stateFile, "utf8")));
      const oids = new Set(onDisk.orders.map((o) => o.orderOid));
      for (const c of created) expect(oids.has(c.about_order.order_oid)).toBe(true);
      expect(Math.max(...oids)).toBeLessThan(onDisk.nextOrderOid);
    } finally {
      await emu.close();
    }
  });

  test("persist: a state file that cannot be written turns the answer into a 500 that says so", async () => {
    const dir = path.join(tmp(), "vanishing");
    mkdirSync(dir);
    const stateFile = path.join(dir, "state.json");
    const emu = await startTestEmulator({ stateFile });
    try {
      rmSync(dir, { recursive: true });
      const res = await emu.api("POST", "/orders/new-vps", {
        new_order_request: { instantiation_options: { domain_name: "nowhere.example.com" } },
      });
      expect(errorOf(res)).toMatchObject({ status: 500, code: "EMU_ERR_STATE_WRITE" });
      expect(res.text).toContain(stateFile);
      mkdirSync(dir);
      expect((await emu.api("GET", "/orders")).status).toBe(200);
    } finally {
      await emu.close();
    }
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
