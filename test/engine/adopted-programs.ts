// The projects `pulumi import --file` writes a program into, in each language a user adopts an account in (YAML, and
// TypeScript, Python, Go and Java on the native plugin's SDKs), made ready to run offline, and the one edit a user
// makes to such a program (a number of one resource written anew). adopt.test.ts adopts an account in YAML;
// drift-advice.test.ts adopts one in each of the others and follows the drift report's advice.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO_API_KEY } from "../../emulator/index";
import { packNodejsSdk } from "../../tools/release/sdk-packages";
import { offlineCliEnv } from "./cli-stack";
import { STACK_KEY_PROVIDER, useStackKeys } from "./stack-keys";
import { GO_OFFLINE, useGoModule } from "./language-programs";
import { compileProgram, installJavaSdk, mavenOffline, useProgramJar } from "./java-programs";
import { REPO_ROOT, goSdkAsTagged, linkPackages, pluginEntry, pythonVirtualenv } from "./native-programs";

const run = promisify(execFile);

export const ADOPT_LANGUAGES = ["yaml", "nodejs", "python", "go", "java"] as const;
export type AdoptLanguage = (typeof ADOPT_LANGUAGES)[number];

export interface AdoptedProject {
  runtime: string;
  /** The file `pulumi import --out` writes the program to, and the one the program is read from once prepared. */
  out: string;
  program: string;
  /**
   * What the language needs before the program runs (its packages; `scratch`: where to build what several projects
   * share); returns the environment it runs with.
   */
  prepare(dir: string, scratch: string): Promise<Record<string, string>>;
  /**
   * The language's project files beside Pulumi.yaml, before `pulumi import` runs (Java: the host asks the Maven
   * project which packages its program needs, so pom.xml and the SDK it names must be there already).
   */
  project?(dir: string): Promise<void>;
  /** What the language needs after the program's source is edited, before it runs again (none: nothing). */
  edited?(dir: string): Promise<unknown>;
}

/** The directory of the language hosts `pulumi import` writes programs with (scripts/codegen-hosts.sh builds them). */
export async function codegenHostsDir(): Promise<string> {
  const { stdout } = await run(path.join(REPO_ROOT, "scripts", "codegen-hosts.sh"));
  return stdout.trim().split("\n").pop()!;
}

export interface AdoptingProject {
  /** The environment its commands run with (offline, file backend in `dir`/backend); `prepare` adds to it. */
  env: Record<string, string>;
  /** Runs a command in the project's directory with `env`; fails on a non-zero exit. */
  sh(line: string): Promise<string>;
}

/**
 * An empty project of `language` in `dir`, as a user starts one before `pulumi import`: its Pulumi.yaml, the stack
 * `stack` and, in the stack's config, the emulator's address and the API key (secret). `codegenHosts` goes first on
 * PATH for the languages' code generators. `shellOk`: the test's shell (test/docs/support/shell.ts, a layer this
 * harness does not import).
 */
