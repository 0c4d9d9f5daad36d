/**
 * docs/java.md's import, account adoption, budget and release steps, run as the page gives them on the emulator, in
 * the Java quickstart as the page writes it (examples/java-quickstart, a fresh Maven project) on this checkout's
 * plugin and Java SDK (its release files built and installed into Maven's local repository as the page installs
 * them). Maven compiles and runs the program at every command, as for a user. The steps, in order:
 * - the page's "Try it" lines up to `pulumi up`: the `web` VPS;
 * - `pulumi import` of an order placed outside Pulumi, its statement and the options' import pasted into App.java as
 *   the page says, and the page's preview, which exits 0 with nothing to change;
 * - the budget: the page's lines, the refusal printed as the page shows it (its key lines, and no stack trace);
 * - `import-file` of two more orders, the generated class kept beside App.java and called from it as the page says,
 *   and the page's preview: rc 0, web and legacy still declared;
 * - `pulumi destroy` refused while the imported VPSs are protected, then the page's release: every order cancelled.
 * What the test changes in a line: the emulator's URL for 8780's, the order number for <orderOid>, this checkout's
 * plugin executable for `rimuhosting` in `pulumi plugin run` (the page's user installed the plugin), and `--yes` for
 * the commands that would ask (no terminal here). Between the budget's lines and the next step it removes the two
 * settings the budget's lines set, which the page's reader sets only to see the refusal.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { offlineCliEnv } from "../engine/cli-stack";
import { liveOrders } from "../engine/e2e-support";
import { installJavaSdk, mavenOffline } from "../engine/java-programs";
import {
  PLUGIN_DIR,
  REPO_ROOT,
  copyExample,
  describeNative,
  orderOutsidePulumi,
} from "../engine/native-programs";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { commandLines, recipe, shownOutput } from "./support/code-blocks";
import { shell, shellOk, shownLinePattern } from "./support/shell";
import { dirOnPath, userEnv } from "./support/user-env";

jest.setTimeout(600_000);

const APP = path.join("src", "main", "java", "myproject", "App.java");

/** The page's words for the error the Java SDK adds to a refused preview, quoted by docs/java.md#the-budget. */
const SDK_REPORT =
  "io.grpc.StatusRuntimeException: UNAVAILABLE: resource monitor shut down while waiting on step's done channel";

/** The statement of resource `name` in a program `pulumi import --out` wrote (`var legacy = new Vps(…);`). */
function resourceStatement(generated: string, name: string): string {
  const statement = new RegExp(`^ *var ${name} = new Vps\\(.*?\\.build\\(\\)\\);$`, "ms").exec(
    generated,
  )?.[0];
  if (!statement) throw new Error(`the generated program declares no Vps ${name}:\n${generated}`);
  return statement;
}

/** `source` with `text` on the lines after the last match of `pattern` (a /g pattern); fails if none matches. */
function pasteAfterLast(source: string, pattern: RegExp, text: string): string {
  const last = [...source.matchAll(pattern)].at(-1);
  if (!last) throw new Error(`nothing in App.java matches ${pattern}:\n${source}`);
  const at = last.index + last[0].length;
  return `${source.slice(0, at)}\n${text}${source.slice(at)}`;
}

