// The first hour from the release alone (issue 32), in the languages that need no Node.js (and TypeScript on the
// native SDK, with node on PATH for the program only; Java, issue 84, with Maven and a JDK): dist/release served on
// 127.0.0.1 as the GitHub release serves it (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sends the GitHub source there),
// `node` hidden from the CLI and everything it starts, and each language page's "Try it without an account" run as
// written: the plugin installed from the release and its emulator started (recipe `emulator`), then, in the
// language's quickstart copied as it is, the stack pointed at the emulator and `pulumi up` and `pulumi destroy`
// (recipe `try-it`), the up printing what the page shows.
//
// The quickstart runs with a PULUMI_HOME of its own, where no plugin is installed: its `pulumi up` downloads the
// plugin by itself (YAML: the project's package declaration names version and server; Python, Go, TypeScript and
// Java: the SDK does, installed by the route the install page (Java: its own page) gives until the registries hold
// the packages, run as written from the served release: test/package/support/release-routes.ts). What the test changes in a line: `<version>` is
// package.json's, the emulator gets `--port 0` (8780 may be taken by another test) and the port it listens on
// replaces 8780, `--yes` is added to the commands that would ask (no terminal here).
//
// Every command runs in a user's environment (test/docs/support/user-env.ts): what the page sets (nothing but the
// Python page's PULUMI_PYTHON_CMD, its own line), the harness's names of docs/testing.md (a file backend, a fresh
// PULUMI_HOME, the release's download override to 127.0.0.1; Maven offline, by a file in Java's project), and on
// PATH the CLI with node hidden, the language hosts where the page says to put them there, and the language's own
// tools (go; mvn and java).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { findLanguageHosts } from "../../tools/release/language-hosts";
import { commandLines, recipe, shownOutput } from "../docs/support/code-blocks";
import { shell, shownLinePattern, startServer, type Server } from "../docs/support/shell";
import { dirOnPath, userEnv } from "../docs/support/user-env";
import { runGoRoute, runMavenRoute, runNpmRoute, runPipRoute } from "../package/support/release-routes";
import { offlineCliEnv } from "./cli-stack";
import { GO_OFFLINE } from "./language-programs";
import { describeNative, REPO_ROOT } from "./native-programs";
import {
  ensureRelease,
  nodeHiddenBin,
  RELEASE_SDK,
  releaseSkipReason,
  releaseOverrides,
  serveRelease,
  tarballOf,
  target,
  version,
} from "./release-support";

jest.setTimeout(900_000);

const TARBALL_PATH = `/${path.basename(tarballOf(target("linux-amd64")))}`;
const DOCUMENTED_URL = "http://127.0.0.1:8780/r";

interface EnvOptions {
  /** Names of docs/testing.md's harness list, beyond the CLI's own. */
  harness?: Record<string, string>;
  /** Directories on PATH after the CLI's. */
  extraPath?: string[];
  /** The CLI first on PATH with node hidden from it and all it starts (default); else node on PATH. */
  nodeHidden?: boolean;
}

/**
 * The YAML, Go and Python language hosts on PATH, as `page` tells a user whose CLI was built from source (this
 * machine's: scripts/pulumi-cli.sh; Pulumi's own CLI carries them beside `pulumi`).
 */
function languageHosts(page: string): string[] {
  const text = fs.readFileSync(path.join(REPO_ROOT, page), "utf8");
  if (!text.includes("native-plugin.md#language-hosts-with-a-cli-built-from-source"))
    throw new Error(`${page} does not say to put the language hosts on PATH for a CLI built from source`);
  return dirOnPath("pulumi-language-yaml");
}

/** What the test runs of a page's `try-it` recipe: each command, with `--yes` where it would ask. */
const asked = (line: string) => (/^pulumi (up|destroy)\b/.test(line) ? `${line} --yes` : line);

