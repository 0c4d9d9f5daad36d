// Programs that use the native plugin (`pulumi-resource-rimuhosting`, from this checkout's bin/) through the real
// CLI: YAML, Go and Python projects written into a scratch directory, run as a stack of the usual scenario
// (e2e-support.ts: an emulator, a file backend, the demo account's key as a secret). Each needs `pulumi` and the
// language's host on PATH (scripts/language-hosts.sh builds them); without one the tests are skipped with the
// reason in their name, and with CI=true they fail instead (CI must run them).
import { describe } from "@jest/globals";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync, spawn } from "node:child_process";
import { findPulumiCli, type CliStack } from "./cli-stack";
import { startScenario, type Scenario, type ScenarioOptions } from "./e2e-support";
import type { OperationResult } from "./steps";

export const REPO_ROOT = path.resolve(__dirname, "../..");
/** The checkout's plugin directory (the launcher runs dist/provider/native/main.js: `npm run build`). */
export const PLUGIN_DIR = path.join(REPO_ROOT, "bin");
export const NATIVE_VPS_TYPE = "rimuhosting:index:Vps";

/** The languages of programs on the native plugin (nodejs: TypeScript on the Node.js SDK; its host comes with the CLI). */
export type Language = "yaml" | "go" | "python" | "nodejs" | "java";

/** The directory on PATH holding `file`, if any. */
function onPathDir(env: NodeJS.ProcessEnv, file: string): string | undefined {
  return (env.PATH ?? "")
    .split(path.delimiter)
    .find((dir) => dir !== "" && fs.existsSync(path.join(dir, file)));
}

/** Why programs in `language` cannot run here, or undefined when they can. */
export function languageSkipReason(
  language: Language,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const cli = findPulumiCli(env);
  if (!cli.path) return cli.reason;
  const host = `pulumi-language-${language}`;
  const onPath = (env.PATH ?? "")
    .split(path.delimiter)
    .some((dir) => dir && fs.existsSync(path.join(dir, host)));
  if (!onPath)
    return `no ${host} on PATH (scripts/language-hosts.sh builds it and prints the directory to add)`;
  if (language === "python" && !pythonVirtualenv(env))
    return "no python-venv with Pulumi's Python SDK beside pulumi-language-python (scripts/language-hosts.sh makes it)";
  if (language === "go" && !onPathDir(env, "go")) return "no `go` on PATH";
  if (language === "java") {
    const missing = ["java", "mvn"].filter((tool) => !onPathDir(env, tool));
    if (missing.length > 0)
      return `no ${missing.map((t) => `\`${t}\``).join(" or ")} on PATH (a JDK >= 11 and Maven)`;
  }
  if (!fs.existsSync(path.join(REPO_ROOT, "dist/provider/native/main.js")))
    return "the plugin is not built (npm run build)";
  return undefined;
}

/**
 * A describe that runs when `language`'s programs can run here (see the header), or when `reason` (what else it
 * needs) is undefined; CI=true never skips.
 */
export function describeNative(
  language: Language,
  title: string,
  body: () => void,
  reason: string | undefined = languageSkipReason(language),
): void {
  if (reason && process.env.CI === "true") throw new Error(`CI=true, but ${title} cannot run: ${reason}`);
  // Skipped only off CI (above), on a machine without this language's host or toolchain: the reason is in the name.
  if (reason) describe.skip(`${title} (skipped: ${reason})`, body);
  else describe(`${title} (real CLI, ${language})`, body);
}

/** The `plugins:` entry of Pulumi.yaml that makes a project use this checkout's plugin (as this version). */
export const pluginEntry = (version?: string): string =>
  `plugins:\n  providers:\n    - name: rimuhosting\n      path: ${PLUGIN_DIR}\n` +
  (version ? `      version: ${version}\n` : "");
export const PLUGIN_ENTRY = pluginEntry();
/** This checkout's version (package.json's). */
export const PLUGIN_VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }
).version;
/**
 * The entry of this checkout's plugin that names its version: the CLI then caches the plugin's schema in PULUMI_HOME
 * (test/engine/native-schema-cache.test.ts), so a program run starts the plugin once (the engine's), not twice (for
 * its schema first): about 0.25 of a YAML `up`'s 1.8 CPU-s, for tests whose claim is not the schema's load.
 */
export const CACHED_PLUGIN_ENTRY = pluginEntry(PLUGIN_VERSION);

/**
 * Writes a YAML project (`body`: its config/resources/variables/outputs sections) into a new scratch directory.
 * `plugin`: the checkout's bin/ (default), the checkout's bin/ declared as a version (the CLI then caches its
 * schema), or none (the project uses the plugin installed in PULUMI_HOME).
 */
export function writeYamlProgram(
  name: string,
  body: string,
  plugin: { version: string } | "checkout" | "installed" = "checkout",
): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `native-${name}-`));
  const entry = plugin === "installed" ? "" : pluginEntry(plugin === "checkout" ? undefined : plugin.version);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: yaml\n${entry}${body}`);
  return dir;
}

