// Ownership by positive proof (issue 92) through the real CLI on a file backend: positive-proof-scenarios.ts's cases,
// and a copied backend. A file backend copied to a second place at the same path (a CI cache of ~/.pulumi restored,
// a backup) has the same tag, salt and URL, so the same stack identity: the original's later orders carry the copy's
// mark and are in none of the copy's states. The copy's `pulumi destroy` must leave them billed, and its `up` must not
// take them back: only the run records the original wrote after the copy (provider/impl/ownership/run-records.ts)
// would prove them, and the copy has none.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { createClient, type RimuClient } from "../../provider/client/index";
import { STACK_IDENTITY_KEY } from "../../provider/client/metadata-keys";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { EXAMPLES_DIR } from "./e2e-support";
import { describeCliOnly } from "./describe-cli";
import { runKilled } from "./kill-run";
import { killedOrders } from "./killed-orders-run";
import { PLUGIN_VERSION, pluginEntry, pulumiFailure, pulumiText } from "./native-programs";
import { positiveProofScenarios, yamlVps } from "./positive-proof-scenarios";

jest.setTimeout(900_000);

/** How long the emulator holds a new order's answer back: the run is killed well within it. */
const HOLD_MS = 120_000;

/**
 * `killed-orders --identity` for `stack`, run from another copy of its project in `dir`: its Pulumi.yaml, and a
 * settings file of another salt (a colleague's checkout; the provider once hashed it into the mark).
 */
async function identityFromAnotherCopy(stack: CliStack, front: "yaml" | "dynamic", dir: string) {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(stack.programDir, "Pulumi.yaml"), path.join(dir, "Pulumi.yaml"));
  fs.writeFileSync(
    path.join(dir, `Pulumi.${stack.name}.yaml`),
    "encryptionsalt: v1:YW5vdGhlciBjb3B5:v1:another-copy-of-the-project\n",
  );
  const shown = await killedOrders(stack, front, ["--identity"], dir);
  expect(shown).toMatchObject({ code: 0, stdout: expect.stringMatching(/^id3-[0-9a-f]{32}\n$/) });
  return shown.stdout.trim();
}

/** The identity mark order `oid` carries, as RimuHosting lists it. */
async function markOn(client: RimuClient, oid: number): Promise<string | undefined> {
  const orders = (await client.listOrders({ includeInactive: false })).about_orders ?? [];
  return (
    orders.find((o) => o.order_oid === oid)?.meta_data?.find((m) => m.key_name === STACK_IDENTITY_KEY)
      ?.value ?? undefined
  );
}

describeCliOnly("ownership by positive proof on a file backend", () => {
  positiveProofScenarios("file");
});

