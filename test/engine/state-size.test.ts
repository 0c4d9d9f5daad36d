// What one VPS costs in the state: the engine rewrites the whole state around every step, so a fleet's time grows
// with its state's size (docs/troubleshooting.md). Measured the way a user's stack holds it: the quickstart, with the
// package installed (not linked, see installed-program.ts), through the real CLI, from `pulumi stack export`.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { describeCliOnly } from "./describe-cli";
import { EXAMPLES_DIR, VPS_TYPE, startScenario, type Scenario } from "./e2e-support";
import { installedProgram } from "./installed-program";
import { VPS_PROVIDER_TEXT } from "../../provider/vps-provider-text";

jest.setTimeout(180_000);

/**
 * The quickstart's Vps in a stack named `dev`, as compact JSON: 2,356 bytes measured (8,198 with 0.1.0's seven-method
 * provider text and the SDK's full stack trace; 2,674 before the order's one-line summary left the outputs and the
 * shim got its short name). Of it, about 880 bytes are the engine's own fields (URN, parent, provider reference,
 * timestamps, dependencies, secret-output names, source position) and 950 the VPS's inputs and outputs; the rest is
 * the provider text, twice (docs/dynamic-providers.md §3). Issue 20's target: at most 2.5 kB.
 */
const VPS_STATE_BUDGET_BYTES = 2_500;

interface ResourceState {
  type: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  additionalSecretOutputs?: string[];
  sourcePosition?: string;
  stackTrace?: { sourcePosition?: string }[];
}

describeCliOnly("the state of one VPS", () => {
  let s: Scenario;
  let tmp: string;
  let vps: ResourceState;
  let bytes: number;
  let programDir: string;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "state-size-"));
    programDir = installedProgram(path.join(EXAMPLES_DIR, "quickstart"), path.join(tmp, "quickstart"));
    s = await startScenario("quickstart", { programDir });
    await s.stack.up();
    // A user's stack is usually `dev`; this one has a random suffix, which the URN, the parent and the creation
    // scope repeat, so it is put back to `dev` before measuring.
    const name = s.stack.cli!.name;
    const exported = JSON.parse(await s.stack.exportState()) as {
      deployment: { resources: ResourceState[] };
    };
    vps = exported.deployment.resources.find((r) => r.type === VPS_TYPE)!;
    bytes = Buffer.byteLength(JSON.stringify(vps).split(name).join("dev"));
  });
  afterAll(async () => {
    await s?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test(`the quickstart's Vps takes at most ${VPS_STATE_BUDGET_BYTES} bytes of state`, () => {
    expect(bytes).toBeGreaterThan(1_000);
    expect(bytes).toBeLessThanOrEqual(VPS_STATE_BUDGET_BYTES);
  });

  test("the provider text is the package's own require() of its shim, in the inputs and the outputs alike", () => {
    expect(vps.outputs.__provider).toBe(VPS_PROVIDER_TEXT);
    expect(vps.inputs.__provider).toBe(VPS_PROVIDER_TEXT);
  });

  test("the secret outputs it names are the password's alone when no other secret input is given", () => {
    // cloudConfig and files are named only when given (test/engine/get-and-secrets.test.ts gives them).
    expect(vps.additionalSecretOutputs).toEqual(["password"]);
    expect(vps.outputs).not.toHaveProperty("cloudConfig");
    expect(vps.outputs).not.toHaveProperty("files");
  });

  test("the shim's short name and the path earlier states hold both load the same module", () => {
    const programRequire = createRequire(path.join(programDir, "index.ts"));
    const short = programRequire.resolve("pulumi-rimuhosting/shim");
    expect(short).toContain(
      path.join("node_modules", "pulumi-rimuhosting", "dist", "provider", "vps-shim.js"),
    );
    expect(programRequire.resolve("pulumi-rimuhosting/dist/provider/vps-shim.js")).toBe(short);
  });

  test("the recorded source position is the program's line that declares the VPS, and no runner frame follows", () => {
    expect(vps.sourcePosition).toMatch(/^project:\/\/\/index\.ts#\d+,\d+$/);
    expect(vps.stackTrace).toEqual([{ sourcePosition: vps.sourcePosition }]);
  });
});
