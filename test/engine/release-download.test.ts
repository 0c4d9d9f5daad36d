// The plugin downloads itself: dist/release (npm run release:build) served on 127.0.0.1 as a release is served,
// a fresh PULUMI_HOME with no plugin installed, and `node` hidden from the CLI and all it starts. A YAML program
// whose resource names the server (`pluginDownloadURL`) and the `version` runs up and destroy; the engine fetches
// the tarball by itself. (`pulumi plugin install resource rimuhosting <version> --server <url>` from such a release:
// release-emulator.test.ts, which then runs the plugin it installed.)
import * as fs from "node:fs";
import * as path from "node:path";
import { liveOrders, type Scenario } from "./e2e-support";
import {
  describeNative,
  nativeOps,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import {
  ensureRelease,
  nodeHiddenBin,
  releaseSkipReason,
  serveRelease,
  tarballOf,
  target,
  version,
} from "./release-support";

jest.setTimeout(300_000);

const program = (url: string) => `resources:
  web:
    type: rimuhosting:Vps
    properties:
      domainName: downloaded.example.com
      dcLocation: DCDALLAS
    options:
      pluginDownloadURL: ${url}
      version: ${version}
outputs:
  orderOid: \${web.orderOid}
`;

const TARBALL_PATH = `/${path.basename(tarballOf(target("linux-amd64")))}`;
const INSTALLED = new RegExp(`rimuhosting\\s+resource\\s+${version.replace(/\./g, "\\.")}`);

describeNative(
  "yaml",
  "the plugin downloaded from a release, on a machine without node",
  () => {
    let server: Awaited<ReturnType<typeof serveRelease>>;
    let hidden: string;
    let s: Scenario;
    beforeAll(async () => {
      await ensureRelease();
      server = await serveRelease();
      hidden = nodeHiddenBin();
      s = await startNativeScenario(writeYamlProgram("release-download", program(server.url), "installed"), {
        env: { PATH: `${hidden}${path.delimiter}${process.env.PATH}` },
        pluginDownloads: true,
      });
    }, 1_800_000);
    afterAll(async () => {
      await s?.close();
      await server?.close();
      if (hidden) fs.rmSync(hidden, { recursive: true, force: true });
    });

    test("a YAML program with pluginDownloadURL and version gets the plugin by itself: up and destroy", async () => {
      const cli = s.stack.cli!;
      expect(await pulumiText(cli, "plugin", "ls")).not.toMatch(/rimuhosting/);
      const up = await s.stack.up();
      expect(server.requests).toContain(TARBALL_PATH);
      expect(await pulumiText(cli, "plugin", "ls")).toMatch(INSTALLED);
      expect(nativeOps(up)).toEqual({ web: "create" });
      expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([up.outputs.orderOid]);
      expect(nativeOps(await s.stack.destroy())).toEqual({ web: "delete" });
      expect(liveOrders(s.emulator)).toEqual([]);
    });
  },
  releaseSkipReason(),
);
