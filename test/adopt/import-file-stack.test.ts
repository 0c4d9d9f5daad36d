/**
 * `import-file --stack <name>` (provider/adopt/stack-settings.ts): the settings come from that stack's config, read
 * with `pulumi config`, never from the environment when the stack's config cannot be read (a typo in its name, no
 * project); and in a project whose backend's states cannot be read (`pulumi stack ls --all` fails), no VPS written
 * and exit 2 (issue 83). A stand-in `pulumi` on PATH plays the CLI, so this file starts a process, which the unit
 * suite refuses (test/helpers/needs-processes.js lists it); import-file.test.ts has the rest.
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
  // A project with a stand-in `pulumi` first on PATH: it knows the stack `dev` (and `prod`'s config, whose state
  // cannot be exported, as a backend may fail), as `pulumi config` does, and
  // lists no stack (`pulumi stack ls --all`), or fails to when STAND_IN_LS_FAILS is set, as a backend may.
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
      `#!/bin/sh\ncase "$*" in *"--stack dev"*|"config --json --show-secrets --stack prod") echo '${config}'; exit 0;;\n` +
        `"stack export --stack prod") echo "error: could not read postgres://u:s3cret@db/state" >&2; exit 255;;\n` +
        `"stack ls --all --json") [ -z "$STAND_IN_LS_FAILS" ] && { echo '[]'; exit 0; }\n` +
        `  echo "error: could not list stacks: timeout: context deadline exceeded" >&2; exit 255;; esac\n` +
        `echo "error: no stack named '$5' found" >&2\nexit 255\n`,
      { mode: 0o755 },
    );
    pathWithIt = `${bin}${path.delimiter}${process.env.PATH ?? ""}`;
  });
  afterAll(() => {
    fs.rmSync(project, { recursive: true, force: true });
  });

  async function runIn(
    cwd: string,
    args: string[],
    envKey = DEMO_API_KEY,
    more: Record<string, string> = {},
  ) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out: string[] = [];
    const err: string[] = [];
    stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    stderr.on("data", (chunk: Buffer) => err.push(chunk.toString()));
    // The environment's key is a working one by default: a fallback to it would succeed, and so hide the typo.
    const env = {
      PATH: pathWithIt,
      RIMUHOSTING_APIKEY: envKey,
      RIMUHOSTING_BASEURL: emulator.baseUrl,
      ...more,
    };
    const code = await runImportFile(args, { stdout, stderr, env, cwd }, "import-file");
    return { code, stderr: err.join(""), ...(out.length > 0 ? { stdout: out.join("") } : {}) };
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

  test("the stack's own state cannot be read: no VPS written, exit 2, why (masked) and what to do", async () => {
    const out = path.join(project, "vpss.json");
    const failed = await runIn(project, ["--stack", "prod", "--out", out]);
    expect(failed).toMatchObject({ code: 2 });
    expect(failed.stderr).toMatch(
      /^import-file: \[RIMU_ERR_BACKEND_UNREAD\] the state of stack prod could not be read: .*postgres:\/\/u:\*\*\*@db\/state/,
    );
    expect(failed.stderr).not.toContain("s3cret");
    expect(fs.existsSync(out)).toBe(false);
  });

  test("the backend's states cannot be read: no VPS written, exit 2, why and what to do", async () => {
    const out = path.join(project, "vpss.json");
    const failed = await runIn(project, ["--stack", "dev", "--out", out], DEMO_API_KEY, {
      STAND_IN_LS_FAILS: "1",
    });
    expect(failed).toEqual({
      code: 2,
      stderr:
        "import-file: [RIMU_ERR_BACKEND_UNREAD] the states of the stacks in this project's backend could not be " +
        "read: `pulumi stack ls --all --json` failed: error: could not list stacks: timeout: context deadline " +
        "exceeded. A VPS a stack adopted (adoptOrderOid) or imported carries no mark on its order, so no VPS could " +
        "be checked, and none was written (run again with --include-managed to write every VPS unchecked). Nothing " +
        "was written, cancelled or taken back. Fix the cause named above and run the command again; where `pulumi " +
        "stack ls --all` does not finish on a PostgreSQL or S3 backend, run it with PULUMI_DIY_BACKEND_PARALLEL=1 " +
        "(docs/troubleshooting.md).\n",
    });
    expect(fs.existsSync(out)).toBe(false);
    // Asked for every VPS, unchecked: written, and the note says what was not checked.
    const all = await runIn(project, ["--stack", "dev", "--include-managed"], DEMO_API_KEY, {
      STAND_IN_LS_FAILS: "1",
    });
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('"name": "web1ExampleCom"');
    expect(all.stderr).toContain("import-file: note: `pulumi stack ls --all --json` failed");
  });
});
