/**
 * The `rimuhosting-import-file` command as a user runs it (the built bin, dist/provider/adopt/cli.js, in a process
 * of its own) and the native plugin's `import-file` command (a checkout's bin/ launcher, which loads the same code
 * as a part): the same document and messages from both, against the emulator, with the settings from the
 * environment. test/adopt/import-file.test.ts covers what the document holds.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { expectHelpAtTerminal, runInTerminal } from "../helpers/in-terminal";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";

const REPO_ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(REPO_ROOT, "dist/provider/adopt/cli.js");
const PLUGIN = path.join(REPO_ROOT, "bin/pulumi-resource-rimuhosting");
/** Where the commands run: no Pulumi project, so no stack's state is read (the checkout's own Pulumi.yaml would be). */
const CWD = os.tmpdir();
/** The line that says no stack's state was read, outside a project. */
const NO_STATES =
  "note: there is no Pulumi project (Pulumi.yaml) here, so no stack's state was read. A VPS a stack adopted " +
  "(adoptOrderOid) or imported carries no mark on its order, so only the VPSs a stack created were left out. Run " +
  "this in the directory of a Pulumi project whose backend (`pulumi login`) holds your stacks to leave out the VPSs " +
  "they manage.\n";
/** Why import-file, given nothing at a terminal, prints its help instead of the document. */
const NO_OPTIONS_AT_TERMINAL = "no options given, and standard output is a terminal: ";
jest.setTimeout(120_000);

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
  for (const domainName of ["a.example.com", "b.example.com"])
    await emulator.api("POST", "/orders/new-vps", {
      new_order_request: { instantiation_options: { domain_name: domainName, distro: "deb12.64" } },
    });
});
afterAll(() => emulator?.close());

/** Runs the command in a process of its own (asynchronously: the emulator answers from this process). */
function run(command: "bin" | "plugin", args: string[], settings: NodeJS.ProcessEnv = {}) {
  const [exe, argv] =
    command === "bin" ? [process.execPath, [BIN, ...args]] : [PLUGIN, ["import-file", ...args]];
  const env = {
    ...process.env,
    RIMUHOSTING_APIKEY: DEMO_API_KEY,
    RIMUHOSTING_BASEURL: emulator.baseUrl,
    ...settings,
  };
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(exe, argv, { encoding: "utf8", env, cwd: CWD, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

test("rimuhosting-import-file and the plugin's import-file write the same document", async () => {
  const bin = await run("bin", []);
  expect(bin.status).toBe(0);
  expect(JSON.parse(bin.stdout)).toEqual({
    resources: [
      { type: "rimuhosting:index:Vps", name: "aExampleCom", id: expect.stringMatching(/^\d+$/) },
      { type: "rimuhosting:index:Vps", name: "bExampleCom", id: expect.stringMatching(/^\d+$/) },
    ],
  });
  expect(bin.stderr).toBe(
    `rimuhosting-import-file: ${NO_STATES}` +
      "rimuhosting-import-file: 2 VPSs to adopt. Next: pulumi import --file <file> (it writes the program that declares them).\n",
  );
  const plugin = await run("plugin", []);
  expect(plugin).toEqual({
    status: 0,
    stdout: bin.stdout,
    stderr: bin.stderr.replaceAll("rimuhosting-import-file", "pulumi-resource-rimuhosting import-file"),
  });
  expect(await run("plugin", ["--help"])).toMatchObject({
    status: 0,
    stdout: expect.stringMatching(/^Usage: pulumi-resource-rimuhosting import-file \[options\]\n/),
  });
  expect((await run("plugin", ["--dc", "nowhere"])).status).toBe(2);
});

test("an address that is no URL: exit 2 from both, naming the setting and how to fix it, never its value", async () => {
  for (const url of ["not-a-url", "https://user:secret@example.com/r"]) {
    const bin = await run("bin", [], { RIMUHOSTING_BASEURL: url });
    expect(bin).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "rimuhosting-import-file: RIMUHOSTING_BASEURL must be an http(s) URL without credentials, such as " +
        "https://rimuhosting.com/r; set it to the API's address, or to the emulator's (its banner prints it).\n",
    });
    expect(await run("plugin", [], { RIMUHOSTING_BASEURL: url })).toEqual({
      ...bin,
      stderr: bin.stderr.replace("rimuhosting-import-file", "pulumi-resource-rimuhosting import-file"),
    });
  }
});

test("the retries and pace as the plugin reads them: RIMUHOSTING_RETRYLIMIT 0 fails on a 429, 1 retries it", async () => {
  const rateLimited = () =>
    emulator.injectFault({
      route: "listOrders",
      kind: "status",
      status: 429,
      retryAfterSeconds: 0,
      times: 1,
    });
  rateLimited();
  const noRetry = await run("bin", [], { RIMUHOSTING_RETRYLIMIT: "0" });
  expect({ status: noRetry.status, stdout: noRetry.stdout }).toEqual({ status: 2, stdout: "" });
  expect(noRetry.stderr).toContain("RIMUHOSTING_RETRYLIMIT");
  rateLimited();
  expect((await run("plugin", [], { RIMUHOSTING_RETRYLIMIT: "1" })).status).toBe(0);
  // A value that is no number: refused before any call, naming the variable and how to fix it.
  const bad = await run("bin", [], { RIMUHOSTING_REQUESTSPERSECOND: "fast" });
  expect(bad).toEqual({
    status: 2,
    stdout: "",
    stderr:
      'rimuhosting-import-file: RIMUHOSTING_REQUESTSPERSECOND must be a number, such as 5 (given: "fast"): fix it ' +
      "in the environment (the variable is read when rimuhosting:requestsPerSecond is not set), or remove it for " +
      "the default.\n",
  });
});

test.each([
  ["rimuhosting-import-file", process.execPath, [BIN]],
  ["pulumi-resource-rimuhosting import-file", PLUGIN, ["import-file"]],
])(
  "%s at a terminal, nothing given: says so with the help and exits 2; `> file` still writes the document",
  async (name, exe, args) => {
    // A document dumped on the screen is not what a person at a terminal wants (issue 56).
    const env = { ...process.env, RIMUHOSTING_APIKEY: DEMO_API_KEY, RIMUHOSTING_BASEURL: emulator.baseUrl };
    await expectHelpAtTerminal(name, exe, args, "\\[options\\]", NO_OPTIONS_AT_TERMINAL, { env, cwd: CWD });
    // Standard input still a terminal, standard output a file, as with `rimuhosting-import-file > import.json`.
    const out = path.join(os.tmpdir(), `import-file-${process.pid}-${args.length}.json`);
    const quoted = [exe, ...args].map((word) => `'${word}'`).join(" ");
    const redirected = await runInTerminal("bash", ["-c", `${quoted} > '${out}'`], { env, cwd: CWD });
    try {
      expect(redirected).toMatchObject({
        code: 0,
        output: expect.stringContaining(`${name}: 2 VPSs to adopt.`),
      });
      expect(JSON.parse(fs.readFileSync(out, "utf8")).resources).toHaveLength(2);
    } finally {
      fs.rmSync(out, { force: true });
    }
  },
);
