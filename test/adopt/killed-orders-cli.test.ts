/**
 * `rimuhosting-killed-orders` (the built bin) and the plugin's `killed-orders` given what they cannot act on: each
 * says what is wrong with what the user gave and how to fix it, exits 2 (USAGE_EXIT), and cancels nothing (no
 * emulator runs: nothing is called). test/engine/killed-destroy.test.ts runs them on killed stacks through the CLI.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const REPO_ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(REPO_ROOT, "dist/provider/adopt/killed-orders.js");
const PLUGIN = path.join(REPO_ROOT, "bin/pulumi-resource-rimuhosting");
jest.setTimeout(60_000);

function run(command: "bin" | "plugin", args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const [exe, argv] =
    command === "bin" ? [process.execPath, [BIN, ...args]] : [PLUGIN, ["killed-orders", ...args]];
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    execFile(exe, argv, { encoding: "utf8", cwd, env, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    ),
  );
}

const NAMES = { bin: "rimuhosting-killed-orders", plugin: "pulumi-resource-rimuhosting killed-orders" };

describe.each(["bin", "plugin"] as const)("%s", (command) => {
  const name = NAMES[command];

  test("without --yes: it says the command cancels orders, with its usage", async () => {
    const result = await run(command, ["--stack", "dev"], os.tmpdir());
    expect(result).toMatchObject({ status: 2, stdout: "" });
    expect(result.stderr).toMatch(
      new RegExp(`^${name}: add --yes: the command cancels orders\\n\\nUsage: ${name} --yes`),
    );
  });

  test("outside a Pulumi project: it says where to run it", async () => {
    const result = await run(command, ["--yes"], os.tmpdir());
    expect(result).toEqual({
      status: 2,
      stdout: "",
      stderr: `${name}: run it in the directory of the stack's project (no Pulumi.yaml here).\n`,
    });
  });

  test("in a project with no API key anywhere: it says how to set one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "killed-orders-"));
    try {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
      // No `pulumi` on PATH: the stack's config cannot be read, and the environment has no key.
      const env = {
        PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
        HOME: dir,
      };
      const result = await run(command, ["--yes"], dir, env);
      expect(result).toMatchObject({ status: 2, stdout: "" });
      expect(result.stderr).toMatch(
        new RegExp(
          `^${name}: Cancelling a killed run's orders needs a RimuHosting API key, and none is configured`,
        ),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
