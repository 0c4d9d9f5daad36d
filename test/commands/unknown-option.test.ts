/**
 * Every command of the package words an option it does not have one way (contract/command-line.ts), under the name
 * the user typed: the npm commands (rimuhosting-bill, -drift, -import-file, -killed-orders, -emulator, built in dist/) and the
 * plugin's subcommands and the plugin itself (a checkout's bin/), each a process of its own (`npm run build`
 * first). Each exits 2 (USAGE_EXIT) with the line on stderr and nothing on stdout. No other source words it.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { unknownOptionMessage, USAGE_EXIT } from "../../contract/command-line";

const ROOT = path.resolve(__dirname, "../..");
const PLUGIN = path.join(ROOT, "bin/pulumi-resource-rimuhosting");
const npmCommand = (name: string, file: string) => ({
  name,
  exe: process.execPath,
  args: [path.join(ROOT, file)],
});
const pluginCommand = (sub: string) => ({
  name: `pulumi-resource-rimuhosting ${sub}`,
  exe: PLUGIN,
  args: [sub],
});

const COMMANDS = [
  npmCommand("rimuhosting-bill", "dist/provider/bill/cli.js"),
  npmCommand("rimuhosting-drift", "dist/provider/drift/cli.js"),
  npmCommand("rimuhosting-import-file", "dist/provider/adopt/cli.js"),
  npmCommand("rimuhosting-killed-orders", "dist/provider/adopt/killed-orders.js"),
  npmCommand("rimuhosting-emulator", "dist/emulator/cli.js"),
  ...["bill", "drift", "import-file", "killed-orders", "emulator"].map(pluginCommand),
  { name: "pulumi-resource-rimuhosting", exe: PLUGIN, args: [] },
];

/** Runs a command (stdin closed, as a script would) and resolves with its exit code and output. */
function run(exe: string, args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(exe, args, { encoding: "utf8", timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

test.each(COMMANDS)("$name: an unknown option is the one line, exit 2", async ({ name, exe, args }) => {
  const result = await run(exe, [...args, "--no-such-option=1"]);
  expect({ ...result, stderr: result.stderr.split("\n")[0] }).toEqual({
    code: USAGE_EXIT,
    stdout: "",
    stderr: expect.stringMatching(
      new RegExp(`^${unknownOptionMessage(name, "--no-such-option").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    ),
  });
});

test("no source but contract/command-line.ts words an unknown option", () => {
  const sources = (dir: string): string[] =>
    fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
  const wording = ["provider", "emulator", "contract"]
    .flatMap(sources)
    .filter((file) =>
      /unknown (option|argument)|Unknown option/.test(fs.readFileSync(path.join(ROOT, file), "utf8")),
    );
  expect(wording.sort()).toEqual(["contract/command-line.ts"]);
});
