// The plugin's command line as a person meets it (issue 42): `--help`, `-h`, `--version`, a start without arguments
// in a terminal and a word or flag that is no command each print and exit, where the provider would print a port and
// wait for an engine that never comes. The engine's own start (its address, stdout a pipe) still serves. Each runs as
// a real process: a checkout's bin/ and the launcher tarball's bundle (`npm run build` first); the terminal is a
// pseudo-terminal from util-linux's `script`.
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { packPlugin } from "../../provider/native/pack";
import { firstStdoutLine, ROOT } from "./plugin-client";

jest.setTimeout(120_000);

/**
 * A hang is what these tests catch: a process still running after this long is ended (SIGTERM), and the test fails
 * on its exit code (null) with what it printed. Generous, not a measure: each should exit at once.
 */
const HANG_MS = 30_000;

const BIN = path.join(ROOT, "bin/pulumi-resource-rimuhosting");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `file args` with stdin from /dev/null and stdout and stderr to pipes, as a script would; resolves when it exits. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], timeout: HANG_MS, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `file` without arguments in a pseudo-terminal (`script -e` exits with the command's code). */
async function runInTerminal(file: string): Promise<{ code: number; output: string }> {
  const quoted = `'${file.replace(/'/g, `'\\''`)}'`;
  return promisify(execFile)("script", ["-qec", `timeout ${HANG_MS / 1000} ${quoted}`, "/dev/null"]).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, output: error.stdout ?? "" }),
  );
}

/** Each subcommand of the plugin's entry, with its line in the help. */
const COMMAND_LINES = [
  /^ {2}emulator {7}runs the local emulator of the RimuHosting API/m,
  /^ {2}bill {11}prints the bill of a preview/m,
  /^ {2}drift {10}prints what changed outside Pulumi/m,
  /^ {2}import-file {4}writes the account's VPSs as a `pulumi import --file` document/m,
  /^ {2}killed-orders {2}cancels the orders a killed `pulumi up` left in no state/m,
];

function describeCommandLine(form: string, plugin: () => string): void {
  describe(`pulumi-resource-rimuhosting (${form})`, () => {
    test.each(["--help", "-h"])("%s prints the usage with every command and exits 0", async (flag) => {
      const result = await run(plugin(), [flag]);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout).toMatch(/^Usage: pulumi-resource-rimuhosting <command> \[options\]\n/);
      for (const line of COMMAND_LINES) expect(result.stdout).toMatch(line);
    });

    test("--version prints the version GetPluginInfo answers, and exits 0", async () => {
      expect(await run(plugin(), ["--version"])).toEqual({
        code: 0,
        stdout: `pulumi-resource-rimuhosting ${VERSION}\n`,
        stderr: "",
      });
    });

    test("an unknown command or flag exits 2 with one sentence naming it and the commands", async () => {
      const word = await run(plugin(), ["emulater"]);
      expect(word).toMatchObject({ code: 2, stdout: "" });
      expect(word.stderr).toMatch(/^pulumi-resource-rimuhosting: unknown command 'emulater'. Its commands: /);
      const flag = await run(plugin(), ["--verbose"]);
      expect(flag).toMatchObject({ code: 2, stdout: "" });
      expect(flag.stderr).toMatch(
        /^pulumi-resource-rimuhosting: unknown option '--verbose'; `pulumi-resource-rimuhosting --help` lists its options\. Its commands: /,
      );
      expect(`${word.stderr}${flag.stderr}`).not.toMatch(/\n\s+at /);
    });

    test("no arguments in a terminal: the usage, and exit 2, without a port", async () => {
      const { code, output } = await runInTerminal(plugin());
      expect(code).toBe(2);
      expect(output).toContain("Usage: pulumi-resource-rimuhosting <command> [options]");
      for (const line of COMMAND_LINES) expect(output.replace(/\r\n/g, "\n")).toMatch(line);
      expect(output).not.toMatch(/^\d+\r?$/m);
    });

    test("no arguments and no terminal, as the engine starts it: the port first, it serves, SIGTERM ends it", async () => {
      const child = spawn(plugin(), [], { stdio: ["ignore", "pipe", "pipe"] });
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      try {
        const firstLine = await firstStdoutLine(child);
        expect(firstLine).toMatch(/^\d+$/);
        await new Promise<void>((resolve, reject) => {
          const socket = net.connect(Number(firstLine), "127.0.0.1", () => {
            socket.end();
            resolve();
          });
          socket.once("error", reject);
        });
      } finally {
        child.kill("SIGTERM");
      }
      expect(await exited).toBe(0);
    });
  });
}

describeCommandLine("a checkout's bin/", () => BIN);

let unpacked: string;
beforeAll(async () => {
  unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-command-line-"));
  const tarball = await packPlugin(unpacked);
  await promisify(execFile)("tar", ["-xzf", tarball, "-C", unpacked]);
});
afterAll(() => fs.rmSync(unpacked, { recursive: true, force: true }));

describeCommandLine("the launcher tarball", () => path.join(unpacked, "pulumi-resource-rimuhosting"));

describe("the launcher's start", () => {
  /** The files under `dir`, recursively (none when it does not exist). */
  const filesUnder = (dir: string): string[] =>
    fs.existsSync(dir)
      ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
          fs.statSync(path.join(dir, f)).isFile(),
        )
      : [];

  test("keeps the bundle's compiled code in Node's compile cache (Node's default place, or NODE_COMPILE_CACHE's)", async () => {
    const launcher = path.join(unpacked, "pulumi-resource-rimuhosting");
    const { NODE_COMPILE_CACHE: _given, NODE_DISABLE_COMPILE_CACHE: _off, ...env } = process.env;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "launcher-tmp-"));
    try {
      expect(await run(launcher, ["--version"], { ...env, TMPDIR: tmp })).toMatchObject({
        code: 0,
        stderr: "",
      });
      expect(filesUnder(path.join(tmp, "node-compile-cache")).length).toBeGreaterThan(0);
      const named = path.join(tmp, "named");
      expect(
        await run(launcher, ["--version"], { ...env, TMPDIR: tmp, NODE_COMPILE_CACHE: named }),
      ).toMatchObject({
        code: 0,
        stderr: "",
      });
      expect(filesUnder(named).length).toBeGreaterThan(0);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
