// The scheduled drift check on the native plugin from a YAML program (drift-check.ts), through the real CLI.
import type { Scenario } from "./e2e-support";
import { describeNative, startNativeScenario, writeYamlProgram } from "./native-programs";
import { IP_COUNTS, NAMES, driftCheckTests } from "./drift-check";

jest.setTimeout(300_000);

const vps = (name: (typeof NAMES)[number]) => `  ${name}:
    type: rimuhosting:Vps
    properties:
      domainName: ${name}.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
      runningState: RUNNING
${IP_COUNTS[name] === undefined ? "" : `      ipCount: ${IP_COUNTS[name]}\n`}`;
const PROGRAM = `resources:
${NAMES.map(vps).join("")}`;

describeNative("yaml", "drift check, native Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    // control: RimuHosting's support's changes (test/helpers/support-changes.ts).
    s = await startNativeScenario(writeYamlProgram("drift", PROGRAM), { emulator: { control: true } });
  });
  afterAll(async () => s?.close());

  driftCheckTests(() => s, "native");
});
