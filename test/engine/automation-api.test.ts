// docs/automation-api.md's script, as the page gives it, run with `node deploy.ts up` and `node deploy.ts drift`
// against the emulator: the Automation API drives the real CLI, the plugin is installed from the release (dist/release
// served on 127.0.0.1, the GitHub server the script names sent there by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, as a
// mirror is), and the inline program runs on the release's Node.js SDK. Between the two commands alice's VPS is
// resized outside Pulumi: `drift` must name it, and bob's must show none.
//
// The script runs in a user's environment (test/docs/support/user-env.ts): what the page sets (a file backend, its
// passphrase, the API key, the emulator's address, the download override to a mirror) and the harness's PULUMI_HOME
// of its own, no update check and TMPDIR in the scratch directory; nothing of this test's own process. The project's
// node_modules gets @pulumi/pulumi (this checkout's) and the release's SDK tarball unpacked, as npm would put them.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { createClient } from "../../provider/client/index";
import { commandLines, recipe, shownOutput } from "../docs/support/code-blocks";
import { shell, shownLinePattern } from "../docs/support/shell";
import { userEnv } from "../docs/support/user-env";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { offlineCliEnv } from "./cli-stack";
import { liveOrders } from "./e2e-support";
import { describeNative, languageSkipReason, linkPackages } from "./native-programs";
import {
  ensureRelease,
  RELEASE_SDK,
  releaseBuildSkipReason,
  releaseOverrides,
  serveRelease,
  tarballOf,
  target,
  version,
} from "./release-support";

jest.setTimeout(900_000);

describeNative(
  "nodejs",
  "docs/automation-api.md: an inline program per customer, the plugin from its server, drift from events",
  () => {
    let server: Awaited<ReturnType<typeof serveRelease>>;
    let emulator: TestEmulator;
    let scratch: string;
    let env: Record<string, string>;
    const project = () => path.join(scratch, "project");

    beforeAll(async () => {
      await ensureRelease();
      server = await serveRelease();
      emulator = await startTestEmulator();
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), "automation-api-"));
      const sdk = path.join(project(), "node_modules/@pulumi-rimuhosting");
      fs.mkdirSync(sdk, { recursive: true });
      execFileSync("tar", ["-xzf", RELEASE_SDK.npmTarball, "-C", sdk]);
      fs.renameSync(path.join(sdk, "package"), path.join(sdk, "rimuhosting"));
      linkPackages(project(), ["@pulumi/pulumi"]);
      fs.writeFileSync(path.join(project(), "package.json"), `{ "private": true, "type": "module" }\n`);
      fs.writeFileSync(path.join(project(), "deploy.ts"), recipe("docs/automation-api.md#deploy"));
      const backend = path.join(scratch, "backend");
      fs.mkdirSync(backend);
      const { PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, ...harness } = offlineCliEnv(backend);
      env = userEnv(
        "docs/automation-api.md",
        {
          PULUMI_BACKEND_URL: PULUMI_BACKEND_URL!,
          PULUMI_CONFIG_PASSPHRASE: PULUMI_CONFIG_PASSPHRASE!,
          ...releaseOverrides(server),
          RIMUHOSTING_APIKEY: DEMO_API_KEY,
          RIMUHOSTING_BASEURL: emulator.baseUrl,
        },
        // LocalWorkspace writes each inline program's project into a new temporary directory: the scratch's.
        { ...harness, TMPDIR: path.join(scratch, "tmp") },
      );
      fs.mkdirSync(path.join(scratch, "tmp"));
    }, 1_800_000);
    afterAll(async () => {
      await emulator?.close();
      await server?.close();
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    });

    test("the script's plugin release is this package's version", () => {
      expect(recipe("docs/automation-api.md#deploy")).toContain(`version: "${version}"`);
    });

    test("up: two stacks from one process, the plugin downloaded; drift: alice's resize, bob's none", async () => {
      const block = recipe("docs/automation-api.md#run");
      const [up, drift, ...rest] = commandLines(block);
      expect(rest).toEqual([]);
      const run = async (line: string) => {
        const result = await shell(line, { cwd: project(), env, clean: true });
        if (result.code !== 0) throw new Error(`\`${line}\` exited with ${result.code}:\n${result.output}`);
        return result.output;
      };

      let output = await run(up!);
      expect(server.requests).toContain(`/${path.basename(tarballOf(target("linux-amd64")))}`);
      expect(liveOrders(emulator)).toHaveLength(2);
      const alice = emulator.snapshot().find((o) => o.domainName === "alice.example.com")!;
      // Resized outside Pulumi, as in RimuHosting's control panel.
      const client = createClient({ baseUrl: emulator.baseUrl, apiKey: DEMO_API_KEY });
      try {
        await client.changeParameters(alice.orderOid, { memory_mb: 2048 });
      } finally {
        client.close();
      }
      const mark = emulator.requestLog().length;
      output += await run(drift!);
      expect(
        emulator
          .requestLog()
          .slice(mark)
          .filter((e) => e.method !== "GET"),
      ).toEqual([]);

      for (const line of shownOutput(block)) expect(output).toMatch(shownLinePattern(line));
      // The key came from the environment: the stacks' state does not hold it.
      const backend = path.join(scratch, "backend");
      const stored = (fs.readdirSync(backend, { recursive: true }) as string[])
        .map((file) => path.join(backend, file))
        .filter((file) => fs.statSync(file).isFile())
        .filter((file) => fs.readFileSync(file, "latin1").includes(DEMO_API_KEY));
      expect(stored).toEqual([]);
    });
  },
  languageSkipReason("nodejs") ?? releaseBuildSkipReason(),
);
