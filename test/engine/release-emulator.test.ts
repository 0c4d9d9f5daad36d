// The emulator inside the release's self-contained plugin (issue 32): on a machine where `node` cannot run, the
// linux-amd64 executable of dist/release runs `emulator` itself, and through `pulumi plugin run` once the CLI has
// installed the plugin from the release served on 127.0.0.1 into a fresh PULUMI_HOME (docs/emulator.md#plugin). A
// client gets /r/distributions from each. The CLI runs in a user's environment (test/docs/support/user-env.ts: the
// page sets nothing; the harness's PULUMI_HOME and update check), with `node` hidden as on a machine without it.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { commandLines, recipe, shownOutput } from "../docs/support/code-blocks";
import { userEnv } from "../docs/support/user-env";
import { answersAsTheEmulator, startEmulatorCommand } from "../helpers/emulator-command";
import { until } from "../helpers/promises";
import { describeNative } from "./native-programs";
import {
  ensureRelease,
  nodeHiddenBin,
  releaseSkipReason,
  serveRelease,
  tarballOf,
  target,
  unpack,
  version,
} from "./release-support";

jest.setTimeout(300_000);

/** Whether anything answers at `baseUrl` now. */
const answering = (baseUrl: string) =>
  fetch(`${baseUrl}/distributions`).then(
    () => true,
    () => false,
  );

// describeNative: skipped with the reason in the title off CI, an error with CI=true.
describeNative(
  "yaml",
  "the emulator in the release's linux-amd64 plugin, with node hidden",
  () => {
    const scratch: string[] = [];
    let hidden: string;
    let server: Awaited<ReturnType<typeof serveRelease>>;
    beforeAll(async () => {
      await ensureRelease();
      server = await serveRelease();
      hidden = nodeHiddenBin();
      scratch.push(hidden);
    }, 1_800_000);
    afterAll(async () => {
      await server?.close();
      scratch.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
    });

    test("the executable runs `emulator` by itself", async () => {
      const dir = unpack(target("linux-amd64"));
      scratch.push(dir);
      const emulator = await startEmulatorCommand(path.join(hidden, "without-node"), [
        path.join(dir, "pulumi-resource-rimuhosting"),
        "emulator",
        "--port",
        "0",
        "--time-scale",
        "0.05",
      ]);
      try {
        await answersAsTheEmulator(emulator);
      } finally {
        expect(await emulator.stop()).toBe(0);
      }
    });

    test("pulumi plugin run, as docs/emulator.md gives it, runs the plugin the CLI installed from the release", async () => {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "release-emulator-home-"));
      scratch.push(home);
      // `hidden` first on PATH: its `pulumi` runs the CLI where no `node` can run (nodeHiddenBin).
      const env = userEnv("docs/emulator.md", {}, { PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" }, [
        hidden,
      ]);
      await promisify(execFile)(
        "pulumi",
        ["plugin", "install", "resource", "rimuhosting", version, "--server", server.url],
        { env },
      );
      expect(server.requests).toContain(`/${path.basename(tarballOf(target("linux-amd64")))}`);

      const block = recipe("docs/emulator.md#plugin");
      const [command] = commandLines(block);
      expect(shownOutput(block)).toEqual(["RimuHosting emulator listening on http://127.0.0.1:8780/r"]);
      // The page's command, on a free port here (8780 may be taken on this machine).
      const [program, ...args] = `${command} --port 0`.split(" ");
      const emulator = await startEmulatorCommand(program!, args, { env });
      try {
        await answersAsTheEmulator(emulator);
        // The CLI, sent SIGTERM, exits without passing it on: the emulator sees it go and ends too.
        process.kill(emulator.pid, "SIGTERM");
        const gone = async () => !(await answering(emulator.baseUrl));
        await until("the emulator to stop answering after the CLI's SIGTERM", gone, {
          timeoutMs: 20_000,
          intervalMs: 200,
        });
      } finally {
        await emulator.stop();
      }
    });
  },
  releaseSkipReason(),
);
