// No false alarms on the native plugin, from a YAML program of 20 VPSs (drift-fleet.ts).
import * as path from "node:path";
import type { Scenario } from "./e2e-support";
import { driftFleetTests } from "./drift-fleet";
import {
  importNativeVps,
  NATIVE_VPS_TYPE,
  describeNative,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(900_000);

const PROGRAM = `resources:
${Array.from(
  { length: 20 },
  (_, i) => `  vps${i}:
    type: rimuhosting:Vps
    properties:
      domainName: vps${i}.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
      ipCount: ${i % 5 === 0 ? 4 : 1}
`,
).join("")}`;

describeNative("yaml", "an unchanged fleet of 20 VPSs, refreshed 10 times, native Vps", () => {
  let s: Scenario;
  let stateFile: string;
  beforeAll(async () => {
    const program = writeYamlProgram("drift-fleet", PROGRAM);
    stateFile = path.join(program, "emulator-state.json");
    s = await startNativeScenario(program, { emulator: { stateFile } });
  });
  afterAll(async () => s?.close());

  driftFleetTests(
    () => s,
    () => stateFile,
    {
      vpsType: NATIVE_VPS_TYPE,
      serviceConditions: true,
      refreshes: 10,
      bringIn: async (scenario, oid) => {
        await importNativeVps(scenario.stack.cli, "legacy", oid);
      },
    },
  );
});
