// What the tests of the release's artifacts share: the release itself, built once per test run
// (`npm run release:build`'s script with --if-stale, under a lock, so the test files that need it build it once
// between them; or taken back from the one a run of the same inputs kept: release-cache.ts), the tarballs
// unpacked, and a way to run the CLI with `node` hidden from everything it starts.
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion } from "../../provider/native/pack";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/native/schema/package-schema";
import { TARGETS, type Target } from "../../tools/release/node-binaries";
import { languageSkipReason, REPO_ROOT } from "./native-programs";
import { keepRelease, releaseCacheKey, restoreRelease } from "./release-cache";
import { until } from "../helpers/promises";

// Plain CommonJS, shared with the CPU log (a jest setup file).
const { asSharedSetup } = require("../helpers/shared-cpu.js") as {
  asSharedSetup: <T>(label: string, work: () => T) => T;
};

export const RELEASE_DIR = path.join(REPO_ROOT, "dist/release");
const BUILD_SCRIPT = path.join(REPO_ROOT, "dist/tools/release/build.js");
const LOCK = path.join(REPO_ROOT, "dist/release.lock");
/** The build's fingerprint of dist/release's inputs (tools/release/build.ts's --if-stale). */
const INPUTS = path.join(REPO_ROOT, "dist/release.inputs");
// Which test run last brought dist/release up to date: the build's --if-stale check bundles the plugin to compare
// its inputs (seconds of CPU), and a dozen test files ask within one run, whose sources do not change meanwhile.
const CHECKED_BY = path.join(REPO_ROOT, "dist/release.checked-by-run");
// A jest worker's parent is the run's jest process; in band, the test file runs in that process itself.
const testRun = (): string => String(process.env.JEST_WORKER_ID ? process.ppid : process.pid);
export const version = packageVersion();

/** Builds the release unless dist/release already holds it for the same inputs; one builder at a time. */
export async function ensureRelease(): Promise<string> {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  // Another test file's build may hold the lock: the lock taken is the condition (a build takes minutes; the
  // callers' set-up allows 30).
  await until("the release build's lock, held by another test file's build", takeLock, {
    timeoutMs: 1_800_000,
    intervalMs: 250,
  });
  try {
    fs.writeFileSync(path.join(LOCK, "pid"), String(process.pid));
    if (readOrEmpty(CHECKED_BY) === testRun()) return RELEASE_DIR;
    fs.rmSync(CHECKED_BY, { force: true });
    // The run's shared set-up, not the work of the file that happened to ask first (test/helpers/shared-cpu.js).
    asSharedSetup("the release build", () => {
      // A release of the same inputs built in another clone, kept (release-cache.ts), else built here and kept.
      const key = releaseCacheKey(REPO_ROOT);
      if (key && restoreRelease(key, RELEASE_DIR, INPUTS)) return;
      const built = spawnSync(process.execPath, [BUILD_SCRIPT, "--if-stale"], {
        encoding: "utf8",
        stdio: ["ignore", "ignore", "pipe"],
      });
      if (built.status !== 0) throw new Error(`the release build failed (${built.status}):\n${built.stderr}`);
      // Only a release built now is kept: one found up to date may predate a change its fingerprint leaves out.
      if (key && !built.stderr.includes("dist/release is up to date")) keepRelease(key, RELEASE_DIR, INPUTS);
    });
    fs.writeFileSync(CHECKED_BY, testRun());
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
  return RELEASE_DIR;
}

/** Takes the build's lock unless a live process holds it; a lock whose holder is gone is removed. */
function takeLock(): boolean {
  try {
    fs.mkdirSync(LOCK);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    if (!holderAlive()) fs.rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Whether the process that holds the lock still runs (a killed test run leaves its lock behind). */
function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(LOCK, "pid"), "utf8"));
  } catch {
    return true; // just taken, the pid not written yet
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The SDK packages the release holds (tools/release/sdk-packages.ts builds them into it). */
export const RELEASE_SDK = {
  wheel: path.join(RELEASE_DIR, `pulumi_rimuhosting-${version}-py3-none-any.whl`),
  npmTarball: path.join(RELEASE_DIR, `pulumi-rimuhosting-rimuhosting-${version}.tgz`),
  sdist: path.join(RELEASE_DIR, `pulumi_rimuhosting-${version}.tar.gz`),
  javaJar: path.join(RELEASE_DIR, `rimuhosting-${version}.jar`),
  javaSources: path.join(RELEASE_DIR, `rimuhosting-${version}-sources.jar`),
  javaPom: path.join(RELEASE_DIR, `rimuhosting-${version}.pom`),
};

/** Why the release cannot be built here (`npm run release:build` runs on linux x64), or undefined. */
export function releaseBuildSkipReason(): string | undefined {
  if (process.platform !== "linux" || process.arch !== "x64") return "the release is built on linux x64";
  return undefined;
}

export const target = (platform: string): Target => TARGETS.find((t) => t.platform === platform)!;
export const tarballOf = (t: Target): string =>
  path.join(RELEASE_DIR, `pulumi-resource-rimuhosting-v${version}-${t.platform}.tar.gz`);

/** Unpacks `t`'s tarball into a new scratch directory; returns it (remove it when done). */
export function unpack(t: Target): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `release-${t.platform}-`));
  execFileSync("tar", ["-xzf", tarballOf(t), "-C", dir]);
  return dir;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Every `node` executable on PATH and the one running this test, as real paths. */
