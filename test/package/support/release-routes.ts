/**
 * The install routes the pages give until the registries hold the packages
 * (docs/installation-configuration.md#until-the-registries-hold-the-packages, repeated on each language's page), run
 * as written, in a user's environment (test/docs/support/user-env.ts: the install page sets nothing; the language's
 * own tool on PATH). test/engine/first-hour-release.test.ts runs each in a quickstart from the whole release served
 * on 127.0.0.1, then `pulumi up`.
 *
 * What changes in a line, and only this: the release's download URL becomes the server's, `<version>` becomes
 * package.json's, and the repository's URL in Go's clone becomes a local repository holding this checkout's sdk/ at
 * the tag v<version> (as GitHub would serve it). What is added around the lines, each because the tests run
 * offline (docs/testing.md's harness list): the virtual environment is given the language hosts' `pulumi` (a .pth,
 * as pythonVenvWith does) and pip gets no index (PIP_NO_INDEX), so the wheel's URL is the only thing pip fetches; Go
 * reads the modules of sdk/v3 from its cache (GO_OFFLINE); npm 12 takes what its cache has first; Maven runs offline
 * from the local repository scripts/java-host.sh filled (runMavenRoute).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LanguageHosts } from "../../../tools/release/language-hosts";
import { commandLines, recipe } from "../../docs/support/code-blocks";
import { QUIET_NPM_ENV, shell } from "../../docs/support/shell";
import { dirOnPath, userEnv } from "../../docs/support/user-env";
import { GO_OFFLINE } from "../../engine/language-programs";
import { goSdkAsTagged } from "../../engine/native-programs";
import { mavenOffline } from "../../engine/java-programs";
import { npmBinDir } from "./npm-versions";
import { REPOSITORY_WEB_URL } from "./repository-links";

/** Each route's recipes by address (test/docs/code-blocks.test.ts finds each here): the install page's runs. */
export const ROUTE_PAGES = {
  "release-npm": ["docs/installation-configuration.md#release-npm", "docs/typescript.md#release-npm"],
  "release-pip": ["docs/installation-configuration.md#release-pip", "docs/python.md#release-pip"],
  "release-go": ["docs/installation-configuration.md#release-go", "docs/go.md#release-go"],
  "release-maven": ["docs/java.md#release-maven"],
} as const;
export type Route = keyof typeof ROUTE_PAGES;

export const routeLines = (route: Route): string[] => commandLines(recipe(ROUTE_PAGES[route][0]));

/** The release's download URL the pages name, `<version>` still in it. */
export const PAGES_RELEASE_URL = `${REPOSITORY_WEB_URL}/releases/download/v<version>/`;

/** `line` with the release's URL sent to `releaseUrl` (ending in "/") and `<version>` filled in. */
export const asServed = (line: string, releaseUrl: string, version: string): string =>
  line.split(PAGES_RELEASE_URL).join(releaseUrl).split("<version>").join(version);

