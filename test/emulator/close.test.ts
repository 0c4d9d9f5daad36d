import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index.js";
import { GateClock } from "../helpers/gate-clock.js";
import { startTestEmulator } from "../helpers/start-emulator.js";
import { useTempDir } from "../helpers/use-emulator.js";

describe("close", () => {
  const tempDir = useTempDir();

  test("close: ends an operation still in progress, lets its answer out, and is idempotent", async () => {
    const clock = new GateClock({ gated: ["work"] });
    // With a state file, an answer also waits for the file to be written: the slower path to the client.
    const emu = await startTestEmulator({ clock, stateFile: path.join(tempDir(), "state.json") });
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
    // The create is waiting for its setup to finish (a wait only close() ends).
    expect(await clock.nextWait(pending)).toMatchObject({ kind: "work" });
    expect(emu.snapshot()).toEqual([
      expect.objectContaining({ domainName: "slow.example.com", runningState: "NOTRUNNING" }),
    ]);
    await Promise.all([emu.close(), emu.close()]);
    await emu.close();
    // Closing ended the pending setup wait (rather than abandoning it with its timer): the create ran to
    // completion, the order is RUNNING, and its client got the answer before the connection closed.
    expect(await pending).toBe(200);
    expect(emu.snapshot()).toEqual([
      expect.objectContaining({ domainName: "slow.example.com", runningState: "RUNNING" }),
    ]);
    expect(clock.pending()).toBe(0);
  });
});
