/**
 * `npm run bench`'s command line (bench/index.ts): a mistake is said in one line under the bench's name, with the
 * usage and exit 2 (USAGE_EXIT), before any benchmark starts and without a stack trace; `--help` prints the usage.
 * Runs the built bench (dist/bench/index.js, `npm run build` first) as a process of its own.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { unknownOptionMessage, USAGE_EXIT } from "../../contract/command-line";

const BENCH = path.resolve(__dirname, "../../dist/bench/index.js");

function bench(...args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [BENCH, ...args],
      { encoding: "utf8", timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

test.each([
  [["cli", "--fleet", "x"], "bench: --fleet x: give a whole number, 1 or more"],
  [["plugin", "--rounds", "0"], "bench: --rounds 0: give a whole number, 1 or more"],
  [["cli", "--fleet"], "bench: Option '--fleet <value>' argument missing"],
  [
    ["cli", "--time-scale=-1"],
    "bench: --time-scale -1: give a number, 0 or more, such as 0.02 (0: no modelled waits)",
  ],
  [
    ["cli", "--time-scale", "x"],
    "bench: --time-scale x: give a number, 0 or more, such as 0.02 (0: no modelled waits)",
  ],
  [["nope"], "bench: unknown bench nope; known: emulator, client, cli, plugin, registration, startup"],
  [
    ["--no-such-option"],
    `bench: ${unknownOptionMessage("npm run bench --", "--no-such-option").replace("npm run bench --: ", "")}`,
  ],
])("%j: one line, the usage, exit 2, no benchmark run", async (args, line) => {
  const result = await bench(...args);
  expect(result.code).toBe(USAGE_EXIT);
  expect(result.stdout).toBe(""); // not even "== bench: cli"
  expect(result.stderr.split("\n")[0]).toBe(line);
  expect(result.stderr).toContain("usage: npm run bench --");
  expect(result.stderr).not.toMatch(/^\s+at /m);
});

test("--help prints the usage with every option, exit 0", async () => {
  const result = await bench("--help");
  expect(result.code).toBe(0);
  for (const option of [
    "--fleet",
    "--rounds",
    "--profile",
    "--floor",
    "--budget",
    "--rate-limit",
    "--time-scale",
    "--against",
    "--whole-process",
  ])
    expect(result.stdout).toContain(`  ${option}`);
});
