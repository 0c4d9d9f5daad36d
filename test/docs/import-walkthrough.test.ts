/**
 * docs/native-plugin.md's import walkthrough, run as the page gives it on the emulator, in a YAML project on this
 * checkout's plugin: the order placed outside Pulumi with the page's curl line, `pulumi import` and the code it
 * prints pasted into Pulumi.yaml, a preview with no change, and the destroy, which the page's `pulumi state
 * unprotect` lets through (without it, the destroy refuses the protected resource). What the test changes in a
 * line: the emulator's port for 8780, the order number for <orderOid>, the project's name for <project>, and
 * `--yes` for the commands that would ask.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { offlineCliEnv } from "../engine/cli-stack";
import { describeNative, pluginEntry } from "../engine/native-programs";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { commandLines, recipe } from "./support/code-blocks";
import { shell, shellOk } from "./support/shell";
import { dirOnPath, userEnv } from "./support/user-env";

/** The YAML language host's directory, which the page's language-hosts recipe puts on PATH. */
const YAML_HOST = dirOnPath("pulumi-language-yaml");

jest.setTimeout(300_000);

const PROJECT = "legacy-import";

describeNative("yaml", "docs/native-plugin.md: the import walkthrough on the emulator", () => {
  let emulator: TestEmulator;
  let dir: string;
  let env: Record<string, string>;
  const run = (line: string) => shellOk(line, { cwd: dir, env, clean: true });
  const liveOrders = () => emulator.snapshot().filter((order) => !order.cancelled);

  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-walkthrough-"));
    fs.mkdirSync(path.join(dir, "backend"));
    // The page's environment: the YAML host on PATH (its language-hosts recipe), the CLI's offline settings.
    env = userEnv("docs/native-plugin.md", {}, offlineCliEnv(path.join(dir, "backend")), YAML_HOST);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime: yaml\n${pluginEntry()}`);
    await run("pulumi stack init dev --non-interactive");
    await run(`pulumi config set rimuhosting:baseUrl ${emulator.baseUrl}`);
    await run(`pulumi config set --secret rimuhosting:apiKey ${DEMO_API_KEY}`);
  });
  afterAll(async () => {
    await emulator?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test("outside order, import, paste, no change, unprotect, destroy", async () => {
    const [order] = commandLines(recipe("docs/native-plugin.md#outside-order"));
    const answer = await run(order!.replace("http://127.0.0.1:8780/r", emulator.baseUrl));
    const oid = /"order_oid":\s*(\d+)/.exec(answer)?.[1];
    expect(oid).toMatch(/^\d+$/);
    expect(liveOrders().map((o) => o.domainName)).toEqual(["legacy.example.com"]);

    const [importLine, previewLine, unprotectLine, destroyLine, ...rest] = commandLines(
      recipe("docs/native-plugin.md#import-walkthrough"),
    );
    expect(rest).toEqual([]);
    const imported = await run(`${importLine!.replace("<orderOid>", oid!)} --yes`);
    const code = imported.slice(imported.indexOf("resources:\n"));
    expect(code).toMatch(/^resources:\n {2}legacy:\n {4}type: rimuhosting:Vps\n/);
    expect(code).toMatch(/protect: true/);
    fs.appendFileSync(path.join(dir, "Pulumi.yaml"), code.replace(/\n+$/, "\n"));

    const preview = await run(previewLine!);
    expect(preview).not.toMatch(/to (create|update|replace|delete)/);
    expect(preview).toMatch(/2 unchanged/);

    // Without the page's unprotect, the destroy refuses the imported VPS and cancels nothing.
    const refused = await shell(`${destroyLine} --yes`, { cwd: dir, env, clean: true });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/protected/);
    expect(liveOrders()).toHaveLength(1);

    await run(`${unprotectLine!.replace("<project>", PROJECT)} --yes`);
    await run(`${destroyLine} --yes`);
    expect(liveOrders()).toEqual([]);
  });
});
