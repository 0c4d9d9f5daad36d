import { DEMO_API_KEY } from "../../emulator/index.js";
import { startTestEmulator } from "../helpers/start-emulator.js";

describe("close", () => {
  test("close: ends an operation still in progress (a create that would take hours) and is idempotent", async () => {
    const emu = await startTestEmulator({ timeScale: 1000 });
    const pending = fetch(`${emu.baseUrl}/orders/new-vps`, {
      method: "POST",
      headers: { authorization: `rimuhosting apikey=${DEMO_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        new_order_request: { instantiation_options: { domain_name: "slow.example.com" } },
      }),
    }).then(
      (res) => res.status,
      () => "aborted",
    );
    for (let i = 0; i < 200 && emu.snapshot().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(emu.snapshot()).toEqual([
      expect.objectContaining({ domainName: "slow.example.com", runningState: "NOTRUNNING" }),
    ]);
    await Promise.all([emu.close(), emu.close()]);
    await emu.close();
    expect(["aborted", 200]).toContain(await pending);
    // Closing ended the pending setup wait (rather than abandoning it with its timer): the create ran to
    // completion, so the order is RUNNING.
    expect(emu.snapshot()).toEqual([
      expect.objectContaining({ domainName: "slow.example.com", runningState: "RUNNING" }),
    ]);
  });
});