describeNative("java", "docs/java.md: import, an account adopted, the budget, release", () => {
  let emulator: TestEmulator;
  let scratch: string;
  let dir: string;
  let env: Record<string, string>;
  const run = (line: string) => shellOk(line, { cwd: dir, env, clean: true });
  const attempt = (line: string) => shell(line, { cwd: dir, env, clean: true });
  const ours = (line: string) => line.replace("http://127.0.0.1:8780/r", emulator.baseUrl);
  const app = () => path.join(dir, APP);
  const live = () => liveOrders(emulator).map((o) => o.orderOid);
  const page = fs.readFileSync(path.join(REPO_ROOT, "docs", "java.md"), "utf8");

  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "java-import-"));
    await installJavaSdk(path.join(scratch, "sdk"));
    dir = copyExample("java-quickstart");
    mavenOffline(dir);
    fs.mkdirSync(path.join(scratch, "backend"));
    // The page's environment: the Java host where scripts/language-hosts.sh puts it, and after everything else on
    // PATH the JDK and Maven (their directory may hold an older node, which the plugin must not find first).
    env = userEnv(
      "docs/java.md",
      {},
      offlineCliEnv(path.join(scratch, "backend")),
      dirOnPath("pulumi-language-java"),
    );
    env.PATH = [env.PATH, ...dirOnPath("mvn"), ...dirOnPath("java")].join(path.delimiter);
    // "Try it without an account", up to its `pulumi up`: the quickstart's `web` VPS.
    const tryIt = commandLines(recipe("docs/java.md#try-it"));
    expect(tryIt.slice(0, 4).map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
      "pulumi stack init",
      "pulumi config set",
      "pulumi config set",
      "pulumi up",
    ]);
    for (const line of tryIt.slice(0, 3)) await run(ours(line));
    await run(`${tryIt[3]!} --yes`);
    expect(live()).toHaveLength(1);
  }, 600_000);
  afterAll(async () => {
    await emulator?.close();
    for (const scratchDir of [dir, scratch])
      if (scratchDir) fs.rmSync(scratchDir, { recursive: true, force: true });
  });

  test("import: the statement and the options' import pasted into App.java, then no change", async () => {
    const oid = await orderOutsidePulumi({ emulator }, "legacy.example.com");
    const [importLine, ...rest] = commandLines(recipe("docs/java.md#import"));
    expect(rest).toEqual([]);
    await run(`${importLine!.replace("<orderOid>", String(oid))} --yes`);

    // As the page says: the statement after the `web` VPS, the options' import after App.java's imports.
    const statement = resourceStatement(fs.readFileSync(path.join(dir, "Imported.java"), "utf8"), "legacy");
    expect(statement).toContain('.domainName("legacy.example.com")');
    expect(statement).toMatch(/CustomResourceOptions\.builder\(\)\s*\.protect\(true\)\s*\.build\(\)\);$/);
    let source = fs.readFileSync(app(), "utf8");
    source = pasteAfterLast(source, /^import .*;$/gm, recipe("docs/java.md#import-options").trim());
    // The statement as the generated program indents it (8 spaces), 4 more inside App.java's lambda.
    source = pasteAfterLast(
      source,
      /^ *var web = new Vps\(.*?\.build\(\)\);$/gms,
      statement.replace(/^/gm, "    "),
    );
    fs.writeFileSync(app(), source);

    const [preview] = commandLines(recipe("docs/java.md#import-check"));
    const checked = await attempt(preview!);
    expect([checked.code, checked.output]).toEqual([0, expect.stringMatching(/3 unchanged/)]);
  });

  test("the budget: the refusal as the page shows it, nothing ordered", async () => {
    const before = emulator.snapshot();
    const steps = recipe("docs/java.md#budget");
    const [budget, memory, preview, ...rest] = commandLines(steps);
    expect(rest).toEqual([]);
    await run(budget!);
    await run(memory!);
    const refused = await attempt(preview!);
    expect(refused.code).toBe(1);
    const shown = shownOutput(steps).filter((line) => line.trim() !== "…");
    expect(shown.length).toBeGreaterThanOrEqual(3);
    for (const line of shown) expect(refused.output).toMatch(shownLinePattern(line));
    // The quickstart keeps SLF4J's notice and the SDK's second copy of its report (java.util.logging) out.
    expect(refused.output).not.toMatch(/SLF4J|SEVERE:/);
    // The Java SDK's report of the call the engine left unanswered, when it comes: the one the page quotes, once.
    if (/unhandled exception/.test(refused.output)) {
      expect(page).toContain(`\`${SDK_REPORT}\``);
      expect(refused.output).toContain(SDK_REPORT);
      expect(refused.output.match(/^\s+at io\.grpc\.Status\.asRuntimeException\(/gm)).toHaveLength(1);
    }
    expect(emulator.snapshot()).toEqual(before);
    // Not the page's: the two settings removed again, as a reader does after trying the budget.
    await run("pulumi config rm memoryMb");
    await run("pulumi config rm rimuhosting:monthlyBudgetUsd");
  });

  test("import-file: the generated class kept beside App.java and called from it, then no change", async () => {
    for (const domain of ["shop.example.com", "db.example.com"])
      await orderOutsidePulumi({ emulator }, domain);
    const [importFile, importLine, move, ...rest] = commandLines(recipe("docs/java.md#adopt-account"));
    expect(rest).toEqual([]);
    const plugin = path.join(PLUGIN_DIR, "pulumi-resource-rimuhosting");
    const listed = await run(
      importFile!.replace("--kind resource rimuhosting --", `--kind resource ${plugin} --`),
    );
    expect(listed).toContain("2 VPSs to adopt, written to vpss.json.");
    expect(await run(importLine!)).toMatch(/= 2 imported/);
    await run(move!);
    const generated = fs.readFileSync(path.join(dir, "src/main/java/generated_program/App.java"), "utf8");
    expect(generated).toMatch(/public static void stack\(Context ctx\)/);

    // As the page says: the call as the last statement of the lambda App.java gives Pulumi.run.
    const source = fs.readFileSync(app(), "utf8");
    fs.writeFileSync(
      app(),
      pasteAfterLast(source, /^ *ctx\.export\(.*\);$/gm, recipe("docs/java.md#adopt-call").trimEnd()),
    );

    const [preview] = commandLines(recipe("docs/java.md#adopt-check"));
    const checked = await attempt(preview!);
    expect([checked.code, checked.output]).toEqual([0, expect.stringMatching(/5 unchanged/)]);
    expect(checked.output).not.toMatch(/delete|create/);
  });

  test("destroy refused while the imported VPSs are protected; the page's release cancels them all", async () => {
    const [unprotect, destroy, ...rest] = commandLines(recipe("docs/java.md#release"));
    expect(rest).toEqual([]);
    const running = live();
    expect(running).toHaveLength(4);
    const refused = await attempt(`${destroy!} --yes`);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/protect/);
    expect(live()).toEqual(running);

    await run(`${unprotect!} --yes`);
    await run(`${destroy!} --yes`);
    expect(live()).toEqual([]);
  });
});
