/**
 * The SDK packages of a release, built from the SDKs that `npm run sdk` generated into sdk/ (the files the release
 * commit holds; the Go SDK is released as that commit's sdk/ module, tagged sdk/v<version>, so it has no file here):
 *
 * - Node.js: `@pulumi-rimuhosting/rimuhosting` as an npm tarball of compiled JavaScript and declarations. The
 *   generator writes a TypeScript project, not a package: no JavaScript, no `main`, and `tsc` puts its output in
 *   bin/, away from the package.json that utilities.ts reads the version from. So `npm install sdk/nodejs` links
 *   sources Node cannot load, and npm no longer runs a dependency's install scripts by default, so a postinstall
 *   compile (Pulumi's "local SDK" mode) would not run either. As Pulumi's own providers do, the package is bin/:
 *   the compiled files with package.json and README.md beside them.
 * - Python: `pulumi_rimuhosting` as a wheel and an sdist, built with setuptools' own build hooks (PEP 517) from
 *   a copy of sdk/python; the wheel is built from the unpacked sdist, so an incomplete sdist fails here.
 * - Java: Maven's `com.pulumi:rimuhosting` as the three files a Maven repository holds of a release: the jar, its
 *   sources jar and its pom (`rimuhosting-<version>.jar`, `-sources.jar`, `.pom`), built by Maven (`mvn package`)
 *   from a copy of sdk/java, every entry's time the release's SOURCE_DATE_EPOCH. A user installs them into the
 *   local repository with `mvn install:install-file` (docs/java.md) until Maven Central holds them.
 *
 * tools/release/build.ts (`npm run release:build`) calls buildSdkPackages(); test/package/sdk-packages.test.ts
 * installs each package into a fresh project.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../provider/native/schema/plugin-dir";
import { findLanguageHosts } from "./language-hosts";

const run = promisify(execFile);
const SDK = path.join(REPO_ROOT, "sdk");

/**
 * Writes the Node.js SDK's npm tarball, the Python wheel and sdist, and the Java jar, sources jar and pom into
 * outDir; returns their paths.
 */
export async function buildSdkPackages(outDir: string): Promise<string[]> {
  checkSdksAreCurrent();
  const npmTarball = await packNodejsSdk(outDir);
  const { sdist, wheel } = await buildPythonSdk(outDir);
  const java = await buildJavaSdk(outDir);
  return [npmTarball, wheel, sdist, java.jar, java.sources, java.pom];
}

/** The Java SDK's Maven coordinates, from sdk/java/pom.xml (the generator writes them there). */
export function javaArtifact(pomXml = fs.readFileSync(path.join(SDK, "java/pom.xml"), "utf8")): {
  groupId: string;
  artifactId: string;
  version: string;
} {
  // The project's own elements come before <dependencies> (gen-sdk's template); a dependency's would follow them.
  const head = pomXml.slice(0, pomXml.indexOf("<dependencies>"));
  const field = (name: string) => {
    const value = new RegExp(`<${name}>([^<]+)</${name}>`).exec(head)?.[1];
    if (!value) throw new Error(`sdk/java/pom.xml names no project ${name}`);
    return value;
  };
  return { groupId: field("groupId"), artifactId: field("artifactId"), version: field("version") };
}

/**
 * The Java SDK's jar, sources jar and pom in outDir, named as a Maven repository names them. Maven finds the
 * pinned plugins and com.pulumi:pulumi in its local repository (~/.m2) when scripts/language-hosts.sh filled it,
 * else downloads them from Maven Central the first time. `-B`: no colours or progress in the log.
 */
