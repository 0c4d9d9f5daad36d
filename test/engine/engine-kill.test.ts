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

type Checkpoint = {
  deployment: {
    resources?: { urn: string; id?: string; type: string }[];
    pending_operations?: { resource: { urn: string } }[];
  };
};

describeCli(
  `the engine killed mid-create (real CLI only: ${backends.includes("cli") ? "on PATH" : "no pulumi on PATH"})`,
  () => {
    let s: Scenario;

    beforeEach(async () => {
      s = await startScenario("lifecycle", "cli");
    });
    afterEach(async () => s?.close());

    /** `pulumi up` in its own process group, SIGKILLed (the whole group) once `killWhen` holds. */
    async function upKilledWhen(what: string, killWhen: () => boolean): Promise<void> {
      const cli = s.stack.cli!;
      const up = spawn(
        "pulumi",
        ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", cli.name],
        {
          cwd: path.join(EXAMPLES_DIR, "lifecycle"),
          env: cli.commandEnv(),
          detached: true, // its own process group: pulumi, the language host, the program, the provider host
          stdio: "ignore",
        },
      );
      const exited = new Promise((resolve) => up.on("exit", resolve));
      await until(what, killWhen);
      process.kill(-up.pid!, "SIGKILL");
      await exited;
      // What a user does next: the killed engine left its lock behind.
      await cli.cancel();
    }

    const checkpoint = async (): Promise<Checkpoint> => JSON.parse(await s.stack.exportState()) as Checkpoint;

    test("before anything is ordered: the next up orders exactly one VPS; destroy cancels it", async () => {
      // hold the provider's look-up of its creation token (the call before the order) and kill during it
      s.emulator.injectFault({ route: "listOrders", kind: "delay", delayMs: 20_000 });
      await upKilledWhen("the creation-token look-up", () =>
        s.emulator.requestLog().some((e) => e.route === "listOrders"),
      );
      expect(s.emulator.snapshot()).toEqual([]);

      const r = await s.stack.up();
      expect(vpsOps(r)).toEqual({ app: "create" });
      const live = liveOrders(s.emulator);
      expect(live.map((o) => o.orderOid)).toEqual([r.outputs.orderOid]);
      // the killed run's pending create is only a note now: clearing it loses nothing
      await s.stack.cli!.refresh({ clearPendingCreates: true });
      expect((await checkpoint()).deployment.pending_operations ?? []).toEqual([]);
      expect(vpsOps(await s.stack.destroy())).toEqual({ app: "delete" });
      expect(liveOrders(s.emulator)).toEqual([]);
    });

    test("after the order is committed: up orders nothing and names the order; adopting it recovers", async () => {
      // the order is placed, its answer held back; the engine dies before it can record anything
      s.emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 20_000 });
      await upKilledWhen("the order to be committed", () => s.emulator.snapshot().length > 0);
      const [order] = liveOrders(s.emulator);
      expect(order).toBeDefined();

      // No information of the killed run reaches the provider, so it cannot tell this order from another stack's:
      // it orders nothing and says which order to take over.
      const refused = await s.stack.up().then(
        () => undefined,
        (e: unknown) => String(e),
      );
      expect(refused).toContain("RIMU_ERR_FOREIGN_ORDER");
      expect(refused).toContain(String(order!.orderOid));
      expect(liveOrders(s.emulator)).toHaveLength(1);

      // The way out the message gives: adopt the named order on purpose. (`pulumi refresh --import-pending-creates
      // <urn> <id>` is no way out with CLI v3.259: it drops the pending create and imports nothing.)
      await s.stack.setConfig("adoptOrderOid", String(order!.orderOid));
      const adopted = await s.stack.up();
      expect(vpsOps(adopted)).toEqual({ app: "create" });
      expect(adopted.outputs.orderOid).toBe(order!.orderOid);
      expect(liveOrders(s.emulator)).toHaveLength(1);
      await s.stack.cli!.refresh({ clearPendingCreates: true });
      const after = await checkpoint();
      expect(after.deployment.pending_operations ?? []).toEqual([]);
      expect(after.deployment.resources?.find((x) => x.type.endsWith(":Vps"))?.id).toBe(
        String(order!.orderOid),
      );
      const mark = s.mark();
      expect(vpsOps(await s.stack.up())).toEqual({ app: "same" });
      expect(s.mutationsSince(mark)).toEqual([]);

      expect(vpsOps(await s.stack.destroy())).toEqual({ app: "delete" });
      expect(liveOrders(s.emulator)).toEqual([]);
    });
  },
);
