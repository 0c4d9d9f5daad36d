// Two explicit providers, one per RimuHosting account (the emulator's alice and bob), in one YAML program on the
// native plugin: each VPS is ordered, resized and cancelled in its own account, each data source reads its
// provider's account, and neither account's API key is in the state or the output in plaintext. (The engine runs
// one plugin process per provider, so each process holds one account: docs/native-plugin.md.)
import { DEMO_ACCOUNTS } from "../../emulator/index";
import { liveOrders, type Scenario } from "./e2e-support";
import {
  describeNative,
  nativeOps,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(300_000);

const alice = DEMO_ACCOUNTS.find((a) => a.name === "alice")!;
const bob = DEMO_ACCOUNTS.find((a) => a.name === "bob")!;

const PROGRAM = `config:
  aliceKey:
    type: string
  bobKey:
    type: string
  emulatorUrl:
    type: string
  aliceMemoryMb:
    type: integer
    default: 1024
resources:
  alice:
    type: pulumi:providers:rimuhosting
    properties:
      apiKey: \${aliceKey}
      baseUrl: \${emulatorUrl}
  bob:
    type: pulumi:providers:rimuhosting
    properties:
      apiKey: \${bobKey}
      baseUrl: \${emulatorUrl}
  alicesVps:
    type: rimuhosting:Vps
    properties:
      domainName: alice.example.com
      dcLocation: DCDALLAS
      memoryMb: \${aliceMemoryMb}
    options:
      provider: \${alice}
  bobsVps:
    type: rimuhosting:Vps
    properties:
      domainName: bob.example.com
      dcLocation: DCLONDON
    options:
      provider: \${bob}
variables:
  alicesBilling:
    fn::invoke:
      function: rimuhosting:getBillingMethods
      options:
        provider: \${alice}
outputs:
  aliceOrder: \${alicesVps.orderOid}
  bobOrder: \${bobsVps.orderOid}
  aliceFirstBillingMethod: \${alicesBilling.billingMethods[0].description}
`;

const ordersOf = (s: Scenario, account: string) =>
  liveOrders({
    snapshot: () =>
      s.emulator.snapshot().map((o) => ({ ...o, account: o.account === account ? "demo" : "" })),
  });

describeNative("yaml", "two explicit providers for two accounts", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("native-providers", PROGRAM));
    // Quoted: a YAML program reads a config value made only of digits (as API keys are) as a number.
    await s.stack.setConfigs({
      aliceKey: { value: `"${alice.apiKey}"`, secret: true },
      bobKey: { value: `"${bob.apiKey}"`, secret: true },
      emulatorUrl: s.emulator.baseUrl,
    });
  });
  afterAll(async () => s?.close());

  test("each VPS is ordered, resized and cancelled in its provider's account", async () => {
    const up = await s.stack.up();
    expect(nativeOps(up)).toEqual({ alicesVps: "create", bobsVps: "create" });
    expect(ordersOf(s, "alice").map((o) => o.orderOid)).toEqual([up.outputs.aliceOrder]);
    expect(ordersOf(s, "bob").map((o) => o.orderOid)).toEqual([up.outputs.bobOrder]);
    expect(ordersOf(s, "demo")).toEqual([]);
    // The data source ran with alice's key: alice's billing methods, not the default account's.
    expect(up.outputs.aliceFirstBillingMethod).toMatch(/^Mastercard/);

    await s.stack.setConfig("aliceMemoryMb", { value: "2048" });
    expect(nativeOps(await s.stack.up())).toEqual({ alicesVps: "update", bobsVps: "same" });
    expect(ordersOf(s, "alice").map((o) => o.orderOid)).toEqual([up.outputs.aliceOrder]);

    const state = await s.stack.exportState();
    const shown = await pulumiText(s.stack.cli!, "stack", "output");
    for (const key of [alice.apiKey, bob.apiKey]) {
      expect(state).not.toContain(key);
      expect(shown).not.toContain(key);
    }

    expect(nativeOps(await s.stack.destroy())).toEqual({ alicesVps: "delete", bobsVps: "delete" });
    expect(ordersOf(s, "alice")).toEqual([]);
    expect(ordersOf(s, "bob")).toEqual([]);
  });
});
