// What refresh and `up --refresh` print about a VPS changed outside Pulumi, on the dynamic `Vps` (refresh-output.ts).
import * as path from "node:path";
import { describeCliOnly } from "./describe-cli";
import { startScenario, type Scenario } from "./e2e-support";
import { REFRESH_PROGRAM_CONFIG, refreshOutputTests } from "./refresh-output";

jest.setTimeout(180_000);

describeCliOnly("refresh output, dynamic Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startScenario("refresh", {
      programDir: path.join(__dirname, "fixtures", "refresh"),
      config: REFRESH_PROGRAM_CONFIG,
    });
  });
  afterAll(async () => s?.close());

  refreshOutputTests(() => s, "dynamic");
});
