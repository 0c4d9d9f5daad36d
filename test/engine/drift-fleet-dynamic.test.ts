// No false alarms on the dynamic `Vps`, from a TypeScript program of 20 VPSs (drift-fleet.ts); the VPS made outside
// Pulumi is adopted (adoptOrderOid), the dynamic Vps's way in. The unchanged fleet is refreshed once here, 10 times on
// the native plugin (drift-fleet-native.test.ts; why: FleetFrontEnd.refreshes).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeCliOnly } from "./describe-cli";
import { startScenario, VPS_TYPE, type Scenario } from "./e2e-support";
import { driftFleetTests } from "./drift-fleet";

jest.setTimeout(900_000);

describeCliOnly("an unchanged fleet of 20 VPSs, refreshed, dynamic Vps", () => {
  let s: Scenario;
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "drift-fleet-")), "emulator-state.json");
  beforeAll(async () => {
    s = await startScenario("drift-fleet", {
      programDir: path.join(__dirname, "fixtures", "drift-fleet"),
      emulator: { stateFile },
    });
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(path.dirname(stateFile), { recursive: true, force: true });
  });

  driftFleetTests(
    () => s,
    () => stateFile,
    {
      vpsType: VPS_TYPE,
      // The emulator's restart and shuffled listings: drift-fleet-native.test.ts (the same core reads the account).
      serviceConditions: false,
      refreshes: 1,
      bringIn: async (scenario, oid) => {
        await scenario.stack.setConfig("adoptOrderOid", String(oid));
        await scenario.stack.up();
      },
    },
  );
});
