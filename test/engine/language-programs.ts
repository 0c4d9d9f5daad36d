// Programs in YAML, Go and Python through the real CLI: finding the language hosts scripts/language-hosts.sh built,
// generating SDKs with scripts/gen-sdk.sh, and preparing a program directory of a language against provider plugins
// and their generated SDK, so that it runs offline (no module proxy, no PyPI, no plugin download). A test writes the
// program and its assertions; CliStack (cli-stack.ts) runs it, given the prepared directory and environment.
// scripts/README.md says what is built and why.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";

import { type LanguageHosts } from "../../tools/release/language-hosts";

const run = promisify(execFile);
const REPO = [path.resolve(__dirname, "..", ".."), path.resolve(__dirname, "..", "..", "..")].find((dir) =>
  fs.existsSync(path.join(dir, "scripts", "gen-sdk.sh")),
)!;

export type ProgramLanguage = "yaml" | "go" | "python";

/**
 * Writes the SDKs of a package schema into <outDir>/<language> (scripts/gen-sdk.sh: Pulumi's code generators at the
 * CLI's version, offline once the tool is built; .ci/run builds it). Returns outDir.
 */
export async function generateSdks(
  schemaFile: string,
  outDir: string,
  languages: ("go" | "nodejs" | "python")[] = ["go", "python"],
): Promise<string> {
  await run(path.join(REPO, "scripts", "gen-sdk.sh"), [schemaFile, outDir, ...languages]);
  return outDir;
}

/** A provider plugin a program uses: its name and the directory holding its `pulumi-resource-<name>` executable. */
export interface PluginDir {
  name: string;
  dir: string;
}

export interface ProgramSetup {
  language: ProgramLanguage;
  /**
   * The program's own files, copied as they are: Pulumi.yaml (name, runtime and, for YAML, the resources; no
   * `plugins:` section, it is added) and the source (`main.go`; `__main__.py`). No go.mod or virtual environment.
   */
  sourceDir: string;
  /** A scratch directory; the program is prepared in <workDir>/<language>. The caller removes it. */
  workDir: string;
  /** The provider plugins, listed under `plugins: providers:` in Pulumi.yaml (so no plugin is looked up or fetched). */
  plugins: PluginDir[];
  /** Where generateSdks() wrote the SDKs (Go and Python programs use <sdkDir>/go, <sdkDir>/python). */
  sdkDir?: string;
  hosts: LanguageHosts;
}

export interface PreparedProgram {
  /** The program directory, for CliStack's `programDir`. */
  dir: string;
  /**
   * For CliStack's `env`: the hosts first on PATH, and what the language needs to run offline (Go: no module proxy;
   * Python: the program's own interpreter).
   */
  env: Record<string, string>;
}

/**
 * A program directory of the given language, ready for `pulumi up` offline:
 * - every language: the sources copied, `plugins: providers:` appended to Pulumi.yaml;
 * - Go: a go.mod that requires sdk/v3 at the CLI's version and the generated Go SDK (its module, from
 *   <sdkDir>/go/go.mod, replaced by that directory), with a go.sum resolved from the module cache (GOPROXY=off);
 * - Python: a virtual environment (`venv/`) on top of the hosts' one, with the generated SDK pip-installed into it
 *   from <sdkDir>/python (no index), named by PULUMI_PYTHON_CMD (the Python host this CLI can run ignores the
 *   `virtualenv` runtime option: see scripts/README.md).
 */
export async function prepareProgram(setup: ProgramSetup): Promise<PreparedProgram> {
  const dir = path.join(setup.workDir, setup.language);
  fs.cpSync(setup.sourceDir, dir, { recursive: true });
  appendPlugins(path.join(dir, "Pulumi.yaml"), setup.plugins);
  const env: Record<string, string> = {
    PATH: `${setup.hosts.bin}${path.delimiter}${process.env.PATH ?? ""}`,
  };
  if (setup.language === "go") Object.assign(env, await prepareGo(dir, sdkPart(setup, "go")));
  if (setup.language === "python")
    Object.assign(env, await preparePython(dir, sdkPart(setup, "python"), setup.hosts));
  return { dir, env };
}

function sdkPart(setup: ProgramSetup, language: "go" | "python"): string {
  if (!setup.sdkDir)
    throw new Error(`a ${language} program needs sdkDir (the directory generateSdks() wrote)`);
  const dir = path.join(setup.sdkDir, language);
  if (!fs.existsSync(dir))
    throw new Error(`${dir} not found: generate the ${language} SDK first (generateSdks)`);
  return dir;
}

function appendPlugins(projectFile: string, plugins: PluginDir[]): void {
  const yaml = fs.readFileSync(projectFile, "utf8");
  if (/^plugins:/m.test(yaml)) throw new Error(`${projectFile} has a plugins: section already; leave it out`);
  const entries = plugins.map(
    (p) => `    - name: ${p.name}\n      path: ${JSON.stringify(path.resolve(p.dir))}\n`,
  );
  fs.writeFileSync(projectFile, `${yaml.replace(/\n*$/, "\n")}plugins:\n  providers:\n${entries.join("")}`);
}

