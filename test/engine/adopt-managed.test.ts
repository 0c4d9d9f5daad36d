/**
 * No VPS adopted twice (issues 57 and 65), through the real CLI against the emulator, on each front end: a VPS that a
 * stack of another project adopted with `adoptOrderOid` (a YAML stack on the native plugin, and a TypeScript stack
 * on the dynamic `Vps`, whose state records `pulumi-nodejs:dynamic/rimuhosting:Vps`) or brought in with `pulumi
 * import` carries no mark on its order (RimuHosting's API cannot change an order's metadata), so `import-file` finds
 * it in that stack's state (provider/adopt/stack-orders.ts: `pulumi stack ls --all`, `pulumi stack export`) and
 * leaves it out, naming the stack; the other VPS of the account is offered. The projects share one backend, as a
 * team's do. test/engine/adopt.test.ts checks that after a whole-account import
 * nothing is offered again; test/adopt/import-file.test.ts the creation nonce of a stack's create.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { shell, shellOk } from "../docs/support/shell";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack, offlineCliEnv } from "./cli-stack";
import { REPO_ROOT, describeNative, pluginEntry } from "./native-programs";

jest.setTimeout(300_000);

const PLUGIN = path.join(REPO_ROOT, "bin", "pulumi-resource-rimuhosting");

describeNative("yaml", "import-file leaves out a VPS another project's stack adopted", () => {
  let emulator: TestEmulator;
  let scratch: string;

  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "adopt-managed-"));
  });
  afterAll(async () => {
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  async function outside(domainName: string): Promise<number> {
    const placed = await emulator.api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
      "POST",
      "/orders/new-vps",
      {
        new_order_request: {
          instantiation_options: { domain_name: domainName, distro: "deb12.64" },
          dc_location: "DCDALLAS",
        },
      },
    );
    if (placed.status !== 200) throw new Error(`the emulator refused the order: ${placed.text}`);
    return placed.body.post_new_vps_response.about_order.order_oid;
  }

  test("each adopted or imported VPS is left out naming its stack; the free one is offered", async () => {
    const shopOid = await outside("shop.example.com");
    const legacyOid = await outside("legacy.example.com");
    const tsOid = await outside("ts.example.com");
    const freeOid = await outside("free.example.com");
    const backend = path.join(scratch, "backend");
    const env = offlineCliEnv(backend);
    fs.mkdirSync(backend, { recursive: true });
    /** A YAML project `name` with a stack `dev` on the emulator, its program `resources`. */
    async function project(name: string, resources: string): Promise<(line: string) => Promise<string>> {
      const dir = path.join(scratch, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        `name: ${name}\nruntime: yaml\n${pluginEntry()}${resources}`,
      );
      const sh = (line: string) => shellOk(line, { cwd: dir, env });
      await sh("pulumi stack init dev --non-interactive");
      await sh(`pulumi config set rimuhosting:baseUrl ${emulator.baseUrl}`);
      await sh(`pulumi config set --secret rimuhosting:apiKey ${DEMO_API_KEY}`);
      return sh;
    }
    const shop = await project(
      "shop",
      "resources:\n  web:\n    type: rimuhosting:Vps\n    properties:\n" +
        `      domainName: shop.example.com\n      adoptOrderOid: ${shopOid}\n`,
    );
    expect(await shop("pulumi up --yes --non-interactive")).toMatch(/\+ 2 created/);
    // The same YAML stack brings another order in with `pulumi import` (no up: the documented adoption needs none).
    await shop(
      `pulumi import rimuhosting:index:Vps legacy ${legacyOid} --yes --protect=false --skip-preview --non-interactive`,
    );
    // A TypeScript stack adopts one with the dynamic Vps (test/engine/fixtures/adopt-dynamic), on the same backend.
    const ts = await CliStack.create({
      programDir: path.join(__dirname, "fixtures", "adopt-dynamic"),
      backendDir: backend,
      config: {
        "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
        "rimuhosting:baseUrl": emulator.baseUrl,
        domainName: "ts.example.com",
        adoptOrderOid: String(tsOid),
      },
    });
    try {
      await ts.up();
      // The type the state records for it: what stack-orders.ts must know.
      expect(await ts.exportState()).toContain('"type": "pulumi-nodejs:dynamic/rimuhosting:Vps"');
    } finally {
      ts.close();
    }

    await project("adopted", "");
    const dir = path.join(scratch, "adopted");
    const listed = await shell(`${PLUGIN} import-file --out vpss.json`, { cwd: dir, env });
    expect(listed.output).toContain(
      "left out 3 VPSs that a Pulumi stack manages: " +
        `legacy.example.com (order ${legacyOid}: in stack organization/shop/dev), ` +
        `shop.example.com (order ${shopOid}: in stack organization/shop/dev), ` +
        `ts.example.com (order ${tsOid}: in stack organization/adopt-dynamic/${ts.name}).`,
    );
    expect(listed.output).toContain("1 VPS to adopt, written to vpss.json.");
    expect(listed.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "vpss.json"), "utf8"))).toEqual({
      resources: [{ type: "rimuhosting:index:Vps", name: "freeExampleCom", id: String(freeOid) }],
    });

    // --include-managed offers it anyway, and says which stack to make forget it.
    const all = await shell(`${PLUGIN} import-file --include-managed`, { cwd: dir, env });
    expect(all.output).toContain(
      "included, as --include-managed asks, 3 VPSs that a Pulumi stack manages: " +
        `legacy.example.com (order ${legacyOid}: in stack organization/shop/dev), ` +
        `shop.example.com (order ${shopOid}: in stack organization/shop/dev), ` +
        `ts.example.com (order ${tsOid}: in stack organization/adopt-dynamic/${ts.name}).`,
    );
    expect(all.code).toBe(0);
  });
});
