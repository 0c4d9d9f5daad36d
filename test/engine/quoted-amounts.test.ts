// docs/cost.md's advice to a YAML user, through the real CLI on the native plugin (issue 82): quote a budget amount
// (`monthlyBudgetUsd: "50"`) to have it read as written, not by YAML's rules (`0x10` is 16 to YAML). The YAML host
// refused every quoted amount while the schema typed the setting as a number only (`Cannot assign type 'string' to
// type 'number'`); and an amount with spaces around it was read as the amount without a word, from an explicit
// provider's argument and from the stack config alike. Each preview here is refused before anything is ordered.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import type { Scenario } from "./e2e-support";
import {
  CACHED_PLUGIN_ENTRY,
  describeNative,
  PLUGIN_VERSION,
  pulumiFailure,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(300_000);

/** One VPS on an explicit provider whose monthlyBudgetUsd is `amount`, written into the program as it stands. */
const program = (amount: string) => `config:
  emulatorUrl:
    type: string
  apiKey:
    type: string
resources:
  capped:
    type: pulumi:providers:rimuhosting
    properties:
      apiKey: \${apiKey}
      baseUrl: \${emulatorUrl}
      monthlyBudgetUsd: ${amount}
  web:
    type: rimuhosting:Vps
    properties:
      domainName: web.example.com
      dcLocation: DCDALLAS
    options:
      provider: \${capped}
`;

describeNative("yaml", "budget amounts a YAML program quotes, and amounts with spaces", () => {
  let s: Scenario;
  const write = (amount: string) =>
    fs.writeFileSync(
      path.join(s.stack.cli.programDir, "Pulumi.yaml"),
      `name: quoted-amounts\nruntime: yaml\n${CACHED_PLUGIN_ENTRY}${program(amount)}`,
    );
  beforeAll(async () => {
    s = await startNativeScenario(
      writeYamlProgram("quoted-amounts", program('"1"'), { version: PLUGIN_VERSION }),
    );
    // Quoted: a YAML program reads a config value made only of digits (as API keys are) as a number.
    await s.stack.setConfigs({
      apiKey: { value: `"${DEMO_API_KEY}"`, secret: true },
      emulatorUrl: s.emulator.baseUrl,
    });
  });
  afterAll(async () => s?.close());

  test('a quoted amount ("1") reaches the provider as written: a $1 budget, which the new VPS is over', async () => {
    write('"1"');
    const text = await pulumiFailure(s.stack.cli, "preview");
    expect(text).not.toContain("Cannot assign type");
    expect(text).toMatch(/\[RIMU_ERR_BUDGET\][^\n]*\$1\.00/);
    expect(s.emulator.snapshot()).toEqual([]);
  });

  test('an argument with spaces around its amount ("  5 ") is refused, naming the provider\'s setting', async () => {
    write('"  5 "');
    const text = await pulumiFailure(s.stack.cli, "preview");
    expect(text).toContain(
      "[RIMU_ERR_CONFIG] provider 'capped': monthlyBudgetUsd has spaces around its amount (given: \"  5 \"): " +
        "write the number alone, such as 5",
    );
    expect(s.emulator.snapshot()).toEqual([]);
  });

  test("stack config with spaces around its amount is refused, naming rimuhosting:monthlyBudgetUsd", async () => {
    write('"50"'); // the explicit provider's budget is fine; the default provider reads the stack config
    fs.appendFileSync(
      path.join(s.stack.cli.programDir, "Pulumi.yaml"),
      "  home:\n    type: rimuhosting:Vps\n    properties:\n      domainName: home.example.com\n      dcLocation: DCDALLAS\n",
    );
    await s.stack.setConfig("rimuhosting:monthlyBudgetUsd", "  5 ");
    const text = await pulumiFailure(s.stack.cli, "preview");
    expect(text).toMatch(
      /\[RIMU_ERR_CONFIG\][^\n]*rimuhosting:monthlyBudgetUsd has spaces around its amount \(given: " {2}5 "\)/,
    );
    expect(s.emulator.snapshot()).toEqual([]);
  });
});
