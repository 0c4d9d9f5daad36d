// Two API keys on one account (issue 92, item 7; provider/impl/account/command-orders.ts), through the real CLI: two
// explicit providers of one `pulumi up` reach the emulator's `demo` account with its two keys, under
// PULUMI_SKIP_CHECKPOINTS=true. The first provider's VPS is removed and the second's added in one `up`, the first
// provider registered only once the new VPS is created (dependsOn), so its process starts after the new order was
// placed. The removed VPS's delete sweeps the stack's orders in no state: the new order is in none yet (no
// checkpoints), and its run's record reads "no checkpoints, never finished", as a killed run's does. Only "ordered by
// this command" tells it apart, and the providers note their orders under two keys: the sweep must still know it.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY, DEMO_SECOND_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import type { Scenario } from "./e2e-support";
import {
  PLUGIN_VERSION,
  describeNative,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { yamlVps } from "./positive-proof-scenarios";
import { createStackDriver } from "./stack-driver";

jest.setTimeout(600_000);

/** Two explicit providers of the demo account, each with its own key; `old` on the first, or `new` on the second. */
const twoKeys = (vps: "old" | "new") => `config:
  emulatorUrl:
    type: string
  firstKey:
    type: string
  secondKey:
    type: string
resources:
  first:
    type: pulumi:providers:rimuhosting
    properties:
      baseUrl: \${emulatorUrl}
      apiKey: \${firstKey}
${vps === "new" ? "    options:\n      dependsOn:\n        - ${new}\n" : ""}  second:
    type: pulumi:providers:rimuhosting
    properties:
      baseUrl: \${emulatorUrl}
      apiKey: \${secondKey}
${yamlVps(vps, `${vps}.two-keys.example.com`, "DCDALLAS", `      provider: \${${vps === "old" ? "first" : "second"}}\n`)}`;

describeNative("yaml", "two API keys on one account, without checkpoints", () => {
  let s: Scenario;
  let dir = "";
  beforeAll(async () => {
    dir = writeYamlProgram("two-keys", twoKeys("old"), { version: PLUGIN_VERSION });
    s = await startNativeScenario(dir);
  });
  afterAll(async () => s?.close());

  /** The demo account's active orders of this test, from the emulator's own records. */
  const active = () =>
    s.emulator
      .snapshot()
      .filter((o) => o.account === "demo" && !o.cancelled && o.domainName.endsWith(".two-keys.example.com"));

  test("one VPS removed (first key) and one added (second key) in one `up`: the new one stays billed", async () => {
    const backend = path.join(s.workDir, "two-keys-backend");
    fs.mkdirSync(backend, { recursive: true });
    const stack = await createStackDriver({
      programDir: dir,
      workDir: s.workDir,
      backendUrl: `file://${backend}`,
      env: { [ENV_VARS.apiKey]: DEMO_API_KEY, PULUMI_SKIP_CHECKPOINTS: "true" },
      config: { emulatorUrl: s.emulator.baseUrl },
    });
    try {
      // Quoted: a YAML program reads a config value made only of digits (as API keys are) as a number.
      await stack.cli.setConfig("firstKey", { value: `"${DEMO_API_KEY}"`, secret: true });
      await stack.cli.setConfig("secondKey", { value: `"${DEMO_SECOND_API_KEY}"`, secret: true });
      await pulumiText(stack.cli, "up", "--yes", "--skip-preview");
      const [old] = active();
      expect(old?.domainName).toBe("old.two-keys.example.com");
      const program = path.join(dir, "Pulumi.yaml");
      fs.writeFileSync(program, fs.readFileSync(program, "utf8").replace(twoKeys("old"), twoKeys("new")));
      const said = await pulumiText(stack.cli, "up", "--yes", "--skip-preview");
      // The old VPS's delete cancelled it; the new order, the sibling provider's, is neither cancelled nor named.
      const left = active();
      expect(left.map((o) => o.domainName)).toEqual(["new.two-keys.example.com"]);
      expect(said).not.toContain(`order ${left[0]!.orderOid} (`);
      const state = JSON.parse(await stack.exportState()) as {
        deployment: { resources?: { outputs?: { orderOid?: number } }[] };
      };
      const held = (state.deployment.resources ?? []).flatMap((r) =>
        typeof r.outputs?.orderOid === "number" ? [r.outputs.orderOid] : [],
      );
      expect(held).toEqual([left[0]!.orderOid]);
      await pulumiText(stack.cli, "destroy", "--yes", "--skip-preview");
      expect(active()).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});