/**
 * Go with no network: modules only from the cache (language-hosts.sh filled it, checking each against the checksum
 * database as it fetched it), no toolchain download, and no checksum database: with a module missing from go.sum,
 * Go would prove its checksum against the newest tree it has seen (kept in GOPATH/pkg/sumdb, so any online `go`
 * command on the machine moves it), needing tiles the cache may not hold, and went to sum.golang.org for them.
 */
export const GO_OFFLINE = { GOPROXY: "off", GOSUMDB: "off", GOTOOLCHAIN: "local" };

async function prepareGo(dir: string, sdkGo: string): Promise<Record<string, string>> {
  const sdkMod = path.join(sdkGo, "go.mod");
  if (!fs.existsSync(sdkMod))
    throw new Error(
      `${sdkMod} not found: the generators write a go.mod for the Go SDK when the schema has ` +
        `"meta": {"supportPack": true} (its module is the directory of language.go.importBasePath)`,
    );
  const { stdout } = await run("pulumi", ["version"]);
  const pulumiVersion = stdout.trim();
  fs.writeFileSync(
    path.join(dir, "go.mod"),
    [
      `module example.invalid/${path.basename(dir)}-program`,
      "",
      "go 1.25",
      "",
      `require github.com/pulumi/pulumi/sdk/v3 ${pulumiVersion}`,
      "",
    ].join("\n"),
  );
  return useGoModule(dir, sdkGo);
}

/**
 * Makes the Go program in `dir` build against the module in `moduleDir` (a `replace`, required at v0.0.0 unless
 * go.mod requires it already), and completes go.mod and go.sum offline (`go mod tidy` from the module cache).
 * Returns the environment the program then builds in.
 */
export async function useGoModule(dir: string, moduleDir: string): Promise<Record<string, string>> {
  const moduleMod = path.join(moduleDir, "go.mod");
  const module = /^module\s+(\S+)/m.exec(fs.readFileSync(moduleMod, "utf8"))?.[1];
  if (!module) throw new Error(`${moduleMod} names no module`);
  const env = { ...process.env, ...GO_OFFLINE };
  const { stdout } = await run("go", ["mod", "edit", "-json"], { cwd: dir, env });
  const required = (JSON.parse(stdout) as { Require?: { Path: string }[] }).Require ?? [];
  if (!required.some((r) => r.Path === module))
    await run("go", ["mod", "edit", `-require=${module}@v0.0.0`], { cwd: dir, env });
  await run("go", ["mod", "edit", `-replace=${module}=${path.resolve(moduleDir)}`], { cwd: dir, env });
  await run("go", ["mod", "tidy"], { cwd: dir, env }).catch((e: Error & { stderr?: string }) => {
    throw new Error(
      `go mod tidy in ${dir} failed offline (${e.stderr?.trim() ?? e.message}); ` +
        "scripts/language-hosts.sh puts the modules of sdk/v3 at the CLI's version, and at the versions examples/*/go.mod require, into Go's module cache",
    );
  });
  return GO_OFFLINE;
}

async function preparePython(
  dir: string,
  sdkPython: string,
  hosts: LanguageHosts,
): Promise<Record<string, string>> {
  // pip builds a source tree in place (build/, *.egg-info): install from a copy, so that programs prepared side by
  // side never share one.
  const sdkCopy = path.join(dir, ".sdk-python");
  fs.cpSync(sdkPython, sdkCopy, { recursive: true });
  return { PULUMI_PYTHON_CMD: await pythonVenvWith(path.join(dir, "venv"), sdkCopy, hosts) };
}

/**
 * A new virtual environment at `venv` with `pythonPackage` (a wheel, an sdist or a source tree) pip-installed into
 * it, offline; returns its python. The environment is light: it sees the hosts' one (pulumi, pip, setuptools) through
 * a .pth file, so installing the package never changes the shared one, and the package's dependencies are found
 * there (no index).
 */
export async function pythonVenvWith(
  venv: string,
  pythonPackage: string,
  hosts: LanguageHosts,
): Promise<string> {
  const python = path.join(venv, "bin", "python");
  const purelib = async (interpreter: string) =>
    (
      await run(interpreter, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    ).stdout.trim();
  await run(path.join(hosts.pythonVenv, "bin", "python"), ["-m", "venv", "--without-pip", venv]);
  const base = await purelib(path.join(hosts.pythonVenv, "bin", "python"));
  fs.writeFileSync(
    path.join(await purelib(python), "pulumi-rimuhosting-base.pth"),
    `import site; site.addsitedir(${JSON.stringify(base)})\n`,
  );
  const pipOffline = ["--no-index", "--no-build-isolation", "--disable-pip-version-check", "--quiet"];
  await run(python, ["-m", "pip", "install", ...pipOffline, pythonPackage], {
    cwd: path.dirname(venv),
  }).catch((e: Error & { stderr?: string }) => {
    throw new Error(`pip install ${pythonPackage} failed offline: ${e.stderr?.trim() ?? e.message}`);
  });
  return python;
}
