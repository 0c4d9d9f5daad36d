// The Node.js a test run is on is the one the real CLI runs programs and providers on: the CLI's Node.js language
// host and the dynamic-provider plugin both start the first `node` on PATH, and .ci/run puts Node 22, then Node 24,
// first there (scripts/node.sh). Without this, the Node 24 part of CI could run its programs on another Node and
// still pass. The program (TypeScript, fixtures/node-on-path, laid out as `npm install` lays the package out) and its
// provider host report `process.version`; jest runs on the same `node` as npm and the CLI. In the same host the
// package's provider orders one VPS from the emulator and `pulumi destroy` cancels it: the package through the CLI
// on that Node (CI's Node 24 part runs this file; the lifecycle's every step on it is test/provider's, in-process
// and through the real dynamic-provider host, host.test.ts).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { liveOrders } from "./e2e-support";
import { installedProgram } from "./installed-program";

jest.setTimeout(180_000);

describeCliOnly("the node first on PATH", () => {
  let tmp: string;
  let emulator: TestEmulator;
  let stack: CliStack;

  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "node-on-path-"));
    const programDir = installedProgram(
      path.join(__dirname, "fixtures", "node-on-path"),
      path.join(tmp, "program"),
    );
    stack = await CliStack.create({
      programDir,
      backendDir: path.join(tmp, "backend"),
      env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
      config: { "rimuhosting:baseUrl": emulator.baseUrl },
    });
  });
  afterAll(async () => {
    stack?.close();
    await emulator?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("runs the program and the dynamic provider on the Node.js this test runs on; its Vps is ordered and cancelled", async () => {
    const { outputs } = await stack.up();
    const ordered = liveOrders(emulator).map((o) => String(o.orderOid));
    expect({ outputs, ordered }).toEqual({
      outputs: { program: process.version, provider: process.version, vpsId: expect.any(String) },
      ordered: [outputs.vpsId],
    });
    await stack.destroy();
    expect(liveOrders(emulator)).toEqual([]);
  });
});
