// The YAML quickstart (examples/yaml-quickstart) on the native plugin, through the real CLI against the emulator:
// up, a resize (its preview shows the detailed diff, the restart and the price), refresh with drift and its repair,
// `pulumi import` of a VPS ordered outside Pulumi (the CLI prints the code to paste; pasted, the next preview shows
// no change), and destroy.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Scenario } from "./e2e-support";
import { liveOrders } from "./e2e-support";
import {
  copyExample,
  describeNative,
  nativeOps,
  orderOutsidePulumi,
  pulumiText,
  startNativeScenario,
} from "./native-programs";

jest.setTimeout(300_000);

describeNative("yaml", "examples/yaml-quickstart on the native plugin", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(copyExample("yaml-quickstart"));
  });
  afterAll(async () => s?.close());

  test("up, resize, refresh, import of a VPS ordered outside Pulumi, destroy", async () => {
    const cli = s.stack.cli!;
    const created = await s.stack.up();
    expect(nativeOps(created)).toEqual({ web: "create" });
    const oid = created.outputs.orderOid as number;
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);
    expect(created.outputs.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(JSON.stringify(created.outputs.rootPassword)).toContain("[secret]");

    // The preview of a resize: a detailed diff of memoryMb, the restart it causes, and the price.
    await s.stack.setConfig("memoryMb", { value: "2048" });
    const preview = await pulumiText(cli, "preview", "--diff");
    expect(preview).toMatch(/~ memoryMb\s*: 1024 => 2048/);
    expect(preview).toMatch(/warning: (\[rimuhosting\] )?web: resizing memoryMb restarts the VPS/);
    expect(preview).toMatch(/web: resize 1024 → 2048 MB: \$[\d.]+ → \$[\d.]+ a month/);
    const resized = await s.stack.up();
    expect(nativeOps(resized)).toEqual({ web: "update" });
    expect((await s.client.getOrder(oid)).about_order.vps_parameters?.memory_mb).toBe(2048);

    // Memory resized behind Pulumi's back is drift: refresh records it, the next up puts it back.
    await s.client.changeParameters(oid, { memory_mb: 4096 });
    expect(nativeOps(await s.stack.refresh())).toEqual({ web: "refresh" });
    expect(nativeOps(await s.stack.up())).toEqual({ web: "update" });
    expect((await s.client.getOrder(oid)).about_order.vps_parameters?.memory_mb).toBe(2048);

    // An order placed outside Pulumi: imported by its number, with the code to paste printed by the CLI.
    const outside = await orderOutsidePulumi(s, "legacy.example.com");
    const mark = s.mark();
    const imported = await pulumiText(
      cli,
      "import",
      "rimuhosting:index:Vps",
      "legacy",
      String(outside),
      "--yes",
      "--skip-preview",
    );
    expect(s.mutationsSince(mark)).toEqual([]);
    const code = imported.slice(imported.indexOf("resources:\n"));
    expect(code).toMatch(/^resources:\n {2}legacy:\n {4}type: rimuhosting:Vps\n {4}properties:\n/);
    expect(code).toMatch(/domainName: legacy\.example\.com/);
    expect(code).toMatch(/memoryMb: 1024/);
    expect(code).toMatch(/protect: true/);
    // Pasted into the program (under its resources), the next preview shows no change at all.
    const file = path.join(cli.programDir, "Pulumi.yaml");
    const pasted = code.replace(/^resources:\n/, "").replace(/\n+$/, "\n");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("resources:\n", `resources:\n${pasted}`));
    const after = await pulumiText(cli, "preview", "--diff");
    expect(after).not.toMatch(/to (create|update|replace|delete)/);
    expect(after).toMatch(/3 unchanged/);

    // Unprotected (the pasted code's `protect: true` taken out), destroy cancels both orders.
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/\n {4}options:\n {6}protect: true/, ""));
    await s.stack.up();
    const destroyed = await s.stack.destroy();
    expect(nativeOps(destroyed)).toEqual({ web: "delete", legacy: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
