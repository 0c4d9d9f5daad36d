// The plugin installed the way Pulumi users install plugins: `npm run plugin:pack` (its last line is the tarball's
// path), `pulumi plugin install resource rimuhosting <version> --file <tarball>`, then a YAML project with no
// `plugins:` entry runs on the installed copy (no checkout, no node_modules: the tarball is self-contained), and
// `pulumi package add rimuhosting@<version>` records the installed package in the project's Pulumi.yaml.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { platformName } from "../../provider/native/pack";
import { liveOrders, type Scenario } from "./e2e-support";
import {
  describeNative,
  nativeOps,
  PLUGIN_VERSION as version,
  pulumiText,
  REPO_ROOT,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(300_000);

const PROGRAM = `resources:
  web:
    type: rimuhosting:Vps
    properties:
      domainName: installed.example.com
      dcLocation: DCDALLAS
outputs:
  orderOid: \${web.orderOid}
`;

describeNative("yaml", "the packed plugin, installed with pulumi plugin install", () => {
  let s: Scenario;
  let tarball: string;
  beforeAll(async () => {
    const printed = execFileSync(process.execPath, [path.join(REPO_ROOT, "dist/provider/native/pack.js")], {
      encoding: "utf8",
    });
    tarball = printed.trim().split("\n").pop()!;
    s = await startNativeScenario(writeYamlProgram("native-install", PROGRAM, "installed"));
  });
  afterAll(async () => s?.close());

  test("the tarball holds plain files only; installed, it runs a program with no checkout in sight", async () => {
    expect(path.basename(tarball)).toBe(`pulumi-resource-rimuhosting-v${version}-${platformName()}.tar.gz`);
    const entries = execFileSync("tar", ["-tvzf", tarball], { encoding: "utf8" }).trim().split("\n");
    // No links (the CLI refuses links that point outside the plugin) and no node_modules: bundles, a launcher.
    expect(entries.every((line) => line.startsWith("-"))).toBe(true);
    const names = entries.map((line) => line.split(/\s+/).pop()!);
    // esbuild writes a bundle's `.LEGAL.txt` only when the code it holds carries licence comments, so which parts
    // have one follows their dependencies; each must belong to a bundle in the tarball.
    const legal = names.filter((name) => name.endsWith(".LEGAL.txt"));
    expect(legal.filter((name) => !names.includes(name.replace(/\.LEGAL\.txt$/, "")))).toEqual([]);
    expect(legal).toContain("provider.js.LEGAL.txt");
    // Each bundle's licences name the packages it holds, from their licence files (not only code comments).
    const licences = (name: string) => execFileSync("tar", ["-xzOf", tarball, name], { encoding: "utf8" });
    expect(licences("provider.js.LEGAL.txt")).toMatch(/^@grpc\/grpc-js@\S+ \(Apache-2\.0\)$/m);
    expect(licences("provider.js.LEGAL.txt")).toMatch(/^zod@\S+ \(MIT\)$/m);
    expect(licences("pulumi.js.LEGAL.txt")).toMatch(/^@pulumi\/pulumi@\S+ \(Apache-2\.0\)$/m);
    expect(names.filter((name) => !legal.includes(name)).sort()).toEqual([
      "LICENSE",
      "THIRD-PARTY-LICENSES.txt", // got's and its packages' (provider/native/vendor-got.ts): the bundle holds them
      "bill.js", // the plugin's parts (provider/native/parts.ts): its commands' and @pulumi/pulumi
      "drift.js",
      "emulator.js",
      "import-file.js",
      "killed-orders.js",
      "provider.js",
      "pulumi-resource-rimuhosting",
      "pulumi.js",
    ]);
    expect(entries.find((line) => line.endsWith(" pulumi-resource-rimuhosting"))).toMatch(/^-rwx/);

    const cli = s.stack.cli!;
    await pulumiText(cli, "plugin", "install", "resource", "rimuhosting", version, "--file", tarball);
    const plugins = await pulumiText(cli, "plugin", "ls");
    expect(plugins).toMatch(new RegExp(`rimuhosting\\s+resource\\s+${version.replace(/\./g, "\\.")}`));

    // As docs/installation-configuration.md says for YAML: the installed plugin's package, recorded in Pulumi.yaml.
    await pulumiText(cli, "package", "add", `rimuhosting@${version}`);
    const project = fs.readFileSync(path.join(cli.programDir, "Pulumi.yaml"), "utf8");
    expect(project).toMatch(
      new RegExp(`^packages:\\n  rimuhosting: rimuhosting@${version.replace(/\./g, "\\.")}$`, "m"),
    );

    const up = await s.stack.up();
    expect(nativeOps(up)).toEqual({ web: "create" });
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([up.outputs.orderOid]);
    expect(nativeOps(await s.stack.destroy())).toEqual({ web: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