export async function buildJavaSdk(outDir: string): Promise<{ jar: string; sources: string; pom: string }> {
  const { artifactId, version } = javaArtifact();
  const out = path.resolve(outDir);
  fs.mkdirSync(out, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-sdk-java-"));
  try {
    const project = path.join(work, "java");
    fs.cpSync(path.join(SDK, "java"), project, { recursive: true });
    // Reproducible jars: maven-archiver stamps every entry with this time instead of the build's.
    const epoch = process.env.SOURCE_DATE_EPOCH;
    const timestamp = epoch ? [`-Dproject.build.outputTimestamp=${epoch}`] : [];
    await run("mvn", ["-B", "-q", "package", ...timestamp], { cwd: project }).catch(
      (e: Error & { stdout?: string; code?: string }) => {
        if (e.code === "ENOENT")
          throw new Error("mvn is not on PATH: building the Java SDK needs Maven and a JDK");
        throw new Error(`the Java SDK does not build with Maven:\n${e.stdout ?? e.message}`);
      },
    );
    const name = `${artifactId}-${version}`;
    const files = {
      jar: path.join(out, `${name}.jar`),
      sources: path.join(out, `${name}-sources.jar`),
      pom: path.join(out, `${name}.pom`),
    };
    fs.copyFileSync(path.join(project, "target", `${name}.jar`), files.jar);
    fs.copyFileSync(path.join(project, "target", `${name}-sources.jar`), files.sources);
    fs.copyFileSync(path.join(project, "pom.xml"), files.pom);
    return files;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The SDKs in sdk/ must be of this version (test/native/sdk.test.ts holds them to the schema, file for file), or the
 * packages would carry another version than the release's.
 */
export function checkSdksAreCurrent(): void {
  const { version } = readJson<{ version: string }>(path.join(REPO_ROOT, "package.json"));
  const sdkVersion = readJson<{ version: string }>(path.join(SDK, "nodejs/package.json")).version;
  const javaVersion = javaArtifact().version;
  if (javaVersion !== version)
    throw new Error(
      `the Java SDK in sdk/java is of version ${javaVersion}, not ${version}: run \`npm run sdk\` and commit sdk/`,
    );
  if (sdkVersion !== version)
    throw new Error(
      `the SDKs in sdk/ are of version ${sdkVersion}, not ${version}: run \`npm run sdk\` and commit sdk/`,
    );
}

/** `npm pack` of the compiled Node.js SDK into outDir; returns the tarball's path. */
export async function packNodejsSdk(outDir: string): Promise<string> {
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-sdk-nodejs-"));
  try {
    const project = path.join(work, "nodejs");
    fs.cpSync(path.join(SDK, "nodejs"), project, { recursive: true });
    // The compiler and the typings the SDK's tsconfig names, from this checkout (no install, no network).
    for (const name of ["@pulumi/pulumi", "@types/node"]) {
      const link = path.join(project, "node_modules", name);
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules", name), link, "dir");
    }
    // No source maps: they would point at TypeScript sources the package does not hold.
    const tsc = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    await run(process.execPath, [
      tsc,
      "-p",
      project,
      "--sourceMap",
      "false",
      "--declarationMap",
      "false",
    ]).catch((e: Error & { stdout?: string }) => {
      throw new Error(`the Node.js SDK does not compile:\n${e.stdout ?? e.message}`);
    });
    const pkg = path.join(project, "bin");
    for (const file of ["package.json", "README.md"])
      fs.copyFileSync(path.join(project, file), path.join(pkg, file));
    fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(pkg, "LICENSE"));
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", path.resolve(outDir)], {
      cwd: pkg,
      env: { ...process.env, npm_config_update_notifier: "false" },
    });
    const [report] = JSON.parse(stdout.slice(stdout.indexOf("["))) as { filename: string }[];
    return path.join(path.resolve(outDir), report!.filename);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Builds with setuptools' PEP 517 hooks in `python` (run in the source tree given as cwd): one sdist or wheel into
 * `outDir`, printing the file's name.
 */
const BUILD_HOOK = `import sys
from setuptools import build_meta
kind, out = sys.argv[1], sys.argv[2]
print(build_meta.build_sdist(out) if kind == "sdist" else build_meta.build_wheel(out))
`;

/** The Python SDK's sdist and wheel in outDir. */
export async function buildPythonSdk(outDir: string): Promise<{ sdist: string; wheel: string }> {
  const python = await pythonForBuilding();
  const out = path.resolve(outDir);
  fs.mkdirSync(out, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-sdk-python-"));
  const build = async (kind: "sdist" | "wheel", cwd: string): Promise<string> => {
    const { stdout } = await run(python, ["-c", BUILD_HOOK, kind, out], { cwd }).catch(
      (e: Error & { stderr?: string }) => {
        throw new Error(`building the Python SDK's ${kind} failed:\n${e.stderr ?? e.message}`);
      },
    );
    return path.join(out, stdout.trim().split("\n").pop()!);
  };
  try {
    const source = path.join(work, "python");
    fs.cpSync(path.join(SDK, "python"), source, { recursive: true });
    // pyproject.toml names README.md beside it; the generator writes the package's README inside the package.
    fs.copyFileSync(path.join(source, "pulumi_rimuhosting/README.md"), path.join(source, "README.md"));
    const sdist = await build("sdist", source);
    const unpacked = path.join(work, "sdist");
    fs.mkdirSync(unpacked);
    await run("tar", ["-xzf", sdist, "-C", unpacked, "--strip-components=1"]);
    const wheel = await build("wheel", unpacked);
    return { sdist, wheel };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * setuptools for the build: one pinned release, so that every machine writes the same metadata. It builds without
 * `wheel` (70.1 and later) and still reads the `[project.license]` table the generator writes (deprecated, until
 * 2027-02).
 */
const SETUPTOOLS = "84.2.1";

/**
 * The Python that builds the SDK: $PYTHON if set (it needs setuptools >= 70.1), else a virtual environment with
 * setuptools ${SETUPTOOLS}, made from python3 and PyPI the first time into a cache outside the clone (keyed by the
 * two versions); offline, the virtual environment of scripts/language-hosts.sh (on PATH) when it can build.
 */
async function pythonForBuilding(): Promise<string> {
  if (process.env.PYTHON) return process.env.PYTHON;
  const cache = process.env.PULUMI_RIMU_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-rimuhosting");
  const { stdout: pythonVersion } = await run("python3", [
    "-c",
    "import sys; print(sys.version.split()[0])",
  ]).catch(() => {
    throw new Error("python3 is not on PATH: building the Python SDK needs Python 3.10 or later");
  });
  const venv = path.join(cache, "python-build", `setuptools-${SETUPTOOLS}-cpython${pythonVersion.trim()}`);
  const python = path.join(venv, "bin", "python");
  if (fs.existsSync(python)) return python;
  const partial = `${venv}.${process.pid}.tmp`;
  try {
    await run("python3", ["-m", "venv", partial]);
    await run(path.join(partial, "bin", "python"), [
      ...["-m", "pip", "install", "--quiet", "--disable-pip-version-check"],
      `setuptools==${SETUPTOOLS}`,
    ]);
    // Made under a temporary name and renamed: an install killed halfway leaves nothing that looks finished.
    fs.renameSync(partial, venv);
    return python;
  } catch (e) {
    fs.rmSync(partial, { recursive: true, force: true });
    const hostsVenv = findLanguageHosts().hosts?.pythonVenv;
    const probe =
      "import setuptools, importlib.util as u; v = tuple(int(x) for x in setuptools.__version__.split('.')[:2]); " +
      "assert v >= (61, 0) and (v >= (70, 1) or u.find_spec('wheel'))";
    const fallback = hostsVenv && path.join(hostsVenv, "bin", "python");
    if (
      fallback &&
      (await run(fallback, ["-c", probe]).then(
        () => true,
        () => false,
      ))
    )
      return fallback;
    throw new Error(
      `could not install setuptools ${SETUPTOOLS} from PyPI into ${venv} (${(e as Error).message.split("\n")[0]}); ` +
        "set PYTHON to a Python that has setuptools >= 70.1",
      { cause: e },
    );
  }
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

if (require.main === module) {
  const outDir = process.argv[2] ?? path.join(REPO_ROOT, "dist/release");
  buildSdkPackages(outDir).then(
    (files) => files.forEach((file) => console.log(path.relative(process.cwd(), file))),
    (e: Error) => {
      console.error(`sdk-packages: ${e.message}`);
      process.exitCode = 1;
    },
  );
}
