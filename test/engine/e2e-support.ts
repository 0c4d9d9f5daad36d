// What every end-to-end scenario needs: an emulator, a scratch directory, a stack of an example (the real CLI), and
// assertions on the emulator's request log and final state.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ENDPOINTS, type EndpointName } from "../../contract/index";
import { DEMO_API_KEY, type RunningEmulator, type StartEmulatorOptions } from "../../emulator/index";
import { createClient, type RimuClient } from "../../provider/client/index";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import type { OperationResult } from "./steps";
import { createStackDriver, type StackDriver } from "./stack-driver";

/** The repo's examples, from test/engine (jest) or dist/test/engine (compiled: `npm run fault-matrix`). */
export const EXAMPLES_DIR = [
  path.resolve(__dirname, "..", "..", "examples"),
  path.resolve(__dirname, "..", "..", "..", "examples"),
].find((dir) => fs.existsSync(dir))!;
export const VPS_TYPE = "pulumi-nodejs:dynamic/rimuhosting:Vps";
/** Whether a logged request changed anything: the contract says so of each route (a request to none did not). */
const mutates = (route: EndpointName | "unknown"): boolean => route !== "unknown" && ENDPOINTS[route].mutates;

export interface Scenario {
  emulator: TestEmulator;
  stack: StackDriver;
  /** A client of the emulator's demo account, to change things behind Pulumi's back. */
  client: RimuClient;
  workDir: string;
  /** Marks the request log; `mutationsSince(mark)` lists the mutating requests made after it. */
  mark(): number;
  mutationsSince(mark: number): { method: string; route: string }[];
  close(): Promise<void>;
}

export interface ScenarioOptions {
  config?: Record<string, string>;
  /** A program directory other than examples/<example> (test fixtures). */
  programDir?: string;
  /** Extra environment for the program and the provider. */
  env?: NodeJS.ProcessEnv;
  /** Receives the CLI's own display. */
  onCliOutput?: (text: string) => void;
  /** See CliStackOptions.pluginDownloads. */
  pluginDownloads?: boolean;
  /** The emulator's options besides timeScale 0 (a state file, to restart it). */
  emulator?: StartEmulatorOptions;
  /** How the stack's secrets are keyed (CliStackOptions.keys): tests of secrets keep the passphrase. */
  keys?: "service" | "passphrase";
}

export async function startScenario(example: string, opts: ScenarioOptions = {}): Promise<Scenario> {
  const emulator = await startTestEmulator({ timeScale: 0, ...opts.emulator });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-${example}-`));
  const stack = await createStackDriver({
    programDir: opts.programDir ?? path.join(EXAMPLES_DIR, example),
    env: opts.env,
    onCliOutput: opts.onCliOutput,
    pluginDownloads: opts.pluginDownloads,
    keys: opts.keys,
    workDir,
    config: {
      "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
      "rimuhosting:baseUrl": emulator.baseUrl,
      ...opts.config,
    },
  }).catch(async (e: unknown) => {
    await emulator.close();
    fs.rmSync(workDir, { recursive: true, force: true });
    throw e;
  });
  const client = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
  return {
    emulator,
    stack,
    client,
    workDir,
    mark: () => emulator.requestLog().length,
    mutationsSince: (mark) =>
      emulator
        .requestLog()
        .slice(mark)
        .filter((e) => mutates(e.route))
        .map((e) => ({ method: e.method, route: e.route })),
    async close() {
      await stack.close();
      client.close();
      await emulator.close();
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** name -> op of the VPS steps of an operation. */
export function vpsOps(r: OperationResult): Record<string, string> {
  return Object.fromEntries(
    r.steps.filter((s) => s.type === VPS_TYPE && s.op !== "delete-replaced").map((s) => [s.name, s.op]),
  );
}

/** Orders of the demo account that are still running or billed. */
export function liveOrders(
  emulator: Pick<RunningEmulator, "snapshot">,
): { orderOid: number; runningState: string; cancelled: boolean }[] {
  return emulator
    .snapshot()
    .filter((o) => o.account === "demo" && (!o.cancelled || o.runningState !== "NOTRUNNING"));
}