describeNative(
  "python",
  "the first hour from the release, node hidden",
  () => {
    let server: Awaited<ReturnType<typeof serveRelease>>;
    let hidden: string;
    let scratch: string;
    let emulator: Server | undefined;
    let port: number;
    /**
     * The environment of `page`'s commands: a file backend and a fresh PULUMI_HOME under `home`, the release's
     * download override (plugins downloaded, from 127.0.0.1 only), `harness`; on PATH the CLI with node hidden
     * (`nodeHidden`), then `extraPath`.
     */
    const envIn = (
      page: string,
      home: string,
      { harness = {}, extraPath = [], nodeHidden = true }: EnvOptions = {},
    ): Record<string, string> => {
      const offline = offlineCliEnv(path.join(home, "backend"));
      delete offline.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
      fs.mkdirSync(path.join(home, "backend"), { recursive: true });
      return userEnv(
        page,
        {},
        { ...offline, ...releaseOverrides(server), PULUMI_HOME: path.join(home, "pulumi-home"), ...harness },
        [...(nodeHidden ? [hidden] : []), ...extraPath],
      );
    };
    const ours = (line: string) => line.replace(/<version>/g, version).replace(/8780/g, String(port));

    beforeAll(async () => {
      await ensureRelease();
      server = await serveRelease();
      hidden = nodeHiddenBin();
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), "first-hour-release-"));
    }, 1_800_000);
    afterAll(async () => {
      await emulator?.stop();
      await server?.close();
      for (const dir of [hidden, scratch]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it("the YAML, Python, Go, TypeScript and Java pages start the emulator with the same lines (run below)", () => {
      const blocks = [
        "docs/yaml.md#emulator",
        "docs/python.md#emulator",
        "docs/go.md#emulator",
        "docs/typescript.md#emulator",
        "docs/java.md#emulator",
      ].map(recipe);
      for (const block of blocks.slice(1)) expect(block).toBe(blocks[0]);
    });

    it("docs/yaml.md#emulator: the plugin installed from the release runs the emulator, banner first", async () => {
      const block = recipe("docs/yaml.md#emulator");
      const [install, start, ...rest] = commandLines(block);
      expect(rest).toEqual([]);
      const env = envIn("docs/yaml.md", path.join(scratch, "emulator"));
      const installed = await shell(ours(install!), { cwd: scratch, env, clean: true });
      expect([installed.code, installed.output]).toEqual([0, expect.any(String)]);
      expect(server.requests).toContain(TARBALL_PATH);
      const shown = shownOutput(block);
      expect(shown[0]).toBe(`RimuHosting emulator listening on ${DOCUMENTED_URL}`);
      // On a port the system picks as it listens (one looked up first could be taken before the emulator listens);
      // the banner says which, and the try-it steps below use it.
      emulator = await startServer(`${ours(start!)} --port 0`, {
        cwd: scratch,
        env,
        clean: true,
        expected: shown.map((line) => shownLinePattern(ours(line.replace(/8780/g, "<port>")))),
      });
      port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)\/r/.exec(emulator.output)![1]);
      // The banner is the first thing it prints.
      expect(emulator.output.split("\n")[0]).toBe(ours(shown[0]!));
      expect(emulator.output).toContain(`Demo API key: ${DEMO_API_KEY}`);
    });

    /** Runs `page`'s try-it recipe in `dir` with a PULUMI_HOME of its own; what `pulumi up` printed. */
    async function tryIt(
      address: string,
      dir: string,
      options: EnvOptions = {},
      prefix = "",
    ): Promise<string> {
      if (!emulator) throw new Error("the emulator did not start (the test before)");
      const block = recipe(address);
      const env = envIn(address.split("#")[0]!, path.join(dir, "..", `${path.basename(dir)}-home`), options);
      const before = server.requests.length;
      let upOutput = "";
      for (const line of commandLines(block)) {
        const result = await shell(`${prefix}${asked(ours(line))}`, { cwd: dir, env, clean: true });
        if (result.code !== 0) throw new Error(`\`${line}\` exited with ${result.code}:\n${result.output}`);
        if (/^pulumi up\b/.test(line)) upOutput = result.output;
      }
      // The project's own PULUMI_HOME had no plugin: its up downloaded it.
      expect(server.requests.slice(before)).toContain(TARBALL_PATH);
      for (const line of shownOutput(block).filter((l) => l !== "…"))
        expect(upOutput).toMatch(shownLinePattern(line));
      return upOutput;
    }

    it("docs/yaml.md#try-it: examples/yaml-quickstart, copied as it is, downloads the plugin, up and destroy", async () => {
      const dir = path.join(scratch, "yaml");
      fs.cpSync(path.join(REPO_ROOT, "examples/yaml-quickstart"), dir, { recursive: true });
      await tryIt("docs/yaml.md#try-it", dir, { extraPath: languageHosts("docs/yaml.md") });
    });

    it("docs/python.md#try-it: examples/python-quickstart on the release's wheel, pip-installed by its URL as the pages say", async () => {
      const dir = path.join(scratch, "python");
      fs.cpSync(path.join(REPO_ROOT, "examples/python-quickstart"), dir, { recursive: true });
      // The install page's route for now: the release's wheel by its URL (test/package/support/release-routes.ts).
      await runPipRoute({ releaseUrl: server.url, version, cwd: dir }, findLanguageHosts().hosts!);
      expect(server.requests).toContain(`/${path.basename(RELEASE_SDK.wheel)}`);
      // Each command after the page's line for the Python host a CLI built from source has (docs/python.md#python-cmd).
      const [pythonCmd] = commandLines(recipe("docs/python.md#python-cmd"));
      await tryIt(
        "docs/python.md#try-it",
        dir,
        { extraPath: languageHosts("docs/python.md") },
        `${pythonCmd} && `,
      );
    });

    it("docs/go.md#try-it: examples/go-quickstart on a clone of the release's tag, by the pages' `replace`", async () => {
      const dir = path.join(scratch, "go");
      fs.cpSync(path.join(REPO_ROOT, "examples/go-quickstart"), dir, { recursive: true });
      // The page's route for now: a clone of the release's tag and a `replace` onto its sdk/ (the proxy serves the
      // module only once published); then the page's `go mod tidy` completes go.mod offline.
      await runGoRoute({ releaseUrl: server.url, version, cwd: dir }, path.join(scratch, "go-clone"));
      // The Go host builds the program with the `go` on PATH, offline as the route ran.
      await tryIt("docs/go.md#try-it", dir, {
        harness: GO_OFFLINE,
        extraPath: [...languageHosts("docs/go.md"), ...dirOnPath("go")],
      });
    });

    it("docs/typescript.md#try-it: examples/typescript-quickstart on the release's Node.js SDK, npm 12 from its URL (node on PATH: TypeScript runs on it)", async () => {
      const dir = path.join(scratch, "typescript");
      fs.cpSync(path.join(REPO_ROOT, "examples/typescript-quickstart"), dir, { recursive: true });
      // The page's route for now: npm 12 installs the release's Node.js SDK tarball by its URL, with --allow-remote.
      await runNpmRoute({ releaseUrl: server.url, version, cwd: dir });
      expect(server.requests).toContain(`/${path.basename(RELEASE_SDK.npmTarball)}`);
      // The CLI with node on PATH (the Node.js language host beside it runs the program; the plugin it downloads
      // still runs without node).
      await tryIt("docs/typescript.md#try-it", dir, { nodeHidden: false });
    });

    describeNative("java", "docs/java.md", () => {
      it("docs/java.md#try-it: examples/java-quickstart on the release's jar, sources jar and pom, installed by Maven from their URLs", async () => {
        const dir = path.join(scratch, "java");
        fs.cpSync(path.join(REPO_ROOT, "examples/java-quickstart"), dir, { recursive: true });
        // The page's route: the release's three files by their URLs, installed into Maven's local repository
        // (offline otherwise: the harness's .mvn/maven.config in the project, release-routes.ts).
        await runMavenRoute({ releaseUrl: server.url, version, cwd: dir });
        for (const file of [RELEASE_SDK.javaJar, RELEASE_SDK.javaSources, RELEASE_SDK.javaPom])
          expect(server.requests).toContain(`/${path.basename(file)}`);
        // The Java host builds and runs the program with the JDK and the Maven on PATH.
        await tryIt("docs/java.md#try-it", dir, {
          extraPath: [...languageHosts("docs/java.md"), ...dirOnPath("mvn"), ...dirOnPath("java")],
        });
      });
    });
  },
  releaseSkipReason(),
);
