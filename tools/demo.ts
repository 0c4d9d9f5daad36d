// `npm run demo`: starts the emulator, takes the quickstart (the repo's root Pulumi.yaml) through
// preview -> up -> a change (memory) -> up -> destroy with the real pulumi CLI (its own display), and leaves nothing
// running. The CLI is the one on PATH; without one, scripts/pulumi-cli.sh builds it with Go (slow the first time,
// cached after that), and without Go the demo says what to install.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY, startEmulator } from "../emulator/index";
import { liveOrders } from "../test/engine/e2e-support";
import { createStackDriver, type StackDriver } from "../test/engine/stack-driver";
import { REPO_ROOT, ensurePulumiCli } from "./pulumi-on-path";

/** Emulated durations are the real ones times this: a VPS order takes ~2 s instead of 45 s. */
const DEMO_TIME_SCALE = 0.05;

const say = (line = ""): void => {
  process.stdout.write(`${line}\n`);
};
const banner = (title: string): void => say(`\n=== ${title} ${"=".repeat(Math.max(0, 70 - title.length))}`);

async function main(): Promise<void> {
  const started = Date.now();
  const cliDir = ensurePulumiCli(say, "npm run demo");
  const programDir = fs.existsSync(path.join(REPO_ROOT, "Pulumi.yaml"))
    ? REPO_ROOT
    : path.join(REPO_ROOT, "examples", "quickstart");
  const emulator = await startEmulator({ timeScale: DEMO_TIME_SCALE });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "rimuhosting-demo-"));
  let stack: StackDriver | undefined;
  try {
    say(`RimuHosting emulator listening at ${emulator.baseUrl} (time scale ${DEMO_TIME_SCALE}).`);
    say(`Running the quickstart with the real Pulumi CLI (${cliDir}), local backend in ${workDir}.`);
    stack = await createStackDriver({
      programDir,
      workDir,
      config: {
        "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
        "rimuhosting:baseUrl": emulator.baseUrl,
      },
      onCliOutput: (text) => process.stdout.write(text),
    });

    banner("pulumi preview");
    await stack.preview();
    banner("pulumi up");
    await stack.up();
    banner("pulumi config set memoryMb 2048 && pulumi up");
    await stack.setConfig("memoryMb", "2048");
    await stack.up();
    banner("pulumi destroy");
    await stack.destroy();

    const orders = emulator.snapshot();
    const live = liveOrders(emulator);
    banner("emulator");
    say(`${orders.length} order(s) placed, ${live.length} still running or billed.`);
    if (live.length > 0) throw new Error(`the demo left ${live.length} order(s) running or billed`);
    say(`Demo finished in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await stack?.close();
    await emulator.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`demo failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
