/**
 * docs/emulator.md's Python and Go recipes for a user's own tests, run as the page gives them (python3 calls the
 * pytest function; `go test` vets and runs the Go test, the standard library only, nothing downloaded) against an emulator in
 * this process with a create waiting at time scale 1. Each must save and load the snapshot, set and clear the chaos
 * rule and finish the create. The TypeScript twin runs in test/emulator/control-recipes.test.ts. Each runs in a
 * user's environment (support/user-env.ts): the page sets nothing, and python3 or go is on PATH where this machine
 * has it, as a user who follows the recipe has it.
 */
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { expectControlRecipeLeft } from "../helpers/control-api";
import { answeredSoon, pendingCreate } from "../helpers/pending-create";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { recipe } from "./support/code-blocks";
import { dirOnPath, userEnv } from "./support/user-env";

jest.setTimeout(180_000);
const run = promisify(execFile);

/** Why `command` cannot run here, or undefined; with CI=true a missing tool is an error, never a skip. */
function missing(command: string, args: string[]): string | undefined {
  if (spawnSync(command, args).status === 0) return undefined;
  if (process.env.CI === "true")
    throw new Error(`${command} must be on PATH in CI (docs/emulator.md's recipes)`);
  return `no ${command} on PATH`;
}

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "control-recipes-"))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `runRecipe` (with the recipe's text, its URL pointing at a fresh emulator) and checks what it did. */
async function runsAgainstEmulator(
  address: string,
  runRecipe: (text: string) => Promise<unknown>,
): Promise<void> {
  const emu: TestEmulator = await startTestEmulator({ control: true, timeScale: 1 });
  try {
    const { answer } = await pendingCreate(emu, "recipe.example.com");
    await runRecipe(recipe(address).replace("http://127.0.0.1:8780", emu.baseUrl.replace(/\/r$/, "")));
    expect((await answeredSoon(answer)).status).toBe(200);
    await expectControlRecipeLeft(emu.baseUrl);
  } finally {
    await emu.close();
  }
}

const noPython = missing("python3", ["--version"]);
(noPython ? test.skip : test)(
  `docs/emulator.md's Python recipe runs${noPython ? ` (skipped: ${noPython})` : ""}`,
  async () => {
    await runsAgainstEmulator("docs/emulator.md#control-python", async (text) => {
      const file = path.join(dir, "test_emulator.py");
      fs.writeFileSync(file, text);
      const call =
        "import runpy; runpy.run_path(__import__('sys').argv[1])['test_against_the_emulators_saved_account']()";
      await run("python3", ["-c", call, file], {
        env: userEnv("docs/emulator.md", {}, {}, dirOnPath("python3")),
      });
    });
  },
);

const noGo = missing("go", ["version"]);
(noGo ? test.skip : test)(
  `docs/emulator.md's Go recipe runs${noGo ? ` (skipped: ${noGo})` : ""}`,
  async () => {
    await runsAgainstEmulator("docs/emulator.md#control-go", async (text) => {
      const module = path.join(dir, "infra");
      fs.mkdirSync(module, { recursive: true });
      fs.writeFileSync(path.join(module, "go.mod"), "module infra\n\ngo 1.22\n");
      fs.writeFileSync(path.join(module, "infra_test.go"), text);
      // The standard library only: nothing to fetch, no toolchain to switch to (docs/testing.md's harness list).
      const env = userEnv(
        "docs/emulator.md",
        {},
        { GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local", GOWORK: "off" },
        dirOnPath("go"),
      );
      // go test vets the file too (its default checks) before it runs the test.
      await run("go", ["test", "-count=1", "."], { cwd: module, env });
    });
  },
);
