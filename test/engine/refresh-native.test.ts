// What refresh and `up --refresh` print about a VPS changed outside Pulumi, on the native plugin from a YAML program
// (refresh-output.ts).
import type { Scenario } from "./e2e-support";
import { describeNative, startNativeScenario, writeYamlProgram } from "./native-programs";
import { REFRESH_PROGRAM_CONFIG, refreshOutputTests } from "./refresh-output";

jest.setTimeout(180_000);

const PROGRAM = `config:
  memoryMb: { type: integer }
  diskSpaceMb: { type: integer }
  runningState: { type: string }
resources:
  web:
    type: rimuhosting:Vps
    properties:
      domainName: refresh.example.com
      dcLocation: DCDALLAS
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: \${memoryMb}
      diskSpaceMb: \${diskSpaceMb}
      runningState: \${runningState}
`;

describeNative("yaml", "refresh output, native Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("refresh", PROGRAM), { config: REFRESH_PROGRAM_CONFIG });
  });
  afterAll(async () => s?.close());

  refreshOutputTests(() => s);
});
