// `npm run demo`: starts the emulator, takes the quickstart (the repo's root Pulumi.yaml) through
// preview -> up -> a change (memory) -> up -> destroy with the real pulumi CLI (its own display), and leaves nothing
// running. The CLI is the one on PATH; without one, scripts/pulumi-cli.sh builds it with Go (slow the first time,
// cached after that), and without Go the demo says what to install.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY, startEmulator } from "../emulator/index";
import { findPulumiCli } from "../test/engine/cli-stack";
import { liveOrders } from "../test/engine/e2e-support";
import { createStackDriver, type StackDriver } from "../test/engine/stack-driver";

/** Emulated durations are the real ones times this: a VPS order takes ~2 s instead of 45 s. */
const DEMO_TIME_SCALE = 0.05;
/** The repository root, from the built copy (dist/tools), which is what `npm run demo` runs. */
const REPO_ROOT = path.resolve(__dirname, "..", "..");

const say = (line = ""): void => {
  process.stdout.write(`${line}\n`);
};
const banner = (title: string): void => say(`\n=== ${title} ${"=".repeat(Math.max(0, 70 - title.length))}`);

/**
 * The directory of a `pulumi` binary: the one on PATH, else the one scripts/pulumi-cli.sh builds with Go (from the
 * Go module proxy, into a cache outside the clone). Throws, saying what to install, when neither works.
 */
function pulumiCliDir(): string {
  const found = findPulumiCli();
  if (found.path) return path.dirname(found.path);
  say(
    "No pulumi on PATH: building it with scripts/pulumi-cli.sh (Go; 10-20 minutes the first time, cached after).",
  );
  const built = spawnSync("bash", [path.join(REPO_ROOT, "scripts", "pulumi-cli.sh")], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"], // its progress and errors go to stderr as they come
    encoding: "utf8",
  });
  const dir = built.stdout?.trim().split("\n").at(-1);
  if (built.status !== 0 || !dir)
    throw new Error(
      "the demo runs the real pulumi CLI, and there is none on PATH and scripts/pulumi-cli.sh could not build one " +
        `(${built.error?.message ?? `exit ${built.status}`}; its message is above). Install Go >= 1.26 (with the Go ` +
        "module proxy reachable), or put a pulumi v3 binary on PATH, then run `npm run demo` again.",
    );
  return dir;
}

async function main(): Promise<void> {
  const started = Date.now();
  const cliDir = pulumiCliDir();
  process.env.PATH = `${cliDir}${path.delimiter}${process.env.PATH ?? ""}`;
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
