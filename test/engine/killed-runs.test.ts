// Killed runs taken back by the next `pulumi up` of each stack (docs/cost.md, I3 and I4; issue 64 case 3), through
// the real CLI on both front ends: five stacks of one account (the dynamic Vps of examples/fleet, and a YAML program
// on the native plugin) start `pulumi up` together with an account budget of two VPSs, and each is killed (SIGKILL,
// every process of its run) at one of three points: before its order, after the order and before its read-back
// (order-withdrawal.ts), after the read-back. Each stack's calls pass through a loopback proxy of its own, which
// finds the point in the requests themselves (never a fixed sleep). Then one `up` per stack, all together: the
// account ends within its budget, every active order is in exactly one stack's state, no `up` fails with
// RIMU_ERR_FOREIGN_ORDER (a refusal is the budget's), and refresh and destroy work on every stack.
// The "before the order" point of the native plugin is test/engine/native-engine-kill.test.ts's (one stack).
// Then `pulumi destroy` straight after a killed run (no `up` between), on both front ends: it cancels the killed run's
// order, which no state holds and no finished operation recorded, and names it; a VPS kept with retainOnDelete stays
// billed (provider/impl/ownership/stack-strays.ts, may-cancel.ts, run-records.ts).
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { EXAMPLES_DIR, VPS_TYPE, type Scenario } from "./e2e-support";
import { runKilled } from "./kill-run";
import {
  NATIVE_VPS_TYPE,
  PLUGIN_VERSION,
  describeNative,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { createStackDriver, type StackDriver } from "./stack-driver";

jest.setTimeout(900_000);

type KillPoint = "before the order" | "before the read-back" | "after the read-back";

/** Where a stack's run is killed, told by the requests its provider makes. */
interface KillProxy {
  url: string;
  killed(): boolean;
  /** Called at the kill point (set once the run is started). */
  onKill: () => void;
  /** From now on every request passes. */
  disarm(): void;
  close(): void;
}

const ORDER = "POST /r/orders/new-vps";
/** The account's listing (GET /orders, matrix parameters or none after it): after the order, the read-back's. */
const LISTING = /GET \/r\/orders[;? ]/;

/**
 * A loopback TCP proxy to the emulator that kills the run at `point`: at the order request, not forwarded; at the first
 * listing after the order (the read-back), not forwarded; or once the read-back's answer reached the provider.
 */
async function killProxy(target: URL, point: KillPoint): Promise<KillProxy> {
  let armed = true;
  let ordered = false;
  let killed = false;
  const sockets = new Set<net.Socket>();
  const proxy: KillProxy = {
    url: "",
    killed: () => killed,
    onKill: () => undefined,
    disarm: () => (armed = false),
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
  const kill = () => {
    killed = true;
    armed = false;
    proxy.onKill();
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let readBack = false;
    client.on("data", (chunk: Buffer) => {
      const text = chunk.toString("latin1");
      if (armed && text.includes(ORDER)) {
        ordered = true;
        if (point === "before the order") return kill();
      } else if (armed && ordered && LISTING.test(text)) {
        if (point === "before the read-back") return kill();
        readBack = true;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      client.write(chunk);
      if (armed && readBack) client.once("drain", kill).emit("drain");
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/r`;
  return proxy;
}

/** The demo account's active orders, from the emulator's own records. */
const activeOrders = (s: Scenario) =>
  s.emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

/** The order numbers each stack's state holds, read from the file backend's checkpoints in one pass. */
function ordersInStates(workDir: string): Map<string, number[]> {
  const root = path.join(workDir, "backend", ".pulumi", "stacks");
  const held = new Map<string, number[]>();
  for (const file of (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) =>
    f.endsWith(".json"),
  )) {
    const state = JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as {
      checkpoint?: { latest?: { resources?: { type: string; outputs?: { orderOid?: number } }[] } };
    };
    const oids = (state.checkpoint?.latest?.resources ?? [])
      .filter((r) => r.type === VPS_TYPE || r.type === NATIVE_VPS_TYPE)
      .flatMap((r) => (typeof r.outputs?.orderOid === "number" ? [r.outputs.orderOid] : []));
    held.set(file, oids);
  }
  return held;
}

/** One VPS, named after the stack. */
const YAML_PROGRAM = `resources:
  node-0:
    type: rimuhosting:index:Vps
    properties:
      domainName: node0.\${pulumi.stack}.killed.example.com
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
`;

/** Each stack: its front end and where its run is killed (every point on the dynamic Vps, two on the plugin). */
const STACKS: { front: "dynamic" | "yaml"; point: KillPoint }[] = [
  { front: "dynamic", point: "before the order" },
  { front: "dynamic", point: "before the read-back" },
  { front: "dynamic", point: "after the read-back" },
  { front: "yaml", point: "before the read-back" },
  { front: "yaml", point: "after the read-back" },
];

describeNative("yaml", "runs killed at three points, then one up per stack", () => {
  let s: Scenario;
  let yamlDir = "";
  beforeAll(async () => {
    // The plugin named with its version: the CLI caches its schema (native-programs.ts, CACHED_PLUGIN_ENTRY).
    yamlDir = writeYamlProgram("killed-runs", YAML_PROGRAM, { version: PLUGIN_VERSION });
    s = await startNativeScenario(yamlDir);
  });
  afterAll(async () => s?.close());

  test("5 stacks on both front ends: within the budget, no order outside every state, none stranded", async () => {
    // The fee of one VPS, from an order placed and cancelled by hand.
    const probe = await s.client.createVps({
      instantiation_options: { domain_name: "probe.example.com", distro: "deb12.64" },
      vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
      dc_location: "DCDALLAS",
      pricing_plan_code: "MIRO1B",
    });
    const fee = activeOrders(s)[0]!.monthlyFeeUsd;
    await s.client.deleteVps({ orderOid: probe.about_order.order_oid, domainName: "probe.example.com" });
    const budgetCents = Math.round(2 * fee * 100);
    const stacks: { stack: StackDriver; proxy: KillProxy; point: KillPoint }[] = [];
    try {
      for (const [i, { front, point }] of STACKS.entries()) {
        const proxy = await killProxy(new URL(s.emulator.baseUrl), point);
        const stack = await createStackDriver({
          programDir: front === "dynamic" ? path.join(EXAMPLES_DIR, "fleet") : yamlDir,
          stackName: `killed-${i}`,
          workDir: s.workDir,
          env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
          config: {
            "rimuhosting:baseUrl": proxy.url,
            "rimuhosting:monthlyBudgetUsd": (budgetCents / 100).toFixed(2),
            ...(front === "dynamic" ? { count: "1", stopped: "-1" } : {}),
          },
        });
        stacks.push({ stack, proxy, point });
      }
      // Every run started together, each killed at its point. Each order is held 20 s before RimuHosting takes it (the
      // dynamic Vps's runs start seconds after the YAML ones'), so every run judges its order on an account without
      // the others': four orders of a budget of two, as in two stacks ordering at once (issue 64 case 3).
      s.emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 20_000, times: 4 });
      await Promise.all(
        stacks.map(({ stack, proxy, point }) =>
          runKilled(stack.cli, "up", point, (killNow) => {
            proxy.onKill = killNow;
            return proxy.killed();
          }),
        ),
      );
      for (const { proxy } of stacks) proxy.disarm();
      s.emulator.app.emulator.faults.clear();
      const leftByKills = activeOrders(s).length;

      // One `up` per stack, together: each takes back its own order, as the rule after an order judges it.
      const ups = await Promise.allSettled(stacks.map(({ stack }) => pulumiText(stack.cli, "up", "--yes")));
      const refusals = ups.flatMap((up) => (up.status === "rejected" ? [String(up.reason)] : []));
      for (const text of refusals) {
        expect(text).not.toContain("RIMU_ERR_FOREIGN_ORDER");
        expect(text).toContain("RIMU_ERR_BUDGET");
      }
      const active = activeOrders(s);
      const cents = active.reduce((sum, o) => sum + Math.round(o.monthlyFeeUsd * 100), 0);
      expect(cents).toBeLessThanOrEqual(budgetCents);
      const held = [...ordersInStates(s.workDir).values()].flat();
      expect(active.map((o) => o.orderOid).sort()).toEqual([...held].sort());
      expect(new Set(held).size).toBe(held.length);
      // What the kills left: more orders than the budget holds (the runs killed before their read-back withdrew
      // nothing), each then taken back by its stack or withdrawn by it, never left outside every state.
      expect(leftByKills).toBeGreaterThan(2);

      // No stack stranded: refresh (dropping the killed runs' pending creates, as the CLI asks) and destroy work.
      await Promise.all(
        stacks.map(async ({ stack }) => {
          await stack.cli.refresh({ clearPendingCreates: true });
          await pulumiText(stack.cli, "destroy", "--yes");
        }),
      );
      expect(activeOrders(s)).toEqual([]);
    } finally {
      for (const { stack, proxy } of stacks) {
        proxy.close();
        await stack.close();
      }
    }
  });

  /**
   * One VPS recorded by an `up` (and, on YAML, `mail`, kept with retainOnDelete as docs/resource-options.md's recipe
   * does), then an `up` that adds node-1, killed after node-1's order and before its read-back, then `pulumi destroy`
   * at once: the killed run's order is cancelled and named; the retained VPS, which leaves the state in the same
   * destroy and carries the same stack token, stays billed (an earlier `up` recorded it).
   */
  test.each(["yaml", "dynamic"] as const)(
    "%s: destroy right after a killed run cancels the order it left in no state, names it, keeps the retained VPS",
    async (front) => {
      const stackName = `killed-destroy-${front}`;
      const mail = YAML_PROGRAM.replace("resources:\n", "")
        .replaceAll("node-0", "mail")
        .replace("node0", "mail")
        .concat("    options:\n      retainOnDelete: true\n");
      const node1 = YAML_PROGRAM.replace("resources:\n", "")
        .replaceAll("node-0", "node-1")
        .replace("node0", "node1");
      const program = path.join(yamlDir, "Pulumi.yaml");
      const oneVps = fs.readFileSync(program, "utf8");
      if (front === "yaml") fs.writeFileSync(program, oneVps + mail);
      const stack = await createStackDriver({
        programDir: front === "dynamic" ? path.join(EXAMPLES_DIR, "fleet") : yamlDir,
        stackName,
        workDir: s.workDir,
        env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
        // A budget, so that a new order is read back (order-withdrawal.ts): the run is killed before that read.
        config: {
          "rimuhosting:baseUrl": s.emulator.baseUrl,
          "rimuhosting:monthlyBudgetUsd": "1000",
          ...(front === "dynamic" ? { count: "1", stopped: "-1" } : {}),
        },
      });
      const proxy = await killProxy(new URL(s.emulator.baseUrl), "before the read-back");
      try {
        const before = activeOrders(s).map((o) => o.orderOid);
        await pulumiText(stack.cli, "up", "--yes", "--skip-preview");
        const recorded = activeOrders(s).filter((o) => !before.includes(o.orderOid));
        const retained = recorded.filter((o) => o.domainName.startsWith("mail."));
        expect(retained).toHaveLength(front === "yaml" ? 1 : 0);
        // The program gains node-1; its `up` is killed after node-1's order, before its read-back.
        if (front === "yaml") fs.writeFileSync(program, oneVps + mail + node1);
        else await stack.setConfig("count", "2");
        await stack.setConfig("rimuhosting:baseUrl", proxy.url);
        await runKilled(stack.cli, "up", "before the read-back", (killNow) => {
          proxy.onKill = killNow;
          return proxy.killed();
        });
        const known = [...before, ...recorded.map((o) => o.orderOid)];
        const stray = activeOrders(s).filter((o) => !known.includes(o.orderOid));
        expect(stray.map((o) => o.domainName)).toEqual([
          front === "yaml" ? `node1.${stack.cli.name}.killed.example.com` : "node1.fleet.example.com",
        ]);
        await stack.setConfig("rimuhosting:baseUrl", s.emulator.baseUrl);
        const said = await pulumiText(stack.cli, "destroy", "--yes", "--skip-preview");
        expect(said).toContain(`order ${stray[0]!.orderOid} (${stray[0]!.domainName}, $`);
        expect(said).toContain("cancelled. A killed run of this stack ordered it");
        // Left billed: only the retained VPS, which no state holds now (the destroy dropped it).
        const left = activeOrders(s).filter((o) => !before.includes(o.orderOid));
        expect(left.map((o) => o.orderOid)).toEqual(retained.map((o) => o.orderOid));
      } finally {
        fs.writeFileSync(program, oneVps);
        for (const order of activeOrders(s).filter((o) => o.domainName.startsWith("mail.")))
          await s.client.deleteVps({ orderOid: order.orderOid, domainName: order.domainName });
        proxy.close();
        await stack.close();
      }
    },
  );
});
