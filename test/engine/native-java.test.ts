// The Java quickstart (examples/java-quickstart, `runtime: java`, a Maven project) on the native plugin, through the
// real CLI against the emulator, on the Java SDK's release files (built as the release builds them, installed with
// `mvn install:install-file` as docs/java.md says): preview (nothing ordered), up, a priced resize, `pulumi import`
// of a VPS ordered outside Pulumi (the Java host writes the code; pasted into the program, `pulumi preview
// --expect-no-changes` exits 0), drift found by `refresh --preview-only --expect-no-changes` and put back by `up`,
// a budget the resize would break refused at preview, destroy, and an account adopted with `import-file` (the Java
// host writes the whole program, which previews with no change). Maven runs the program for the first preview and
// up, as `pulumi up` does for a user; then the host runs a launcher jar of the same program (java-programs.ts says
// why: CPU).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Scenario } from "./e2e-support";
import { liveOrders } from "./e2e-support";
import { pulumiRun } from "./drift-check";
import { compileProgram, installJavaSdk, mavenOffline, useProgramJar } from "./java-programs";
import {
  copyExample,
  describeNative,
  REPO_ROOT,
  nativeOps,
  orderOutsidePulumi,
  pulumiFailure,
  pulumiText,
  startNativeScenario,
} from "./native-programs";

jest.setTimeout(600_000);

const run = promisify(execFile);

const APP = path.join("src", "main", "java", "myproject", "App.java");
const PLUGIN = path.join(REPO_ROOT, "bin", "pulumi-resource-rimuhosting");

/** The statement of resource `name` in a program `pulumi import --out` wrote (`var legacy = new Vps(…);`). */
function resourceStatement(generated: string, name: string): string {
  const statement = new RegExp(`^ *var ${name} = new Vps\\(.*?\\.build\\(\\)\\);$`, "ms").exec(
    generated,
  )?.[0];
  if (!statement) throw new Error(`the generated program declares no Vps ${name}:\n${generated}`);
  return statement.trim();
}