/** pip offline: only the wheel's URL is fetched; what it requires is in the hosts' environment (a .pth). */
const PIP_OFFLINE = { PIP_NO_INDEX: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1" };

/**
 * The environment of `route`'s lines: the install page's (the language pages give the same lines; they set
 * nothing), `harness` (names of docs/testing.md's list), and the language's tool on PATH (`toolDirs`).
 */
const routeEnv = (
  route: Route,
  harness: Record<string, string>,
  toolDirs: readonly string[],
): Record<string, string> => userEnv(ROUTE_PAGES[route][0].split("#")[0]!, {}, harness, toolDirs);

interface RouteRun {
  /** The served release: its URL (ending in "/") for PAGES_RELEASE_URL. */
  releaseUrl: string;
  version: string;
  /** The project's directory, where the page says to run the lines. */
  cwd: string;
}

/** Runs `lines` in order, each after the one before succeeded, in `env` alone; the output of all. */
async function runLines(lines: string[], cwd: string, env: Record<string, string>): Promise<string> {
  let output = "";
  for (const line of lines) {
    const result = await shell(line, { cwd, env, clean: true });
    output += `$ ${line}\n${result.output}`;
    if (result.code !== 0) throw new Error(`\`${line}\` exited with ${result.code}:\n${output}`);
  }
  return output;
}

/** The npm route, with npm 12 first on PATH (the strictest about a URL: it needs --allow-remote). */
export function runNpmRoute({ releaseUrl, version, cwd }: RouteRun): Promise<string> {
  const lines = routeLines("release-npm").map((line) => asServed(line, releaseUrl, version));
  return runLines(lines, cwd, routeEnv("release-npm", QUIET_NPM_ENV, [npmBinDir()]));
}

/**
 * The user's `python3`: the interpreter the hosts' virtual environment was made from (its pyvenv.cfg `home`), so that
 * the .pth below gives the page's venv packages built for its Python.
 */
function basePythonDir(hosts: LanguageHosts): string {
  const config = fs.readFileSync(path.join(hosts.pythonVenv, "pyvenv.cfg"), "utf8");
  const home = /^home\s*=\s*(.+)$/m.exec(config)?.[1]?.trim();
  if (!home) throw new Error(`${hosts.pythonVenv}/pyvenv.cfg names no home`);
  return home;
}

/** The pip route: the page's venv (by the user's python3), given the hosts' pulumi, then its pip lines; venv's python. */
export async function runPipRoute(
  { releaseUrl, version, cwd }: RouteRun,
  hosts: LanguageHosts,
): Promise<string> {
  const [makeVenv, ...pipLines] = routeLines("release-pip");
  if (makeVenv !== "python3 -m venv venv") throw new Error(`the pip route starts with ${makeVenv}`);
  const env = routeEnv("release-pip", PIP_OFFLINE, [basePythonDir(hosts)]);
  await runLines([makeVenv], cwd, env);
  const purelib = (python: string) =>
    execFileSync(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], {
      encoding: "utf8",
    }).trim();
  const python = path.join(cwd, "venv/bin/python");
  fs.writeFileSync(
    path.join(purelib(python), "pulumi-rimuhosting-base.pth"),
    `import site; site.addsitedir(${JSON.stringify(purelib(path.join(hosts.pythonVenv, "bin/python")))})\n`,
  );
  await runLines(
    pipLines.map((line) => asServed(line, releaseUrl, version)),
    cwd,
    env,
  );
  return python;
}

/**
 * The Go route, cloning from a repository made under `scratch` that holds this checkout's sdk/ (the module the tag
 * sdk/v<version> holds) at the tag v<version>; returns the environment it ran in, where the module then builds.
 */
export async function runGoRoute(
  { releaseUrl, version, cwd }: RouteRun,
  scratch: string,
): Promise<Record<string, string>> {
  const origin = path.join(scratch, "origin");
  goSdkAsTagged(origin);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: origin });
  git("init", "--quiet");
  git("add", "-A");
  git("commit", "--quiet", "-m", "release");
  git("tag", `v${version}`);
  const repositoryUrl = `${REPOSITORY_WEB_URL}.git`;
  const lines = routeLines("release-go");
  if (!lines.some((line) => line.includes(repositoryUrl)))
    throw new Error(`the Go route clones no ${repositoryUrl}`);
  const env = routeEnv("release-go", GO_OFFLINE, dirOnPath("go"));
  await runLines(
    lines.map((line) => asServed(line.split(repositoryUrl).join(`file://${origin}`), releaseUrl, version)),
    cwd,
    env,
  );
  return env;
}

/**
 * The Maven route of docs/java.md: the release's jar, sources jar and pom fetched by their URLs and installed into
 * Maven's local repository, in the project's directory; curl, the JDK and Maven on PATH. Maven runs offline there
 * (`--offline` in the project's .mvn/maven.config, beside the page's jvm.config), from the local repository
 * scripts/java-host.sh filled, as a user's Maven fills it from Maven Central (docs/testing.md's harness list); the
 * Java host's Maven runs in the same directory, offline too.
 */
export function runMavenRoute({ releaseUrl, version, cwd }: RouteRun): Promise<string> {
  mavenOffline(cwd);
  const lines = routeLines("release-maven");
  if (!lines.some((line) => line.includes(PAGES_RELEASE_URL)))
    throw new Error(`the Maven route fetches nothing from ${PAGES_RELEASE_URL}`);
  const env = routeEnv("release-maven", {}, [...dirOnPath("mvn"), ...dirOnPath("java")]);
  return runLines(
    lines.map((line) => asServed(line, releaseUrl, version)),
    cwd,
    env,
  );
}
