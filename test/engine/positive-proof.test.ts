// Ownership by positive proof (issue 92) through the real CLI on a file backend: positive-proof-scenarios.ts's cases,
// and a copied backend. A file backend copied to a second place at the same path (a CI cache of ~/.pulumi restored,
// a backup) has the same tag, salt and URL, so the same stack identity: the original's later orders carry the copy's
// mark and are in none of the copy's states. The copy's `pulumi destroy` must leave them billed: only the run records
// the original wrote after the copy (provider/impl/ownership/run-records.ts) would prove them, and the copy has none.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { EXAMPLES_DIR } from "./e2e-support";
import { describeCliOnly } from "./describe-cli";
import { PLUGIN_VERSION, pluginEntry, pulumiText } from "./native-programs";
import { positiveProofScenarios, yamlVps } from "./positive-proof-scenarios";

jest.setTimeout(900_000);

describeCliOnly("ownership by positive proof on a file backend", () => {
  positiveProofScenarios("file");
});

describeCliOnly("a copied file backend's destroy", () => {
  let emulator: TestEmulator;
  let scratch: string;
  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "copied-backend-"));
  });
  afterAll(async () => {
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  const active = () => emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

  test.each(["yaml", "dynamic"] as const)(
    "%s: the copy's destroy cancels its own VPS and leaves the original's later VPS billed",
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