describeCliOnly("a copied file backend's destroy", () => {
  let emulator: TestEmulator;
  let client: RimuClient;
  let scratch: string;
  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    client = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "copied-backend-"));
  });
  afterAll(async () => {
    client?.close();
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  const active = () => emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

  test.each(["yaml", "dynamic"] as const)(
    "%s: --identity from another copy of the project prints the orders' mark; the copy's destroy cancels its own VPS and leaves the original's later VPS billed",
    async (front) => {
      const backendDir = path.join(scratch, front, "backend");
      const yamlDir = path.join(scratch, front, "program");
      fs.mkdirSync(yamlDir, { recursive: true });
      const program = (resources: string) =>
        fs.writeFileSync(
          path.join(yamlDir, "Pulumi.yaml"),
          `name: copied\nruntime: yaml\n${pluginEntry(PLUGIN_VERSION)}resources:\n${resources}`,
        );
      program(yamlVps("first", "first.copied.example.com"));
      const stack = await CliStack.create({
        programDir: front === "yaml" ? yamlDir : path.join(EXAMPLES_DIR, "fleet"),
        stackName: `copied-${front}`,
        backendDir,
        env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
        config: {
          "rimuhosting:baseUrl": emulator.baseUrl,
          ...(front === "dynamic" ? { count: "1", stopped: "-1" } : {}),
        },
      });
      const before = active().map((o) => o.orderOid);
      const placed = () => active().filter((o) => !before.includes(o.orderOid));
      try {
        await pulumiText(stack, "up", "--yes", "--skip-preview");
        const [first] = placed();
        expect(first).toBeDefined();
        const mark = await identityFromAnotherCopy(stack, front, path.join(scratch, front, "another-copy"));
        expect(await markOn(client, first!.orderOid)).toBe(mark);
        // The copy: the whole backend directory, as a CI cache or a backup holds it.
        const copy = path.join(scratch, front, "copy");
        fs.cpSync(backendDir, copy, { recursive: true });
        // The original goes on: a second VPS.
        if (front === "yaml")
          program(
            yamlVps("first", "first.copied.example.com") + yamlVps("second", "second.copied.example.com"),
          );
        else await stack.setConfig("count", { value: "2" });
        await pulumiText(stack, "up", "--yes", "--skip-preview");
        const second = placed().find((o) => o.orderOid !== first!.orderOid);
        expect(second).toBeDefined();
        // The copy restored at the same path (the same URL): its destroy.
        const original = path.join(scratch, front, "original");
        fs.renameSync(backendDir, original);
        fs.cpSync(copy, backendDir, { recursive: true });
        // The copy's preview of the same program: the original's second VPS carries this stack's identity and is in
        // none of the copy's states, but no record of the copy names its run, so it is not taken back (take-back.ts).
        const refused = await pulumiFailure(stack, "preview");
        expect(refused).toContain("RIMU_ERR_FOREIGN_ORDER");
        expect(refused).toContain(`order ${second!.orderOid} (`);
        expect(refused).toContain("no record of this stack's backend names its run");
        const said = await pulumiText(stack, "destroy", "--yes", "--skip-preview");
        expect(placed().map((o) => o.orderOid)).toEqual([second!.orderOid]);
        // Named once (the CLI shows each message live, then again under Diagnostics: counted there).
        const diagnostics = said.slice(said.indexOf("Diagnostics:"));
        expect(diagnostics.split(`order ${second!.orderOid} (`).length - 1).toBe(1);
        expect(said).not.toContain("RIMU_ERR_LEFT_BILLED");
        // The original's own destroy ends it.
        fs.rmSync(backendDir, { recursive: true, force: true });
        fs.renameSync(original, backendDir);
        await pulumiText(stack, "destroy", "--yes", "--skip-preview");
        expect(placed()).toEqual([]);
      } finally {
        stack.close();
      }
    },
  );
});

describeCliOnly("a replacement of the dynamic Vps killed between its order and the answer", () => {
  let emulator: TestEmulator;
  let scratch: string;
  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "killed-replacement-"));
  });
  afterAll(async () => {
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  const active = () => emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

  test.each([
    ["with checkpoints", "cp", {}],
    ["without checkpoints", "skip", { PULUMI_SKIP_CHECKPOINTS: "true" }],
  ] as const)("%s, then cancel and destroy: none billed", async (how, short, env) => {
    const stack = await CliStack.create({
      programDir: path.join(EXAMPLES_DIR, "fleet"),
      stackName: `replaced-${short}`,
      backendDir: path.join(scratch, short, "backend"),
      env: { ...env, [ENV_VARS.apiKey]: DEMO_API_KEY },
      config: {
        "rimuhosting:baseUrl": emulator.baseUrl,
        count: "1",
        stopped: "-1",
        dcLocations: "DCDALLAS",
      },
    });
    const before = active().map((o) => o.orderOid);
    const placed = () => active().filter((o) => !before.includes(o.orderOid));
    try {
      await pulumiText(stack, "up", "--yes", "--skip-preview");
      expect(placed()).toHaveLength(1);
      // A move to London replaces the VPS: its new order is committed, its answer held back, and the run killed.
      await stack.setConfig("dcLocations", { value: "DCLONDON" });
      emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: HOLD_MS });
      try {
        await runKilled(stack, "up", "the replacement's order to be committed", () => placed().length > 1);
      } finally {
        emulator.app.emulator.faults.clear();
      }
      const replacement = placed().find((o) => o.dc === "DCLONDON");
      expect(replacement).toBeDefined();
      await stack.cancel();
      const said = await pulumiText(stack, "destroy", "--yes", "--skip-preview");
      expect(said).toContain(`order ${replacement!.orderOid} (node0.fleet.example.com, $`);
      expect(said).toContain(
        how === "with checkpoints"
          ? "(a pending operation) carries its creation nonce"
          : "this stack's backend records the run that placed it, which kept no checkpoints and never finished",
      );
      expect(placed()).toEqual([]);
    } finally {
      stack.close();
    }
  });
});
