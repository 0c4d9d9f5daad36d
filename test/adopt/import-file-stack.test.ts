/**
 * `import-file --stack <name>` (provider/adopt/stack-settings.ts): the settings come from that stack's config, read
 * with `pulumi config`, never from the environment when the stack's config cannot be read (a typo in its name, no
 * project). A stand-in `pulumi` on PATH plays the CLI, so this file starts a process, which the unit suite refuses
 * (test/helpers/needs-processes.js lists it); import-file.test.ts has the rest.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { DEMO_API_KEY } from "../../emulator/index";
import { runImportFile } from "../../provider/adopt/cli";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";

let emulator: TestEmulator;
/** A directory with no Pulumi project. */
let dir: string;

beforeAll(async () => {
  emulator = await startTestEmulator();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-file-stack-none-"));
  // One VPS on the account, so that a run that reads the settings has something to write.
  const answer = await emulator.api("POST", "/orders/new-vps", {
    new_order_request: {
      instantiation_options: { domain_name: "web-1.example.com", distro: "deb12.64" },
      dc_location: "DCDALLAS",
    },
  });
  expect(answer.status).toBe(200);
});
afterAll(async () => {
  await emulator?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("--stack", () => {
  // A project with a stand-in `pulumi` first on PATH: it knows the stack `dev` only, as `pulumi config` does.
  let project: string;
  let pathWithIt: string;
  beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "import-file-stack-"));
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: adopt\nruntime: yaml\n");
    const bin = path.join(project, "bin");
    fs.mkdirSync(bin);
    const config = JSON.stringify({
      "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
      "rimuhosting:baseUrl": { value: emulator.baseUrl, secret: false },
    });
    fs.writeFileSync(
      path.join(bin, "pulumi"),
      `#!/bin/sh\ncase "$*" in *"--stack dev"*) echo '${config}'; exit 0;; esac\n` +
        `echo "error: no stack named '$5' found" >&2\nexit 255\n`,
      { mode: 0o755 },
    );
    pathWithIt = `${bin}${path.delimiter}${process.env.PATH ?? ""}`;
  });
  afterAll(() => {
    fs.rmSync(project, { recursive: true, force: true });
  });

  async function runIn(cwd: string, args: string[], envKey = DEMO_API_KEY) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const err: string[] = [];
    stderr.on("data", (chunk: Buffer) => err.push(chunk.toString()));
    // The environment's key is a working one by default: a fallback to it would succeed, and so hide the typo.
    const env = { PATH: pathWithIt, RIMUHOSTING_APIKEY: envKey, RIMUHOSTING_BASEURL: emulator.baseUrl };
    const code = await runImportFile(args, { stdout, stderr, env, cwd }, "import-file");
    return { code, stderr: err.join("") };
  }

  test("a stack whose config cannot be read: exit 2 naming it, never the environment's key", async () => {
    const typo = await runIn(project, ["--stack", "dve"]);
    expect(typo).toEqual({
      code: 2,
      stderr: expect.stringMatching(
        /^import-file: --stack dve: cannot read that stack's config \(`pulumi config --stack dve`: error: no stack named 'dve' found\), so there is no API key to use\. /,
      ),
    });
    const noProject = await runIn(dir, ["--stack", "dev"]);
    expect(noProject).toEqual({
      code: 2,
      stderr: expect.stringMatching(
        /^import-file: --stack dev: cannot read that stack's config .*no Pulumi project/,
      ),
    });
  });

  test("a stack that is there: its config's key is used, not the environment's", async () => {
    const refused = "12345678901234567890123456789099";
    expect(await runIn(project, ["--stack", "dev"], refused)).toMatchObject({ code: 0 });
  });
});