export async function adoptingProject(
  dir: string,
  language: AdoptLanguage,
  stack: string,
  baseUrl: string,
  codegenHosts: string,
  shellOk: (line: string, options: { cwd: string; env: Record<string, string> }) => Promise<string>,
): Promise<AdoptingProject> {
  fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
  // Keyed by the harness's key service, as CliStack's stacks are (stack-keys.ts): no passphrase's key derived again
  // in every command. It serves the test file's stacks to its end.
  const keys = await useStackKeys();
  const env: Record<string, string> = {
    ...offlineCliEnv(path.join(dir, "backend")),
    ...keys.env,
    PATH: `${codegenHosts}${path.delimiter}${process.env.PATH}`,
  };
  const sh = (line: string) => shellOk(line, { cwd: dir, env });
  const { runtime } = ADOPTED_PROJECTS[language];
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: adopted\nruntime: ${runtime}\n${pluginEntry()}`);
  await ADOPTED_PROJECTS[language].project?.(dir);
  await sh(`pulumi stack init ${stack} --secrets-provider ${STACK_KEY_PROVIDER} --non-interactive`);
  // Both keys in one command (a CLI run less per project than a `config set` each).
  await sh(
    `pulumi config set-all --plaintext rimuhosting:baseUrl=${baseUrl} --secret rimuhosting:apiKey=${DEMO_API_KEY}`,
  );
  return { env, sh };
}

/** The Node.js SDK's tarball, packed once for every project of the test file. */
let nodejsSdk: Promise<string> | undefined;
/** The Java SDK, its release files built and installed into Maven's local repository once for the test file. */
let javaSdk: Promise<void> | undefined;

async function installedJavaSdk(): Promise<void> {
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "adopted-java-sdk-"));
  try {
    await installJavaSdk(files);
  } finally {
    fs.rmSync(files, { recursive: true, force: true });
  }
}

/** Where a Maven project keeps the program `pulumi import --out` writes in Java (its class generated_program.App). */
const JAVA_PROGRAM = path.join("src", "main", "java", "generated_program", "App.java");

export const ADOPTED_PROJECTS: Record<AdoptLanguage, AdoptedProject> = {
  // The YAML host reads Main.yaml while `pulumi import` runs, so the code is written beside it and then moved there.
  yaml: {
    runtime: "yaml",
    out: "adopted.yaml",
    program: "Main.yaml",
    prepare(dir) {
      fs.renameSync(path.join(dir, "adopted.yaml"), path.join(dir, "Main.yaml"));
      return Promise.resolve({});
    },
  },
  nodejs: {
    runtime: "nodejs",
    out: "index.ts",
    program: "index.ts",
    async prepare(dir, scratch) {
      nodejsSdk ??= packNodejsSdk(path.join(scratch, "nodejs-sdk"));
      const tarball = await nodejsSdk;
      const sdk = path.join(dir, "node_modules", "@pulumi-rimuhosting", "rimuhosting");
      fs.mkdirSync(sdk, { recursive: true });
      await run("tar", ["-xzf", tarball, "-C", sdk, "--strip-components=1"]);
      linkPackages(dir, ["@pulumi/pulumi", "typescript", "@types/node"]);
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "adopted", main: "index.ts" }));
      return {};
    },
  },
  python: {
    runtime: "python",
    out: "__main__.py",
    program: "__main__.py",
    async prepare(dir) {
      const copy = path.join(dir, "sdk-copy");
      fs.cpSync(path.join(REPO_ROOT, "sdk", "python"), copy, { recursive: true });
      const venv = pythonVirtualenv()!;
      const pipOffline = ["--quiet", "--no-deps", "--no-index", "--no-build-isolation"];
      await run(path.join(venv, "bin", "pip"), [
        "install",
        ...pipOffline,
        "--target",
        path.join(dir, "site"),
        copy,
      ]);
      fs.rmSync(copy, { recursive: true, force: true });
      return { PULUMI_PYTHON_CMD: path.join(venv, "bin", "python"), PYTHONPATH: path.join(dir, "site") };
    },
  },
  go: {
    runtime: "go",
    out: "main.go",
    program: "main.go",
    async prepare(dir, scratch) {
      const { stdout } = await run("pulumi", ["version"]);
      fs.writeFileSync(
        path.join(dir, "go.mod"),
        `module example.invalid/adopted\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 ${stdout.trim()}\n`,
      );
      return { ...GO_OFFLINE, ...(await useGoModule(dir, goSdkAsTagged(path.join(scratch, "go-sdk")))) };
    },
  },
  // As docs/java.md#import says: a Maven project (the quickstart's pom.xml, naming generated_program.App, on the SDK
  // installed from its release files), the written program moved to its class's place. Maven compiles it once; then
  // the host runs it from a launcher jar (java-programs.ts: CPU), which an edit of the source needs compiled again.
  java: {
    runtime: "java",
    out: "App.java",
    program: JAVA_PROGRAM,
    async project(dir) {
      javaSdk ??= installedJavaSdk();
      await javaSdk;
      const pom = fs.readFileSync(path.join(REPO_ROOT, "examples", "java-quickstart", "pom.xml"), "utf8");
      const main = "<mainClass>generated_program.App</mainClass>";
      fs.writeFileSync(path.join(dir, "pom.xml"), pom.replace(/<mainClass>[^<]*<\/mainClass>/, main));
      mavenOffline(dir);
    },
    async prepare(dir) {
      fs.mkdirSync(path.dirname(path.join(dir, JAVA_PROGRAM)), { recursive: true });
      fs.renameSync(path.join(dir, "App.java"), path.join(dir, JAVA_PROGRAM));
      await useProgramJar(dir, "generated_program.App");
      return {};
    },
    edited: compileProgram,
  },
};

/** A property of the schema (camelCase) as the language's SDK spells it. */
export function propertyIn(language: AdoptLanguage, property: string): string {
  if (language === "python") return property.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  if (language === "go") return property[0]!.toUpperCase() + property.slice(1);
  return property; // YAML, TypeScript and Java: as the schema spells it
}

/** Where each resource of the generated program starts: its name's line (YAML) or its constructor's call. */
const RESOURCE_START: Record<AdoptLanguage, RegExp> = {
  yaml: /\n {2}\S+:\n/g,
  nodejs: /new rimuhosting\.Vps\(/g,
  python: /rimuhosting\.Vps\(/g,
  go: /rimuhosting\.NewVps\(/g,
  java: /new Vps\(/g,
};

/**
 * The program `code` with `property` of resource `name` changed from `from` to `to`, as a user edits it by hand
 * (`diskSpace2Mb: 18432` in YAML and TypeScript, `disk_space2_mb=18432` in Python, `DiskSpace2Mb: pulumi.Int(18432)`
 * in Go, `.diskSpace2Mb(18432)` in Java). Throws when the resource does not set that value: the edit the advice asks
 * for could not be made.
 */
export function setInProgram(
  language: AdoptLanguage,
  code: string,
  name: string,
  property: string,
  from: number,
  to: number,
): string {
  const start = language === "yaml" ? code.indexOf(`\n  ${name}:\n`) : code.indexOf(`"${name}"`);
  if (start < 0) throw new Error(`the ${language} program declares no resource ${name}`);
  const starts = RESOURCE_START[language];
  starts.lastIndex = start + 1;
  const end = starts.exec(code)?.index ?? code.length;
  const value = new RegExp(
    `(\\b${propertyIn(language, property)}\\b\\s*(?:[:=]\\s*(?:pulumi\\.Int\\()?|\\())${from}(?![\\d.])`,
  );
  const block = code.slice(start, end);
  if (!value.test(block))
    throw new Error(
      `resource ${name} of the ${language} program does not set ${property} to ${from}:\n${block}`,
    );
  return code.slice(0, start) + block.replace(value, `$1${to}`) + code.slice(end);
}
