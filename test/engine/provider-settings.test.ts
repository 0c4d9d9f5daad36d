// A provider's own settings gone wrong, through the real CLI on both front ends. A digits-only API key that arrives
// as a number (a YAML program reads such a config value as one) is refused with how to quote it, and none of its
// digits is printed or stored: the engine prints a property's failure with the property's value, secret or not, so
// no configuration failure names a property. A wrong key or address names the setting as the user wrote it: an
// explicit provider's argument (`provider 'alice': apiKey`), or the stack setting (`rimuhosting:apiKey`).
import { DEMO_ACCOUNTS } from "../../emulator/index";
import { describeCliOnly } from "./describe-cli";
import { startScenario, type Scenario } from "./e2e-support";
import { describeNative, pulumiFailure, startNativeScenario, writeYamlProgram } from "./native-programs";

jest.setTimeout(300_000);

/** 32 digits, as RimuHosting's keys are; read as a number it becomes 3.8475619203847564e+31. */
const DIGITS_KEY = "38475619203847564123456789012345";
const alice = DEMO_ACCOUNTS.find((a) => a.name === "alice")!;

/**
 * What the state and the display hold whose digits are random, left out before the search: the engine's timestamps
 * (a state's `2026-11-25T22:33:17.26079203Z` held 9203 once), hex digests with a letter in them (the manifest's
 * `magic`; the key itself is 32 digits, so it is not one) and the passphrase's salt and ciphertexts (`v1:…`,
 * base64). None of them can carry the key in plain digits.
 */
const RANDOM_DIGITS = [
  /\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)/g,
  /\b(?=[0-9]*[a-f])[0-9a-f]{32,}\b/g,
  /v1:[A-Za-z0-9+/=:]+/g,
];

/**
 * Text that shows no run of four or more of the key's digits (its float form keeps 17 of them). The stack's name
 * and the emulator's address are left out first: their random digits held four of the key's once (`dev-61929745`),
 * and so are RANDOM_DIGITS.
 */
function expectNoDigitsOfKey(text: string, s: Scenario): void {
  const ours = RANDOM_DIGITS.reduce(
    (rest, noise) => rest.replace(noise, ""),
    [s.stack.cli!.name, s.emulator.baseUrl].reduce((rest, noise) => rest.split(noise).join(""), text),
  );
  for (let at = 0; at + 4 <= DIGITS_KEY.length; at++)
    expect(ours).not.toContain(DIGITS_KEY.slice(at, at + 4));
}

/** A YAML program whose VPS is managed by the explicit provider `name`, with its key and address from config. */
const program = (name: string): string => `config:
  aliceKey:
    type: string
  aliceUrl:
    type: string
resources:
  account:
    type: pulumi:providers:rimuhosting
    name: ${name}
    properties:
      apiKey: \${aliceKey}
      baseUrl: \${aliceUrl}
  web:
    type: rimuhosting:Vps
    properties:
      domainName: settings.example.com
      dcLocation: DCDALLAS
    options:
      provider: \${account}
`;

describeNative("yaml", "an explicit provider's settings", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("provider-settings", program("alice")));
    await s.stack.cli!.setConfig("aliceUrl", { value: s.emulator.baseUrl });
  });
  afterAll(async () => s?.close());

  test("a digits-only secret key read as a number: refused with how to quote it, no digit of it anywhere", async () => {
    // Unquoted, as `pulumi config set --secret` takes it: the YAML program reads it as a number.
    await s.stack.cli!.setConfig("aliceKey", { value: DIGITS_KEY, secret: true });
    const mark = s.mark();
    const preview = await pulumiFailure(s.stack.cli!, "preview");
    expect(preview).toContain("[RIMU_ERR_CONFIG] provider 'alice': apiKey arrived as a number, not as text");
    expect(preview).toContain(`\`apiKey: "<value>"\` in the program`);
    const up = await pulumiFailure(s.stack.cli!, "up", "--yes", "--skip-preview");
    expect(up).toContain("provider 'alice': apiKey arrived as a number");
    const state = await s.stack.exportState();
    for (const text of [preview, up, state]) expectNoDigitsOfKey(text, s);
    expect(s.mutationsSince(mark)).toEqual([]);
  });

  test("a wrong key, then an address where nothing answers: the failure names provider 'alice' and its argument", async () => {
    await s.stack.cli!.setConfig("aliceKey", { value: '"99999999999999999999999999999999"', secret: true });
    const wrongKey = await pulumiFailure(s.stack.cli!, "preview");
    expect(wrongKey).toContain("[RIMU_ERR_AUTH] provider 'alice': apiKey: RimuHosting refused the API key");
    expect(wrongKey).toContain("set the apiKey argument of provider 'alice'");
    expect(wrongKey).not.toContain("rimuhosting:apiKey");

    await s.stack.cli!.setConfig("aliceKey", { value: `"${alice.apiKey}"`, secret: true });
    await s.stack.cli!.setConfig("aliceUrl", { value: "http://127.0.0.1:1" });
    const nothingThere = await pulumiFailure(s.stack.cli!, "preview");
    expect(nothingThere).toContain(
      "[RIMU_ERR_CONFIG] provider 'alice': baseUrl: nothing answers at http://127.0.0.1:1/r (connection refused)",
    );
    expect(nothingThere).toContain("the arguments of provider 'alice'");
    expect(nothingThere).not.toContain("rimuhosting:baseUrl");
  });
});

// The engine names its default providers `default` or `default_<version>`; a name that merely starts with
// "default" is the program's own provider, and the messages name it.
describeNative("yaml", "an explicit provider named default-eu", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("provider-default-eu", program("default-eu")));
    await s.stack.cli!.setConfig("aliceUrl", { value: s.emulator.baseUrl });
  });
  afterAll(async () => s?.close());

  test("a wrong key names provider 'default-eu' and its argument, not the stack config", async () => {
    await s.stack.cli!.setConfig("aliceKey", { value: '"99999999999999999999999999999999"', secret: true });
    const wrongKey = await pulumiFailure(s.stack.cli!, "preview");
    expect(wrongKey).toContain(
      "[RIMU_ERR_AUTH] provider 'default-eu': apiKey: RimuHosting refused the API key",
    );
    expect(wrongKey).toContain("set the apiKey argument of provider 'default-eu'");
    expect(wrongKey).not.toContain("rimuhosting:apiKey");
  });
});

describeCliOnly("the stack's settings on the dynamic Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startScenario("lifecycle");
  });
  afterAll(async () => s?.close());

  test("a digits-only key stored as a number arrives as text: refused by RimuHosting, no digit of it printed", async () => {
    // The engine hands the dynamic host every config value as text (`3.8475619203847564e+31`), never a number.
    await s.stack.cli!.command("config", "set", "--type", "float", "rimuhosting:apiKey", "--", DIGITS_KEY);
    const preview = await pulumiFailure(s.stack.cli!, "preview");
    expect(preview).toContain("[RIMU_ERR_AUTH] rimuhosting:apiKey: RimuHosting refused the API key");
    expectNoDigitsOfKey(preview, s);
  });
});
