// The engine killed (SIGKILL, the whole process group: pulumi, its language host, the program and the provider host)
// while a VPS is being ordered, then `pulumi up` again: exactly one order, known to the state, and destroy cancels it.
// Only the real CLI has the engine's own handling of an interrupted deployment (pending operations in the
// checkpoint); the harness models none of it, so without a CLI this scenario is skipped (with that reason in its name).
import { spawn } from "node:child_process";
import * as path from "node:path";
import { availableBackends } from "./stack-driver";
import { liveOrders, startScenario, vpsOps, type Scenario } from "./e2e-support";

jest.setTimeout(240_000);

const { backends } = availableBackends();
// Skipped without a CLI: the harness has no pending operations, locks or `pulumi cancel` to test.
const describeCli = backends.includes("cli") ? describe : describe.skip;
const EXAMPLES_DIR = path.resolve(__dirname, "..", "..", "examples");

async function until(what: string, ok: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeCli(
  `the engine killed mid-create (real CLI only: ${backends.includes("cli") ? "on PATH" : "no pulumi on PATH"})`,
  () => {
    let s: Scenario;

    beforeEach(async () => {
      s = await startScenario("lifecycle", "cli");
    });
    afterEach(async () => s?.close());

    for (const when of ["before the order is committed", "after the order is committed"] as const) {
      test(`${when}: the next up ends with exactly one order, in state; destroy cancels it`, async () => {
        const cli = s.stack.cli!;
        // hold the order's HTTP call open long enough to kill the engine during it
        s.emulator.injectFault({
          route: "createVps",
          kind: when === "before the order is committed" ? "delay" : "delay-after-commit",
          delayMs: 20_000,
        });
        const up = spawn(
          "pulumi",
          ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", cli.name],
          {
            cwd: path.join(EXAMPLES_DIR, "lifecycle"),
            env: cli.commandEnv(),
            detached: true, // its own process group, so the kill reaches every process of the deployment
            stdio: "ignore",
          },
        );
        const exited = new Promise((resolve) => up.on("exit", resolve));
        if (when === "before the order is committed") {
          // the provider looks its creation token up before it orders; the order call follows at once and is held
          await until("the create's first call", () => s.emulator.requestLog().length > 0);
          await new Promise((r) => setTimeout(r, 2_000));
          expect(s.emulator.snapshot()).toEqual([]);
        } else {
          await until("the order to be committed", () => s.emulator.snapshot().length > 0);
        }
        process.kill(-up.pid!, "SIGKILL");
        await exited;

        // What a user does next: the killed engine left its lock behind, so `pulumi cancel`, then `pulumi up`.
        await cli.cancel();
        const r = await s.stack.up();
        expect(vpsOps(r)).toMatchObject({ app: expect.stringMatching(/^(create|same|update)$/) });
        const live = liveOrders(s.emulator);
        expect(live).toHaveLength(1);
        expect(r.outputs.orderOid).toBe(live[0]?.orderOid);
        const state = JSON.parse(await s.stack.exportState()) as {
          deployment: { resources?: { id?: string }[]; pending_operations?: unknown[] };
        };
        expect(state.deployment.resources?.map((x) => x.id)).toContain(String(live[0]?.orderOid));
        // The killed run's pending create is still noted in the checkpoint; the order it stood for is now in state
        // (this up found it by its creation token), so clearing the note loses nothing.
        expect(state.deployment.pending_operations).toHaveLength(1);
        await cli.refresh({ clearPendingCreates: true });
        const cleared = JSON.parse(await s.stack.exportState()) as typeof state;
        expect(cleared.deployment.pending_operations ?? []).toEqual([]);
        expect(liveOrders(s.emulator)).toHaveLength(1);

        expect(vpsOps(await s.stack.destroy())).toEqual({ app: "delete" });
        expect(liveOrders(s.emulator)).toEqual([]);
      });
    }
  },
);