/** A scenario (emulator, stack with the demo key) on the program in `programDir`, removed by close(). */
export async function startNativeScenario(programDir: string, opts: ScenarioOptions = {}): Promise<Scenario> {
  const scenario = await startScenario(path.basename(programDir), { ...opts, programDir });
  return {
    ...scenario,
    async close() {
      await scenario.close();
      fs.rmSync(programDir, { recursive: true, force: true });
    },
  };
}

/** name -> op of the native Vps steps of an operation. */
export function nativeOps(r: OperationResult): Record<string, string> {
  return Object.fromEntries(r.steps.filter((s) => s.type === NATIVE_VPS_TYPE).map((s) => [s.name, s.op]));
}

/** An order placed outside Pulumi (as a user of RimuHosting's control panel would), in the demo account. */
export async function orderOutsidePulumi(s: Pick<Scenario, "emulator">, domainName: string): Promise<number> {
  const placed = await s.emulator.api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
    "POST",
    "/orders/new-vps",
    {
      new_order_request: {
        instantiation_options: { domain_name: domainName, distro: "deb12.64" },
        vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
        dc_location: "DCDALLAS",
      },
    },
  );
  if (placed.status !== 200) throw new Error(`the emulator refused the order: ${placed.text}`);
  return placed.body.post_new_vps_response.about_order.order_oid;
}

/**
 * `pulumi import` of RimuHosting order `oid` as the native Vps `name`, unprotected, without the preview pass (its
 * read of the order is what the tests need; nothing asserts on the preview).
 */
export const importNativeVps = (cli: CliStack, name: string, oid: number): Promise<string> =>
  pulumiText(cli, "import", NATIVE_VPS_TYPE, name, String(oid), "--protect=false", "--yes", "--skip-preview");

/**
 * `pulumi <args>` on the stack, as a user runs it: what it printed on stdout and stderr together (in `--diff` mode
 * the engine's diagnostics go to stderr). Rejects with both when the command fails.
 */
export function pulumiText(cli: CliStack, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // `pulumi plugin …` and `pulumi package …` act on PULUMI_HOME and the project, not on a stack (and refuse --stack).
    const stack = args[0] === "plugin" || args[0] === "package" ? [] : ["--stack", cli.name];
    const child = spawn("pulumi", [...args, ...stack, "--non-interactive"], {
      cwd: cli.programDir,
      env: cli.commandEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(text)
        : reject(new Error(`pulumi ${args.join(" ")} exited with ${code}:\n${text}`)),
    );
  });
}

/** What a `pulumi <args>` that must fail printed (as pulumiText); rejects if it succeeds. */
export function pulumiFailure(cli: CliStack, ...args: string[]): Promise<string> {
  return pulumiText(cli, ...args).then(
    (text) => {
      throw new Error(`pulumi ${args.join(" ")} succeeded, but must fail:\n${text}`);
    },
    (error: Error) => error.message,
  );
}

