/**
 * L2: the provider text every Vps stores (provider/vps-provider-text.ts), written by the built tool, then loaded
 * in a fresh process the way the dynamic-provider host loads it (require-from-string, cwd = the program
 * directory, where `pulumi-rimuhosting` resolves to this checkout) and driven through a whole lifecycle against a
 * real emulator. Needs `npm run build` first (`npm test` does it).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { startEmulator, DEMO_API_KEY, type RunningEmulator } from "../../emulator/index";

const run = promisify(execFile);
const ROOT = resolve(__dirname, "../..");
// Built JS on purpose: the text's require("pulumi-rimuhosting/shim") resolves to the built package in a plain node
// child, as in a user's provider host.
const SERIALIZE = join(ROOT, "dist/tools/serialize-provider.js");
const RUN_SERIALIZED = join(ROOT, "dist/test/helpers/run-serialized-provider.js");
/**
 * Budget for the `__provider` text stored twice in every Vps: 60 bytes measured (the SDK's closure serializer made
 * 263 of the same require(), 690 where the package is linked, and 2,588 with one method per operation).
 */
const SIZE_BUDGET_BYTES = 80;

let emulator: RunningEmulator;
let dir: string;
let textFile: string;
let report: { bytes: number; lines: number; requires: string[] };

/** The child environment: no RimuHosting variables, so only configure() can supply the key. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.RIMUHOSTING_APIKEY;
  delete env.RIMUHOSTING_BASEURL;
  delete env.NODE_OPTIONS; // no jest/coverage hooks in the child
  return env;
}

beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0, seed: 11, validateResponses: true });
  dir = mkdtempSync(join(tmpdir(), "rimu-l2-"));
  textFile = join(dir, "provider.js");
  const { stdout } = await run(process.execPath, [SERIALIZE, textFile], { cwd: ROOT, env: childEnv() });
  report = JSON.parse(stdout.trim().split("\n").pop() as string);
});
afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("serialized provider (L2)", () => {
  it("is a small text that requires only the package's shim", () => {
    expect(report.requires).toEqual(["pulumi-rimuhosting/shim"]);
    expect(report.bytes).toBeGreaterThan(30);
    expect(report.bytes).toBeLessThanOrEqual(SIZE_BUDGET_BYTES);
  });

  it("holds no API key, no password, no config and no zod", () => {
    const text = readFileSync(textFile, "utf8");
    expect(text).not.toContain(DEMO_API_KEY);
    expect(text).not.toMatch(/password|apiKey|rimuhosting:|zod|got/i);
    expect(text).toContain('require("pulumi-rimuhosting/shim")');
  });

  it("loads in a fresh process like the host and runs create, update, read and delete against the emulator", async () => {
    const config = JSON.stringify({
      "rimuhosting:apiKey": DEMO_API_KEY,
      "rimuhosting:baseUrl": emulator.baseUrl,
    });
    const { stdout } = await run(process.execPath, [RUN_SERIALIZED, textFile, "l2.example.com"], {
      cwd: ROOT,
      env: childEnv({ RIMU_STACK_CONFIG: config }),
    });
    const steps = Object.fromEntries(
      stdout
        .trim()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { step: string })
        .map((s) => [s.step, s]),
    ) as Record<string, Record<string, unknown>>;
    expect(steps.fatal).toBeUndefined();
    // One serialized method; configure() puts the implementation's methods on the object before its first await.
    expect(steps.load?.methods).toEqual(["configure"]);
    expect(steps.load?.methodsOnceConfiguring).toEqual([
      "check",
      "configure",
      "create",
      "delete",
      "diff",
      "read",
      "update",
    ]);
    expect(steps.check?.failures).toEqual([]);
    expect(steps.create).toMatchObject({ memoryMb: 1024, runningState: "RUNNING", hasPassword: true });
    expect(steps.diff).toEqual({ step: "diff", changes: true, replaces: [] });
    expect(steps.update).toMatchObject({ memoryMb: 2048, runningState: "NOTRUNNING" });
    expect(steps.read).toMatchObject({ id: steps.create?.id, memoryMb: 2048, runningState: "NOTRUNNING" });
    expect(steps.delete).toMatchObject({ twice: true });
    expect(steps["read-after-delete"]).toMatchObject({ id: null });
    // An error from the implementation package keeps its message and class through the serialized shim.
    expect(steps.error).toMatchObject({
      thrown: true,
      message: expect.stringMatching(/no longer exists or was cancelled/),
    });
    expect(stdout).not.toContain(DEMO_API_KEY);

    const order = emulator.snapshot().find((o) => String(o.orderOid) === steps.create?.id);
    expect(order).toMatchObject({ domainName: "l2.example.com", cancelled: true });
  });
});
