// What refresh and `up --refresh` print about a VPS changed outside Pulumi, on the native plugin from a YAML program
// (refresh-output.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import type { Scenario } from "./e2e-support";
import {
  importNativeVps,
  describeNative,
  nativeOps,
  orderOutsidePulumi,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
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

/** The order placed outside Pulumi as the program then says it, under its resources (the file's last section). */
const IMPORTED = `  legacy:
    type: rimuhosting:Vps
    properties:
      domainName: legacy.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
      runningState: RUNNING
`;

describeNative("yaml", "refresh output, native Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("refresh", PROGRAM), { config: REFRESH_PROGRAM_CONFIG });
  });
  afterAll(async () => s?.close());

  refreshOutputTests(() => s, "native");

  test("refresh of a VPS `pulumi import`ed, then up: drift, no restart, start or price", async () => {
    const oid = await orderOutsidePulumi(s, "legacy.example.com");
    const cli = s.stack.cli;
    await importNativeVps(cli, "legacy", oid);
    // The up's "same" step records the program's checked inputs (with creationScope) and keeps the imported outputs
    // (without): the two sides of the refresh's diff then differ in it.
    fs.appendFileSync(path.join(cli.programDir, "Pulumi.yaml"), IMPORTED);
    expect(nativeOps(await s.stack.up()).legacy).toBe("same");
    await s.client.changeParameters(oid, { memory_mb: 2048 });
    await s.client.setRunningState(oid, "NOTRUNNING");
    const text = await pulumiText(cli, "refresh", "--yes");
    expect(text).toMatch(
      /legacy: changed outside Pulumi: memoryMb 1024 → 2048, runningState RUNNING → NOTRUNNING/,
    );
    expect(text).not.toMatch(/restarts the VPS|starts the VPS|\$\d/);
  });
});
