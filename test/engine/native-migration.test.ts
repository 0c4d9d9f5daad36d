// Moving a VPS from the dynamic Vps to the native resource without ordering it again, as docs/native-plugin.md tells
// a TypeScript user to: `pulumi state delete` the dynamic one, `pulumi import` the order as the native resource,
// switch the program to the generated Node.js SDK. The next preview shows no change, the next up changes nothing, and
// the one order is cancelled by destroy. Through the real CLI, with the Node.js language host.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeCliOnly } from "./describe-cli";
import { liveOrders, VPS_TYPE, type Scenario } from "./e2e-support";
import { checkpointOf } from "./kill-run";
import { packNodejsSdk } from "../../tools/release/sdk-packages";
import {
  linkPackages,
  NATIVE_VPS_TYPE,
  nativeOps,
  PLUGIN_ENTRY,
  pulumiText,
  REPO_ROOT,
  startNativeScenario,
} from "./native-programs";

jest.setTimeout(300_000);

/** One program, either front end: `native: true` in the stack config switches it to the generated SDK. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { Vps } from "pulumi-rimuhosting";
import * as rimuhosting from "@pulumi-rimuhosting/rimuhosting";

const args = {
  domainName: "moved.example.com",
  dcLocation: "DCDALLAS",
  distro: "deb12.64",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  // What the SDK sends when it is left out (the schema's default): the same on both sides, so both derive the same
  // creation token, and the imported state must own the order to be allowed to keep it.
  ipCount: 1,
} as const;
const web = new pulumi.Config().getBoolean("native")
  ? new rimuhosting.Vps("web", args)
  : new Vps("web", args);
export const orderOid = web.orderOid;
`;

describeCliOnly("a VPS moved from the dynamic Vps to the native resource", () => {
  let s: Scenario;
  let sdk: string;
  beforeAll(async () => {
    // The Node.js SDK as a release ships it (its npm tarball), unpacked beside the program.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "native-migration-sdk-"));
    execFileSync("tar", ["-xzf", await packNodejsSdk(work), "-C", work]);
    sdk = path.join(work, "package");
    linkPackages(sdk, ["@pulumi/pulumi"]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "native-migration-"));
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: native-migration\nruntime: nodejs\n${PLUGIN_ENTRY}`,
    );
    fs.writeFileSync(path.join(dir, "package.json"), `{ "name": "native-migration", "main": "index.ts" }\n`);
    fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    linkPackages(dir, ["@pulumi/pulumi"], {
      "pulumi-rimuhosting": REPO_ROOT,
      "@pulumi-rimuhosting/rimuhosting": sdk,
    });
    s = await startNativeScenario(dir);
  });
  afterAll(async () => {
    await s?.close();
    if (sdk) fs.rmSync(path.dirname(sdk), { recursive: true, force: true });
  });

  test("state delete, import, switch the program: no second order, no change", async () => {
    const cli = s.stack.cli!;
    const created = await s.stack.up();
    const oid = created.outputs.orderOid as number;
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);
    const dynamicUrn = (await checkpointOf(s)).deployment.resources!.find((r) => r.type === VPS_TYPE)!.urn;

    const mark = s.mark();
    await pulumiText(cli, "state", "delete", dynamicUrn, "--yes");
    // The Node.js language host of this CLI cannot print code (no GenerateProgram): the program is switched by hand.
    const imported = await pulumiText(
      cli,
      "import",
      NATIVE_VPS_TYPE,
      "web",
      String(oid),
      "--yes",
      "--skip-preview",
      "--generate-code=false",
    );
    // The order was created by a Pulumi stack (this one, through the dynamic Vps): the import says whom to tell.
    expect(imported).toMatch(/this order was created by a Pulumi stack\. If that stack still manages it/);
    await s.stack.setConfig("native", { value: "true" });
    const preview = await pulumiText(cli, "preview", "--diff");
    expect(preview).not.toMatch(/to (create|update|replace|delete)/);
    const up = await s.stack.up();
    expect(nativeOps(up)).toEqual({ web: "same" });
    expect(up.outputs.orderOid).toBe(oid);
    expect(s.mutationsSince(mark)).toEqual([]);
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);

    // `pulumi import` protects what it imports; unprotected, destroy cancels the one order.
    const nativeUrn = (await checkpointOf(s)).deployment.resources!.find(
      (r) => r.type === NATIVE_VPS_TYPE,
    )!.urn;
    await pulumiText(cli, "state", "unprotect", nativeUrn, "--yes");
    expect(nativeOps(await s.stack.destroy())).toEqual({ web: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