function nodesHere(): string[] {
  const found = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => path.join(dir, "node"))
    .filter((file) => fs.existsSync(file));
  return [...new Set([...found, process.execPath].map((file) => fs.realpathSync(file)))];
}

/**
 * A directory to put first on PATH: its `pulumi` runs the real one in a private mount namespace where every `node`
 * of this machine is /dev/null (running one fails: "Permission denied"), and so do the language host and plugins it
 * starts; `without-node <command>` runs any command that way. Needs root (unshare -m).
 */
export function nodeHiddenBin(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "node-hidden-"));
  const pulumi = execFileSync("sh", ["-c", "command -v pulumi"], { encoding: "utf8" }).trim();
  const mounts = nodesHere()
    .map((node) => `mount --bind /dev/null ${shellQuote(node)}`)
    .join(" && ");
  const withoutNode = path.join(dir, "without-node");
  fs.writeFileSync(
    withoutNode,
    `#!/bin/sh\nexec unshare -m sh -c ${shellQuote(`${mounts} && exec "$@"`)} sh "$@"\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(
    path.join(dir, "pulumi"),
    `#!/bin/sh\nexec ${shellQuote(withoutNode)} ${shellQuote(pulumi)} "$@"\n`,
    {
      mode: 0o755,
    },
  );
  return dir;
}

/** Why `node` cannot be hidden here, or undefined when it can. */
function hidingSkipReason(): string | undefined {
  if (process.getuid?.() !== 0)
    return "hiding node needs root (unshare -m and a bind mount); CI runs as root";
  try {
    execFileSync("unshare", ["-m", "true"], { stdio: "ignore" });
  } catch {
    return "unshare -m fails here (no mount namespaces)";
  }
  return undefined;
}

/** Why the release's linux-amd64 plugin cannot run here through the CLI with node hidden, or undefined. */
export function releaseSkipReason(): string | undefined {
  return releaseBuildSkipReason() ?? languageSkipReason("yaml") ?? hidingSkipReason();
}

/** A static server of dist/release on 127.0.0.1, as a release is served; `requests` lists the paths asked for. */
export async function serveRelease(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.slice(1));
    requests.push(`/${name}`);
    const file = path.join(RELEASE_DIR, path.basename(name));
    if (!name || name.includes("/") || !fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/gzip", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The environment that sends the CLI's plugin downloads from the GitHub release the schema, the SDKs and the YAML
 * quickstart name (PLUGIN_DOWNLOAD_URL) to `server`, a serveRelease() on 127.0.0.1.
 */
export const releaseOverrides = (server: { url: string }): Record<string, string> => ({
  PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${PLUGIN_DOWNLOAD_URL.replace(/[.]/g, "\\.")}=${server.url}`,
});