describeNative("java", "examples/java-quickstart on the Java SDK's release files", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "native-java-"));
  let s: Scenario;
  beforeAll(async () => {
    await installJavaSdk(path.join(scratch, "sdk"));
    const dir = copyExample("java-quickstart");
    mavenOffline(dir);
    s = await startNativeScenario(dir);
  }, 300_000);
  afterAll(async () => {
    await s?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test("preview, up, a priced resize, import with no changes after, drift, the budget, destroy", async () => {
    const cli = s.stack.cli!;
    const app = path.join(cli.programDir, APP);

    // Maven compiles and runs the program, as for a user: the preview orders nothing, up orders the VPS.
    let mark = s.mark();
    const preview = await pulumiText(cli, "preview");
    expect(preview).toMatch(/\+ {2}rimuhosting:index:Vps web create/);
    expect(preview).toMatch(/web: new VPS: \$10\.00 a month/);
    expect(s.mutationsSince(mark)).toEqual([]);
    const created = await s.stack.up();
    expect(nativeOps(created)).toEqual({ web: "create" });
    const oid = created.outputs.orderOid as number;
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);
    expect(created.outputs.monthlyPriceUsd).toBe(10);
    expect(JSON.stringify(created.outputs.rootPassword)).toContain("[secret]");

    // The same program from here on as a launcher jar (no Maven per command).
    await useProgramJar(cli.programDir, "myproject.App");

    // A resize: its preview prices it, up applies it in place.
    await s.stack.setConfig("memoryMb", { value: "2048" });
    const resize = await pulumiText(cli, "preview", "--diff");
    expect(resize).toMatch(/~ memoryMb\s*: 1024 => 2048/);
    expect(resize).toMatch(/web: resize 1024 → 2048 MB: \$10\.00 → \$[\d.]+ a month/);
    const resized = await s.stack.up();
    expect(nativeOps(resized)).toEqual({ web: "update" });
    expect(resized.outputs.monthlyPriceUsd).toBeGreaterThan(10);
    expect((await s.client.getOrder(oid)).about_order.vps_parameters?.memory_mb).toBe(2048);

    // A VPS ordered outside Pulumi, imported: the Java host writes the program; its statement pasted into App.java,
    // the next preview expects no changes and exits 0.
    const outside = await orderOutsidePulumi(s, "legacy.example.com");
    const generated = path.join(scratch, "Imported.java");
    mark = s.mark();
    await pulumiText(
      cli,
      "import",
      "rimuhosting:index:Vps",
      "legacy",
      String(outside),
      "--yes",
      "--protect=false",
      "--out",
      generated,
    );
    expect(s.mutationsSince(mark)).toEqual([]);
    const statement = resourceStatement(fs.readFileSync(generated, "utf8"), "legacy");
    expect(statement).toMatch(/\.domainName\("legacy\.example\.com"\)/);
    expect(statement).toMatch(/\.memoryMb\(1024\)/);
    fs.writeFileSync(
      app,
      fs
        .readFileSync(app, "utf8")
        .replace(
          /^( *)ctx\.export\("ip"/m,
          (line, indent: string) => `${indent}${statement.replace(/\n\s*/g, `\n${indent}    `)}\n${line}`,
        ),
    );
    await compileProgram(cli.programDir);
    const noChanges = await pulumiRun(cli, "preview", "--expect-no-changes", "--diff");
    expect([noChanges.code, noChanges.stdout]).toEqual([0, expect.stringMatching(/3 unchanged/)]);

    // Drift: the imported VPS resized behind Pulumi's back; the check exits non-zero naming it, up puts it back.
    await s.client.changeParameters(outside, { memory_mb: 4096 });
    const drift = await pulumiRun(cli, "refresh", "--preview-only", "--expect-no-changes", "--diff");
    expect([drift.code, drift.stdout]).toEqual([7, expect.stringMatching(/memoryMb\s*: 1024 => 4096/)]);
    expect(nativeOps(await s.stack.refresh())).toEqual({ web: "same", legacy: "refresh" });
    expect(nativeOps(await s.stack.up())).toEqual({ web: "same", legacy: "update" });
    expect((await s.client.getOrder(outside)).about_order.vps_parameters?.memory_mb).toBe(1024);

    // The budget: a monthly limit the next resize would pass is refused at preview, naming the limit; nothing ordered.
    await s.stack.setConfigs({ "rimuhosting:monthlyBudgetUsd": "30", memoryMb: "4096" });
    mark = s.mark();
    const overBudget = await pulumiFailure(cli, "preview");
    expect(overBudget).toMatch(/RIMU_ERR_BUDGET\w*/);
    expect(overBudget).toMatch(/monthlyBudgetUsd/);
    expect(s.mutationsSince(mark)).toEqual([]);

    // Destroy cancels both orders.
    const destroyed = await s.stack.destroy();
    expect(nativeOps(destroyed)).toEqual({ web: "delete", legacy: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);

    // A whole account adopted: import-file lists the two VPSs ordered outside Pulumi, `pulumi import --file` has the
    // Java host write the program declaring them; that program, run as it is written, previews with no change.
    for (const domain of ["shop.example.com", "db.example.com"]) await orderOutsidePulumi(s, domain);
    const vpss = path.join(scratch, "vpss.json");
    await run(PLUGIN, ["import-file", "--stack", cli.name, "--out", vpss], {
      cwd: cli.programDir,
      env: cli.commandEnv(),
    });
    const adopted = path.join(scratch, "Adopted.java");
    const written = await pulumiText(
      cli,
      "import",
      "--file",
      vpss,
      "--protect=false",
      "--out",
      adopted,
      "--yes",
      "--skip-preview",
    );
    expect(written).toMatch(/= 2 imported/);
    const program = fs.readFileSync(adopted, "utf8");
    expect(program).toMatch(/^package generated_program;$/m);
    // Each statement declares its own VPS: the name import-file gave it, its domain name, its size.
    for (const [name, domain] of [
      ["shopExampleCom", "shop.example.com"],
      ["dbExampleCom", "db.example.com"],
    ] as const) {
      const declared = resourceStatement(program, name);
      expect(declared).toContain(`.domainName("${domain}")`);
      expect(declared).toMatch(/\.memoryMb\(1024\)/);
    }
    fs.rmSync(path.dirname(app), { recursive: true });
    fs.mkdirSync(path.join(cli.programDir, "src", "main", "java", "generated_program"));
    fs.renameSync(adopted, path.join(cli.programDir, "src", "main", "java", "generated_program", "App.java"));
    fs.rmSync(path.join(cli.programDir, "target", "classes"), { recursive: true });
    await useProgramJar(cli.programDir, "generated_program.App");
    const adoptedPreview = await pulumiRun(cli, "preview", "--expect-no-changes", "--diff");
    expect([adoptedPreview.code, adoptedPreview.stdout]).toEqual([0, expect.stringMatching(/3 unchanged/)]);
  });
});