/**
 * A copy of the example program examples/<example> in a new scratch directory, its Pulumi.yaml given the
 * `plugins:` entry of this checkout's plugin (pluginEntry). The examples are written as a user writes them against a
 * release; a test supplies the packages (SDK, modules) the way the release ships them.
 */
export function copyExample(example: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `native-${example}-`));
  fs.cpSync(path.join(REPO_ROOT, "examples", example), dir, { recursive: true });
  const project = path.join(dir, "Pulumi.yaml");
  fs.writeFileSync(project, `${fs.readFileSync(project, "utf8").replace(/\n*$/, "\n")}${PLUGIN_ENTRY}`);
  return dir;
}

/**
 * The Go SDK's module as the `sdk/v<version>` tag will hold it: the files git tracks under sdk/, as the working tree
 * has them (`git stash create` makes a commit of it without touching anything; HEAD when nothing changed), written
 * into `into`/sdk. Returns that directory.
 */
export function goSdkAsTagged(into: string): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  const commit = git("stash", "create") || "HEAD";
  fs.mkdirSync(into, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${commit} sdk | tar -x -C "$1"`, "sh", into], { cwd: REPO_ROOT });
  return path.join(into, "sdk");
}

/** The Python virtual environment with Pulumi's Python SDK that scripts/language-hosts.sh made beside the hosts. */
export function pythonVirtualenv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir || !fs.existsSync(path.join(dir, "pulumi-language-python"))) continue;
    const venv = path.join(path.dirname(dir), "python-venv");
    if (fs.existsSync(path.join(venv, "bin", "python"))) return venv;
  }
  return undefined;
}

/**
 * A Python project using the generated Python SDK from this checkout, with `__main__.py` as given. The SDK is
 * installed (from a copy, so the checkout gets no build directory) into the project's own `site/`, offline, with
 * the shared virtual environment's pip and setuptools; the program finds it through PYTHONPATH (`pythonEnv`).
 */
export function writePythonProgram(name: string, mainPy: string, venv: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `native-${name}-`));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: python\n${PLUGIN_ENTRY}`);
  fs.writeFileSync(path.join(dir, "__main__.py"), mainPy);
  const copy = path.join(dir, "sdk-copy");
  fs.cpSync(path.join(REPO_ROOT, "sdk/python"), copy, { recursive: true });
  execFileSync(
    path.join(venv, "bin", "pip"),
    [
      "install",
      "--quiet",
      "--no-deps",
      "--no-index",
      "--no-build-isolation",
      "--target",
      path.join(dir, "site"),
      copy,
    ],
    { stdio: "pipe" },
  );
  fs.rmSync(copy, { recursive: true, force: true });
  return dir;
}

/**
 * The environment a Python program of writePythonProgram() runs with: the virtual environment's python (the
 * Python host of sdk/v3 v3.79 does not get Pulumi.yaml's `virtualenv` option from this CLI, and reads
 * PULUMI_PYTHON_CMD instead), and the project's `site/` on the module path.
 */
export const pythonEnv = (programDir: string, venv: string): NodeJS.ProcessEnv => ({
  PULUMI_PYTHON_CMD: path.join(venv, "bin", "python"),
  PYTHONPATH: path.join(programDir, "site"),
});

/** Links `names` from this checkout's node_modules into `dir`/node_modules (one copy of each, as npm would). */
export function linkPackages(dir: string, names: string[], extra: Record<string, string> = {}): void {
  const links = {
    ...Object.fromEntries(names.map((n) => [n, path.join(REPO_ROOT, "node_modules", n)])),
    ...extra,
  };
  for (const [name, target] of Object.entries(links)) {
    const link = path.join(dir, "node_modules", name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(target, link, "dir");
  }
}
