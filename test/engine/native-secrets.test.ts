// Secrets on the native path, through the real CLI: the API key, a root password, cloud-config and a file's content
// given as secret config to a YAML program, and the root password RimuHosting generates, never appear in plaintext in the state (`pulumi stack export`), in what
// the CLI prints for preview, up (the provider's messages included), a changed password's diff, the stack outputs,
// or destroy.
import { DEMO_API_KEY } from "../../emulator/index";
import type { Scenario } from "./e2e-support";
import { liveOrders } from "./e2e-support";
import { describeNative, pulumiText, startNativeScenario, writeYamlProgram } from "./native-programs";

jest.setTimeout(300_000);

const CANARIES = {
  rootPassword: "CANARY-native-root-4f1d",
  cloudConfig: "#cloud-config\n# CANARY-native-cloud-4f1d",
  fileContent: "CANARY-native-file-4f1d",
};

const PROGRAM = `config:
  rootPassword:
    type: string
  cloudConfig:
    type: string
  fileContent:
    type: string
resources:
  web:
    type: rimuhosting:Vps
    properties:
      domainName: secrets.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      password: \${rootPassword}
      cloudConfig: \${cloudConfig}
      files:
        - path: /root/canary
          content: \${fileContent}
      allowReinstall: true
  generated:
    type: rimuhosting:Vps
    properties:
      domainName: generated.example.com
      dcLocation: DCDALLAS
outputs:
  password: \${web.password}
`;

describeNative("yaml", "secrets on the native path", () => {
  let s: Scenario;
  beforeAll(async () => {
    // The passphrase, as a user's stack is keyed (not the harness's key service: stack-keys.ts).
    s = await startNativeScenario(writeYamlProgram("native-secrets", PROGRAM), { keys: "passphrase" });
    await s.stack.setConfigs(
      Object.fromEntries(Object.entries(CANARIES).map(([key, value]) => [key, { value, secret: true }])),
    );
  });
  afterAll(async () => s?.close());

  test("are encrypted in the state and absent from everything the CLI prints", async () => {
    const cli = s.stack.cli!;
    const printed: string[] = [];
    printed.push(await pulumiText(cli, "preview", "--diff"));
    printed.push(await pulumiText(cli, "up", "--yes", "--skip-preview"));
    expect(liveOrders(s.emulator)).toHaveLength(2);
    printed.push(await pulumiText(cli, "stack", "output"));
    await s.stack.setConfig("rootPassword", { value: `${CANARIES.rootPassword}-changed`, secret: true });
    const changed = await pulumiText(cli, "preview", "--diff");
    expect(changed).toMatch(/~ password\s*: \[secret\] => \[secret\]/);
    printed.push(changed);
    const state = await s.stack.exportState();
    printed.push(await pulumiText(cli, "destroy", "--yes", "--skip-preview"));
    expect(liveOrders(s.emulator)).toEqual([]);

    // The state holds each secret encrypted, the root password RimuHosting generated too (no input made it secret).
    expect(state).toMatch(/"ciphertext"/);
    const resources = (
      JSON.parse(state) as { deployment: { resources: { urn: string; outputs?: Record<string, unknown> }[] } }
    ).deployment.resources;
    const generated = resources.find((r) => r.urn.endsWith("::generated"))!;
    expect(generated.outputs!.password).toMatchObject({
      "4dabf18193072939515e22adb298388d": expect.any(String),
      ciphertext: expect.any(String),
    });
    for (const text of [state, ...printed]) {
      for (const canary of [...Object.values(CANARIES), "CANARY-native", DEMO_API_KEY])
        expect(text).not.toContain(canary);
    }
  });
});
