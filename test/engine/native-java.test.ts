// The Java quickstart (examples/java-quickstart, `runtime: java`, a Maven project) on the native plugin, through the
// real CLI against the emulator, on the Java SDK's release files (built as the release builds them, installed with
// `mvn install:install-file` as docs/java.md says): preview (nothing ordered), up, a priced resize, drift found by
// `refresh --preview-only --expect-no-changes` and put back by `up`, destroy. Maven runs the program for the first
// preview and up, as `pulumi up` does for a user; then the host runs a launcher jar of the same program
// (java-programs.ts says why: CPU). docs/java.md's import, account adoption and budget steps run as the page gives
// them, Maven and all, in test/docs/java-import.test.ts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Scenario } from "./e2e-support";
import { liveOrders } from "./e2e-support";
import { pulumiRun } from "./drift-check";
import { installJavaSdk, mavenOffline, useProgramJar } from "./java-programs";
import { copyExample, describeNative, nativeOps, pulumiText, startNativeScenario } from "./native-programs";

jest.setTimeout(600_000);

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

  test("preview, up, a priced resize, drift, destroy", async () => {
    const cli = s.stack.cli!;

    // Maven compiles and runs the program, as for a user: the preview orders nothing, up orders the VPS.
    const mark = s.mark();
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

    // Drift: the VPS resized behind Pulumi's back; the check exits non-zero naming it, up puts it back.
    await s.client.changeParameters(oid, { memory_mb: 4096 });
    const drift = await pulumiRun(cli, "refresh", "--preview-only", "--expect-no-changes", "--diff");
    expect([drift.code, drift.stdout]).toEqual([7, expect.stringMatching(/memoryMb\s*: 2048 => 4096/)]);
    expect(nativeOps(await s.stack.refresh())).toEqual({ web: "refresh" });
    expect(nativeOps(await s.stack.up())).toEqual({ web: "update" });
    expect((await s.client.getOrder(oid)).about_order.vps_parameters?.memory_mb).toBe(2048);

    // Destroy cancels the order.
    const destroyed = await s.stack.destroy();
    expect(nativeOps(destroyed)).toEqual({ web: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
