/**
 * docs/native-plugin.md's "Bring an existing account under Pulumi", run as the page gives it on the emulator, in a
 * YAML project on this checkout's plugin: three VPSs ordered outside Pulumi and one a stack created; the page's four
 * lines then adopt the three, leave the stack's one out with the page's message, write the program, and preview it
 * with no change. What the test changes in a line: the checkout's plugin executable for `rimuhosting` in `pulumi
 * plugin run` (the page's user has the plugin installed), and the stack's settings point at the emulator, while the
 * environment holds settings that would fail, which the stack's config overrides.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { CREATION_NONCE_KEY, CREATION_TOKEN_KEY } from "../../provider/client/index";
import { offlineCliEnv } from "../engine/cli-stack";
import { PLUGIN_DIR, describeNative, pluginEntry } from "../engine/native-programs";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { commandLines, recipe } from "./support/code-blocks";
import { shellOk } from "./support/shell";
import { dirOnPath, userEnv } from "./support/user-env";

/** The YAML language host's directory, which the page's language-hosts recipe puts on PATH. */
const YAML_HOST = dirOnPath("pulumi-language-yaml");

jest.setTimeout(300_000);

describeNative("yaml", "docs/native-plugin.md: bring an existing account under Pulumi", () => {
  let emulator: TestEmulator;
  let dir: string;
  let env: Record<string, string>;
  const run = (line: string) => shellOk(line, { cwd: dir, env, clean: true });

  async function order(domainName: string, token?: string): Promise<number> {
    const placed = await emulator.api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
      "POST",
      "/orders/new-vps",
      {
        new_order_request: {
          instantiation_options: { domain_name: domainName, distro: "deb12.64" },
          // With a token, as the plugin's create places it: its creation token and the state's nonce.
          meta_data:
            token === undefined
              ? []
              : [
                  { key_name: CREATION_TOKEN_KEY, value: token },
                  { key_name: CREATION_NONCE_KEY, value: "0123456789abcdef0123456789abcdef" },
                ],
        },
      },
    );
    return placed.body.post_new_vps_response.about_order.order_oid;
  }

  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "adopt-account-"));
    fs.mkdirSync(path.join(dir, "backend"));
    // Settings in the environment that would fail: the stack's config comes first, as for the plugin.
    env = userEnv(
      "docs/native-plugin.md",
      { RIMUHOSTING_APIKEY: "99999999999999999999999999999999", RIMUHOSTING_BASEURL: "http://127.0.0.1:9/r" },
      offlineCliEnv(path.join(dir, "backend")),
      YAML_HOST, // the page's language-hosts recipe puts it on PATH
    );
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: adopt-account\nruntime: yaml\n${pluginEntry()}`);
    await run("pulumi stack init dev --non-interactive");
    await run(`pulumi config set rimuhosting:baseUrl ${emulator.baseUrl}`);
    await run(`pulumi config set --secret rimuhosting:apiKey ${DEMO_API_KEY}`);
  });
  afterAll(async () => {
    await emulator?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test("import-file, pulumi import --file, the program in place, a preview with no change", async () => {
    for (const name of ["web-1.example.com", "web-2.example.com", "db.example.com"]) await order(name);
    const stacks = await order("ci.example.com", "vps-0123456789abcdef0123456789abcdef");

    const [importFile, importLine, move, preview, ...rest] = commandLines(
      recipe("docs/native-plugin.md#adopt-account"),
    );
    expect(rest).toEqual([]);
    const plugin = path.join(PLUGIN_DIR, "pulumi-resource-rimuhosting");
    const listed = await run(
      importFile!.replace("--kind resource rimuhosting --", `--kind resource ${plugin} --`),
    );
    expect(listed).toContain(
      `left out 1 VPS that a Pulumi stack manages: ci.example.com (order ${stacks}: a stack created it)`,
    );
    expect(listed).toContain("3 VPSs to adopt, written to vpss.json.");

    expect(await run(importLine!)).toMatch(/= 3 imported/);
    await run(move!);
    const program = fs.readFileSync(path.join(dir, "Main.yaml"), "utf8");
    for (const name of ["web1ExampleCom", "web2ExampleCom", "dbExampleCom"])
      expect(program).toContain(`  ${name}:\n`);
    expect(program).toMatch(/protect: true/);
    expect(program).not.toContain("ci.example.com");

    expect(await run(preview!)).toMatch(/4 unchanged/);
  });
});
