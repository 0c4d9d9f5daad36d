// After any kill, nothing billed in no state (issue 80, cases 2 and 3; provider/impl/ownership/), through the real CLI.
// A 10-VPS `up` killed (SIGKILL, every process of the run) once 3 orders exist, or before the first VPS reached the
// state (every order's answer held by the emulator), on both front ends, with and without checkpoints; then
// `pulumi cancel` (after removing the empty sidecar a kill while saving leaves, as docs/troubleshooting.md says:
// torn-save.ts) and `pulumi destroy`: no order of the stack is left billed, the destroy alone once a VPS is in the
// state, with `killed-orders --yes` (the plugin's command, or the npm package's) when none is: the engine's destroy
// never starts the provider then (docs/troubleshooting.md, "What it cannot do"). And two explicit providers of one
// account under PULUMI_SKIP_CHECKPOINTS=true, one VPS removed and one added in one `up`: the new VPS stays billed and
// in the state (the removed VPS's delete used to cancel it as a killed run's).
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { EXAMPLES_DIR, type Scenario } from "./e2e-support";
import { runKilled } from "./kill-run";
import { killedOrders } from "./killed-orders-run";
import { cancelAfterKill, TORN_SAVE_ERROR } from "./torn-save";
import {
  PLUGIN_VERSION,
  describeNative,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { createStackDriver } from "./stack-driver";

jest.setTimeout(900_000);

const COUNT = 10;

/** `count` VPSs, named after the stack. */
const fleet = (count: number) =>
  `resources:\n` +
  Array.from(
    { length: count },
    (_, i) => `  node-${i}:
    type: rimuhosting:index:Vps
    properties:
      domainName: node${i}.\${pulumi.stack}.killed.example.com
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
`,
  ).join("");

/** Two explicit providers of the demo account; `old` on the first, or `new` on the second. */
const twoProviders = (vps: "old" | "new") => `config:
  emulatorUrl:
    type: string
resources:
  first:
    type: pulumi:providers:rimuhosting
    properties:
      baseUrl: \${emulatorUrl}
  second:
    type: pulumi:providers:rimuhosting
    properties:
      baseUrl: \${emulatorUrl}
  ${vps}:
    type: rimuhosting:index:Vps
    properties:
      domainName: ${vps}.providers.example.com
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
    options:
      provider: \${${vps === "old" ? "first" : "second"}}
`;

describeNative("yaml", "after a kill, up or destroy leaves nothing billed in no state", () => {
  let s: Scenario;
  let yamlDir = "";
  beforeAll(async () => {
    yamlDir = writeYamlProgram("killed-destroy", fleet(COUNT), { version: PLUGIN_VERSION });
    s = await startNativeScenario(yamlDir);
  });
  afterAll(async () => s?.close());

  /** The demo account's active orders, from the emulator's own records. */
  const active = () =>
    s.emulator
      .snapshot()
      .filter((o) => o.account === "demo" && !o.cancelled)
      .map((o) => o.orderOid);

  /**
   * A file backend of its own for each case: a run killed while saving can leave the backend unreadable until it is
   * repaired (torn-save.ts), and no case's kill should decide another case's fate.
   */
  let backends = 0;
  const newBackend = (): string => {
    const dir = path.join(s.workDir, `backend-${++backends}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  /** How many VPSs the stack's file in the backend holds now (a run with checkpoints writes it at each step). */
  const vpssInState = (backend: string, stack: string): number => {
    const root = path.join(backend, ".pulumi", "stacks");
    const file = (fs.readdirSync(root, { recursive: true }) as string[]).find((f) =>
      f.endsWith(`${stack}.json`),
    );
    if (file === undefined) return 0;
    try {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      return (text.match(/"orderOid":/g) ?? []).length;
    } catch {
      return 0; // being rewritten
    }
  };

  /**
   * Killed once 3 orders exist and a VPS is in a state: `destroy` cancels the killed run's orders itself (the pending
   * creates of the state carry their nonces; without checkpoints, the run record the provider wrote before its first order, unfinished in the stack's history).
   * Killed before any VPS reached the state: the engine's `destroy` never starts the provider (nothing of it to
   * delete), so it exits 0 and the orders stay billed; `killed-orders --yes` then cancels them by the same rule.
   */
  test.each([
    { front: "yaml", checkpoints: true, point: "3 orders and a VPS in the state" },
    { front: "dynamic", checkpoints: false, point: "3 orders and a VPS in the state" },
    { front: "yaml", checkpoints: false, point: "before the first VPS reached the state" },
    { front: "dynamic", checkpoints: true, point: "before the first VPS reached the state" },
    { front: "yaml", checkpoints: true, point: "before the first VPS reached the state" },
    { front: "dynamic", checkpoints: false, point: "before the first VPS reached the state" },
  ] as const)(
    "$front, checkpoints $checkpoints: up killed at $point, then cancel and destroy: 0 billed",
    async ({ front, checkpoints, point }) => {
      const backend = newBackend();
      const stack = await createStackDriver({
        programDir: front === "yaml" ? yamlDir : path.join(EXAMPLES_DIR, "fleet"),
        stackName: `kd-${front}`,
        workDir: s.workDir,
        backendUrl: `file://${backend}`,
        env: { [ENV_VARS.apiKey]: DEMO_API_KEY, ...(checkpoints ? {} : { PULUMI_SKIP_CHECKPOINTS: "true" }) },
        config: {
          "rimuhosting:baseUrl": s.emulator.baseUrl,
          ...(front === "dynamic" ? { count: String(COUNT), stopped: "-1" } : {}),
        },
      });
      const before = active();
      const placed = () => active().filter((oid) => !before.includes(oid));
      const first = point === "before the first VPS reached the state";
      try {
        // Without checkpoints no state is written during the run: a VPS is in the state from an earlier `up`.
        if (!first && !checkpoints) {
          await stack.setConfig("count", "1");
          await pulumiText(stack.cli, "up", "--yes", "--skip-preview");
          await stack.setConfig("count", String(COUNT));
        }
        // Every order committed, its answer held: no VPS reaches the state before the kill.
        if (first)
          s.emulator.injectFault({
            route: "createVps",
            kind: "delay-after-commit",
            delayMs: 120_000,
            times: COUNT,
          });
        // While the `up` still runs, its new orders are in no state, like a killed run's: killed-orders refuses.
        let whileRunning: { code: number; text: string } | undefined;
        let placedWhileRunning: number[] = [];
        // Killed while saving, the run can leave an empty sidecar that no command of the backend reads past:
        // runKilled's `pulumi cancel` removes it as docs/troubleshooting.md says, and everything below still holds.
        const torn = await runKilled(stack.cli, "up", point, async () => {
          if (!(placed().length >= (first ? 1 : 3))) return false;
          if (!first) return !checkpoints || vpssInState(backend, stack.cli.name) > 0;
          if (checkpoints && whileRunning === undefined) {
            placedWhileRunning = placed();
            whileRunning = await killedOrders(stack.cli, front);
          }
          return true;
        });
        s.emulator.app.emulator.faults.clear();
        expect(placed().length).toBeGreaterThan(0);
        if (whileRunning !== undefined) {
          expect(whileRunning).toMatchObject({ code: 2, text: expect.stringContaining("is locked") });
          expect(placed()).toEqual(expect.arrayContaining(placedWhileRunning));
        }
        // Removes the killed run's lock (it fails, and the next command says why, when the kill came before it).
        await pulumiText(stack.cli, "cancel", "--yes").catch(() => undefined);
        const killed = placed();
        const destroyed = await pulumiText(stack.cli, "destroy", "--yes", "--skip-preview");
        if (first) {
          // The engine's destroy never reached the provider: every order is left; with checkpoints on, its warning
          // names each create it was interrupted in.
          expect(placed()).toEqual(killed);
          if (checkpoints) expect(destroyed).toContain("interrupted while creating");
          const swept = await killedOrders(stack.cli, front);
          // With checkpoints on, the proof is the engine's own record, kept in the destroyed stack's state.
          const proof = checkpoints
            ? "a pending operation"
            : "this stack's backend records the run that placed it, which kept no checkpoints and never finished";
          expect(swept.code).toBe(0);
          expect(swept.text.split(": cancelled. A killed run").length - 1).toBe(killed.length);
          expect(swept.text).toContain(proof);
        }
        expect(placed()).toEqual([]);
        if (torn.length > 0)
          process.stderr.write(`recovered from a torn save (${torn.join(", ")}): 0 billed\n`);
      } finally {
        await stack.close();
      }
    },
  );

  /**
   * The YAML stack on a backend of its own, and `tear`: empties one of the stack's sidecars (`.json.attrs`, the
   * checkpoint's; `.pulumi-tags.attrs`, the tags') as a kill between fileblob's os.Create and its write leaves it
   * (torn-save.ts), returning its path in the backend.
   */
  async function stackToTear(stackName: string) {
    const backend = newBackend();
    const stack = await createStackDriver({
      programDir: yamlDir,
      stackName,
      workDir: s.workDir,
      backendUrl: `file://${backend}`,
      env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
      config: { "rimuhosting:baseUrl": s.emulator.baseUrl },
    });
    const tear = (suffix: ".json.attrs" | ".pulumi-tags.attrs") => {
      const sidecar = path.join(".pulumi", "stacks", "killed-destroy", `${stack.cli.name}${suffix}`);
      fs.writeFileSync(path.join(backend, sidecar), "");
      return sidecar;
    };
    return { stack, tear };
  }

  test("a save torn by a kill (the checkpoint's sidecar emptied): cancel fails with EOF, then recovers", async () => {
    const { stack, tear } = await stackToTear("kd-torn");
    try {
      const sidecar = tear(".json.attrs");
      await expect(stack.cli.cancel()).rejects.toThrow(TORN_SAVE_ERROR);
      expect(await killedOrders(stack.cli, "yaml")).toMatchObject({
        code: 2,
        text: expect.stringMatching(/EOF/),
      });
      await expect(cancelAfterKill(stack.cli)).resolves.toEqual([sidecar]);
      expect(await killedOrders(stack.cli, "yaml")).toMatchObject({ code: 0 });
      expect(await stack.cli.command("stack", "ls", "--all")).toContain(stack.cli.name);
      expect(JSON.parse(await stack.exportState())).toMatchObject({ version: 3 });
    } finally {
      await stack.close();
    }
  });

  test("the stack's tags torn by a kill: up fails with EOF; after the repair its tags read again", async () => {
    const { stack, tear } = await stackToTear("kd-torn-tags");
    try {
      // The provider writes run records as stack tags during a run; a kill in that write empties the tags' sidecar.
      await stack.cli.command("stack", "tag", "set", "probe", "1");
      const sidecar = tear(".pulumi-tags.attrs");
      await expect(stack.cli.command("up", "--yes", "--skip-preview")).rejects.toThrow(TORN_SAVE_ERROR);
      // The provider's own reads of the tags (`pulumi stack tag ls` prints null) name the tear and its repair.
      expect(await killedOrders(stack.cli, "yaml", ["--identity"])).toMatchObject({
        code: 2,
        text: expect.stringMatching(
          /printed null: the stack's tags file was torn by a killed run.*-empty -delete/,
        ),
      });
      await expect(cancelAfterKill(stack.cli)).resolves.toEqual([sidecar]);
      expect(JSON.parse(await stack.cli.command("stack", "tag", "ls", "--json"))).toMatchObject({
        probe: "1",
      });
    } finally {
      await stack.close();
    }
  });

  test("PULUMI_SKIP_CHECKPOINTS, two explicit providers, one VPS removed and one added: the new one stays", async () => {
    const dir = writeYamlProgram("two-providers", twoProviders("old"), { version: PLUGIN_VERSION });
    const stack = await createStackDriver({
      programDir: dir,
      workDir: s.workDir,
      backendUrl: `file://${newBackend()}`,
      env: { [ENV_VARS.apiKey]: DEMO_API_KEY, PULUMI_SKIP_CHECKPOINTS: "true" },
      config: { emulatorUrl: s.emulator.baseUrl },
    });
    const before = active();
    try {
      await pulumiText(stack.cli, "up", "--yes", "--skip-preview");
      const program = path.join(dir, "Pulumi.yaml");
      fs.writeFileSync(
        program,
        fs.readFileSync(program, "utf8").replace(twoProviders("old"), twoProviders("new")),
      );
      await pulumiText(stack.cli, "up", "--yes", "--skip-preview");
      const state = JSON.parse(await stack.exportState()) as {
        deployment: { resources?: { outputs?: { orderOid?: number; domainName?: string } }[] };
      };
      const held = (state.deployment.resources ?? []).flatMap((r) =>
        typeof r.outputs?.orderOid === "number" ? [r.outputs.orderOid] : [],
      );
      const left = active().filter((oid) => !before.includes(oid));
      expect(left).toHaveLength(1);
      expect(held).toEqual(left);
      await pulumiText(stack.cli, "destroy", "--yes", "--skip-preview");
      expect(active().filter((oid) => !before.includes(oid))).toEqual([]);
    } finally {
      await stack.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
