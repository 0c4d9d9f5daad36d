// A host server from the stack's config in a YAML program (issue 65, item 5), through the real CLI against the
// emulator: `pulumi config set host 764` stores digits, which YAML reads as the number 764, and `hostServerOid:
// ${host}` hands the plugin that number. It previews and creates as the literal "764" does, on that host. The rule
// itself, in-process: test/provider/impl/vps-inputs.test.ts.
import type { Scenario } from "./e2e-support";
import {
  describeNative,
  nativeOps,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(300_000);

const PROGRAM = `resources:
  web:
    type: rimuhosting:Vps
    properties:
      domainName: host-config.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      hostServerOid: \${host}
outputs:
  orderOid: \${web.orderOid}
`;

describeNative("yaml", "hostServerOid from a config value of digits, native Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("host-config", PROGRAM));
  });
  afterAll(async () => s?.close());

  test("`pulumi config set host 764`, then up: previews and creates on host 764", async () => {
    const cli = s.stack.cli!;
    await pulumiText(cli, "config", "set", "host", "764");
    // `pulumi up` previews first, then creates: one CLI run for both.
    const created = await s.stack.up();
    expect(nativeOps(created)).toEqual({ web: "create" });
    const order = await s.client.getOrder(created.outputs.orderOid as number);
    expect(String(order.about_order.host_server_oid)).toBe("764");
  });
});
