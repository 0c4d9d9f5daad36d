// The CLI caches a provider's schema in PULUMI_HOME/schemas/<name>-<version>.json and serves that copy while it is
// newer than the plugin's directory. A checkout keeps its version while its schema changes, so every build and every
// `npm run schema` mark bin/ as changed (provider/native/schema/plugin-dir.ts). Here, through the real CLI and a YAML
// program that names the plugin's version (the case in which the CLI caches): a cached copy older than that mark is
// never served, while one newer than it is (so the test sees the cache at work before it sees it refreshed).
import * as fs from "node:fs";
import * as path from "node:path";
import { markPluginChanged } from "../../provider/native/schema/plugin-dir";
import type { Scenario } from "./e2e-support";
import {
  describeNative,
  PLUGIN_DIR,
  PLUGIN_VERSION as version,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(300_000);

const PROGRAM = `resources:
  web:
    type: rimuhosting:Vps
    properties:
      domainName: cache.example.com
      memoryMb: 2048
`;

describeNative("yaml", "the CLI's schema cache and a changing checkout", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startNativeScenario(writeYamlProgram("native-schema-cache", PROGRAM, { version }));
  });
  afterAll(async () => s?.close());

  test("a schema cached before the plugin directory last changed is not served", async () => {
    const cli = s.stack.cli!;
    await pulumiText(cli, "preview");
    const cached = path.join(s.workDir, "pulumi-home", "schemas", `rimuhosting-${version}.json`);
    expect(fs.existsSync(cached)).toBe(true);

    // An older schema in the cache: the Vps had no memoryMb yet. While the cache is newer than bin/, it is served.
    const older = JSON.parse(fs.readFileSync(cached, "utf8")) as {
      resources: Record<string, { inputProperties: Record<string, unknown> }>;
    };
    delete older.resources["rimuhosting:index:Vps"]!.inputProperties.memoryMb;
    fs.writeFileSync(cached, JSON.stringify(older));
    const stale = await pulumiText(cli, "preview").then(
      () => "",
      (e: unknown) => String(e),
    );
    expect(stale).toMatch(/memoryMb/);

    // What every build and `npm run schema` do: the copy is now older than the plugin, and the plugin is asked again.
    markPluginChanged(PLUGIN_DIR);
    const fresh = await pulumiText(cli, "preview");
    expect(fresh).toMatch(/\+ 2 to create/);
    expect(JSON.parse(fs.readFileSync(cached, "utf8"))).toMatchObject({
      resources: { "rimuhosting:index:Vps": { inputProperties: { memoryMb: { type: "integer" } } } },
    });
  });
});
