// The engine killed (SIGKILL, the whole process group: pulumi, its language host, the program and the provider host)
// while a VPS is being ordered, then `pulumi up` again: exactly one order, known to the state, and destroy cancels it.
// Only the real CLI has the engine's own handling of an interrupted deployment (pending operations in the
// checkpoint); the harness models none of it, so without a CLI this scenario is skipped (with that reason in its name).
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
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

    /**
     * `pulumi up` in its own process group, SIGKILLed (the whole group) once `killWhen` holds; `killWhen` also gets
     * the kill itself, for callers that must kill at an exact moment.
     */
    async function upKilledWhen(what: string, killWhen: (killNow: () => void) => boolean): Promise<void> {
      const cli = s.stack.cli!;
      const tag = crypto.randomBytes(8).toString("hex");
      const up = spawn(
        "pulumi",
        ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", cli.name],
        {
          cwd: path.join(EXAMPLES_DIR, "lifecycle"),
          env: { ...cli.commandEnv(), E2E_KILL_TAG: tag },
          detached: true, // its own process group: pulumi, the language host, the program
          stdio: "ignore",
        },
      );
      const exited = new Promise((resolve) => up.on("exit", resolve));
      let killed = false;
      const killNow = (): void => {
        if (killed) return;
        killed = true;
        process.kill(-up.pid!, "SIGKILL");
        // The engine starts its plugins (the provider host) in process groups of their own, so they outlive a kill
        // of its group, as a CI runner's kill of the whole job would not let them: end every process of this run.
        killTagged(tag);
      };
      await until(what, () => killWhen(killNow));
      killNow();
      await exited;
      // What a user does next: the killed engine left its lock behind.
      await cli.cancel();
    }

    const checkpoint = async (): Promise<Checkpoint> => JSON.parse(await s.stack.exportState()) as Checkpoint;

    test("before anything is ordered: the next up orders exactly one VPS; destroy cancels it", async () => {
      // The provider's calls pass through a loopback proxy that kills the engine when the order request starts
      // and never forwards it: the engine dies with the order in flight but not placed.
      let kill = (): void => undefined;
      const proxy = await killingProxy(new URL(s.emulator.baseUrl), "POST /r/orders/new-vps", () => kill());
      try {
        await s.stack.setConfig("rimuhosting:baseUrl", `${proxy.url}/r`);
        await upKilledWhen("the order request", (killNow) => {
          kill = killNow;
          return proxy.matched();
        });
      } finally {
        proxy.close();
      }
      expect(s.emulator.snapshot()).toEqual([]);
      await s.stack.setConfig("rimuhosting:baseUrl", s.emulator.baseUrl);

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

/**
 * A loopback TCP proxy to `target` that, when a request starting with `requestLine` passes, calls `onMatch` (before
 * anything of that request is forwarded) and cuts both connections.
 */
async function killingProxy(
  target: URL,
  requestLine: string,
  onMatch: () => void,
): Promise<{ url: string; matched(): boolean; close(): void }> {
  let matched = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let recent = "";
    client.on("data", (chunk: Buffer) => {
      recent = (recent + chunk.toString("latin1")).slice(-4096);
      if (recent.includes(requestLine)) {
        matched = true;
        onMatch();
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    matched: () => matched,
    close: () => {
      for (const sock of sockets) sock.destroy();
      server.close();
    },
  };
}

/** SIGKILLs every process whose environment carries E2E_KILL_TAG=<tag> (Linux: read from /proc). */
function killTagged(tag: string): void {
  const marker = `E2E_KILL_TAG=${tag}`;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker))
        process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone already, or not ours to read
    }
  }
}
