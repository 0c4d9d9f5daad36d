// The scheduled drift check on the dynamic `Vps` (drift-check.ts), through the real CLI.
import * as path from "node:path";
import { describeCliOnly } from "./describe-cli";
import { startScenario, type Scenario } from "./e2e-support";
import { driftCheckTests } from "./drift-check";

jest.setTimeout(300_000);

describeCliOnly("drift check, dynamic Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startScenario("drift", {
      programDir: path.join(__dirname, "fixtures", "drift"),
      // control: RimuHosting's support's changes (test/helpers/support-changes.ts).
      emulator: { control: true },
    });
  });
  afterAll(async () => s?.close());

  driftCheckTests(() => s, "dynamic");
});
