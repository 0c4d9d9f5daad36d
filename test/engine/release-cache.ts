/**
 * The release the tests share (release-support.ts's ensureRelease), kept outside the clone after it is built and
 * taken from there by a test run of the same inputs in another clone: a warm CI run of a commit already built on
 * this machine. The build with the plugin executables kept (tools/release/executable-cache.ts) still took about
 * 33 CPU-s (the archives' gzip, the bundles, the packages); a restore is a copy and a check.
 *
 * The key is everything the release is made from: the working tree's files by content (the sources, the release
 * code, sdk/, the policy pack, package.json and the lockfile the installed tools follow: tools/release/working-tree.ts),
 * the commit's time (every archive's timestamp), and the versions of what builds it here (node, with its zlib; npm;
 * python3; tar). A release built with a signing key, with RELEASE_NATIVE_EXECUTABLES or with SOURCE_DATE_EPOCH set is
 * neither kept nor taken. A restored release must match its SHA256SUMS, or it is built anew; and
 * release-verify.test.ts builds a second release from scratch (`--fresh`) whatever the cache holds and compares it
 * with this one byte for byte: stale bytes here fail there.
 *
 * `<cache>/release/<key>/`: dist/release's files and `release.inputs` (the build's own --if-stale fingerprint);
 * the KEEP most recently used stay.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { nodeCacheDir } from "../../tools/release/node-binaries";
import { SIGNING_KEY_ENV } from "../../tools/release/sign";
import { workingTreeHash } from "../../tools/release/working-tree";

/** Two releases of ~250 MB: a branch and main in turn. */
const KEEP = 2;

export const releaseCacheDir = (): string => path.join(nodeCacheDir(), "release");

/** The first line `command args` prints, or "none" when it cannot run. */
function versionOf(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).split(
      "\n",
    )[0]!;
  } catch {
    return "none";
  }
}

/** The key of the release the checkout at `root` builds here, or undefined when such a release is not kept. */
export function releaseCacheKey(root: string): string | undefined {
  const env = process.env;
  if (env[SIGNING_KEY_ENV] || env.RELEASE_NATIVE_EXECUTABLES || env.SOURCE_DATE_EPOCH) return undefined;
  const hash = createHash("sha256");
  hash.update(`tree ${workingTreeHash(root)}\n`);
  hash.update(`commit time ${versionOf("git", ["-C", root, "log", "-1", "--format=%ct", "HEAD"])}\n`);
  hash.update(`node ${process.version} zlib ${process.versions.zlib}\n`);
  hash.update(`npm ${versionOf("npm", ["--version"])}\n`);
  hash.update(`python3 ${versionOf("python3", ["--version"])}\n`);
  hash.update(`tar ${versionOf("tar", ["--version"])}\n`);
  return hash.digest("hex").slice(0, 32);
}

/** Whether every file of `dir` but the sums and their signature is listed in its SHA256SUMS with its hash. */
function matchesSums(dir: string): boolean {
  const sums = path.join(dir, "SHA256SUMS");
  if (!fs.existsSync(sums)) return false;
  const listed = fs.readFileSync(sums, "utf8");
  const files = fs.readdirSync(dir).filter((f) => f !== "SHA256SUMS" && f !== "SHA256SUMS.sig");
  const lines = files.sort().map(
    (f) =>
      `${createHash("sha256")
        .update(fs.readFileSync(path.join(dir, f)))
        .digest("hex")}  ${f}\n`,
  );
  return lines.join("") === listed;
}

/**
 * Fills `releaseDir` (and `inputsFile`, the build's fingerprint) from the release kept under `key`; false, leaving
 * `releaseDir` empty, when none is kept or it does not match its SHA256SUMS.
 */
export function restoreRelease(key: string, releaseDir: string, inputsFile: string): boolean {
  const kept = path.join(releaseCacheDir(), key);
  if (!fs.existsSync(path.join(kept, "release.inputs"))) return false;
  fs.rmSync(releaseDir, { recursive: true, force: true });
  fs.cpSync(path.join(kept, "release"), releaseDir, { recursive: true });
  if (!matchesSums(releaseDir)) {
    fs.rmSync(releaseDir, { recursive: true, force: true });
    fs.rmSync(kept, { recursive: true, force: true });
    return false;
  }
  fs.copyFileSync(path.join(kept, "release.inputs"), inputsFile);
  const now = new Date();
  fs.utimesSync(kept, now, now);
  return true;
}

/** Keeps `releaseDir` and `inputsFile` under `key` (renamed into place), then all but the KEEP newest go. */
export function keepRelease(key: string, releaseDir: string, inputsFile: string): void {
  const root = releaseCacheDir();
  const kept = path.join(root, key);
  if (fs.existsSync(kept)) return;
  fs.mkdirSync(root, { recursive: true });
  const tmp = fs.mkdtempSync(`${kept}.tmp-`);
  try {
    fs.cpSync(releaseDir, path.join(tmp, "release"), { recursive: true });
    fs.copyFileSync(inputsFile, path.join(tmp, "release.inputs"));
    fs.renameSync(tmp, kept);
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!["EEXIST", "ENOTEMPTY"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
  }
  const entries = fs
    .readdirSync(root)
    .filter((name) => !name.includes(".tmp-"))
    .map((name) => ({ name, used: fs.statSync(path.join(root, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const { name } of entries.slice(KEEP))
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
}
