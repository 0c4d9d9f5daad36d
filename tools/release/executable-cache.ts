/**
 * The plugin executables a release build made, kept outside the clone and keyed by what their bytes are made from,
 * so that the next build of the same inputs (the tests' next run, a warm CI run in a fresh clone) takes them instead
 * of running `node --build-sea` again: about 3 minutes of CPU for the five, most of it linux-arm64's under qemu-user.
 *
 * An executable is kept only after the build checked it (GetPluginInfo answered where it runs here, checkFormat
 * elsewhere): a kept one needs no second check, and a fresh build that wrote the same bytes needs none either (the
 * same bytes answered before). `--fresh` (build.ts) builds every executable anew all the same: release-verify's
 * second build, which must compare what our code makes now with what the first build took.
 *
 * `<cache>/executables/<platform>-<key>/`: the executable and `sha256`, its hash; the KEEP newest of a platform stay.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { nodeCacheDir, SEA_NODE_VERSION, type Target } from "./node-binaries.js";

/** How many builds' executables of each platform stay cached (~150 MB each): enough for a few branches in turn. */
const KEEP = 2;

export const executableCacheDir = (): string => path.join(nodeCacheDir(), "executables");

export const sha256Of = (file: string): string =>
  crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/**
 * The signing tool as its path names it (scripts/rcodesign.sh: `<cache root>/rcodesign/<version>-<build>/bin/…`),
 * from `rcodesign/` on: its version and build, not where the cache root is. A CI run with a cache root of its own
 * (PULUMI_RIMU_CACHE) signs with the same tool; keyed by the whole path, it missed every executable kept before,
 * and release-verify's second build, finding none kept under its key, started linux-arm64's under qemu again.
 */
export function signingToolName(rcodesign: string | undefined): string {
  if (!rcodesign) return "";
  const at = rcodesign.lastIndexOf(`${path.sep}rcodesign${path.sep}`);
  return at < 0 ? rcodesign : rcodesign.slice(at + 1);
}

/**
 * The key of `t`'s executable: the node version it is made with, the plugin's bundle and its assets (by name),
 * the release code that makes and signs it (`codeFiles`: every file of tools/release) and the signing tool's
 * version and build (signingToolName). Anything else that reached the bytes would break release-verify's comparison.
 */
export function executableKey(
  t: Target,
  bundle: string,
  assets: Record<string, string>,
  codeFiles: string[],
  rcodesign: string | undefined,
): string {
  const hash = crypto
    .createHash("sha256")
    .update(`${t.platform} ${SEA_NODE_VERSION} ${signingToolName(rcodesign)}\n`);
  hash.update(fs.readFileSync(bundle));
  for (const name of Object.keys(assets).sort()) hash.update(name).update(fs.readFileSync(assets[name]!));
  for (const file of [...codeFiles].sort()) hash.update(path.basename(file)).update(fs.readFileSync(file));
  return hash.digest("hex").slice(0, 32);
}

const entryDir = (t: Target, key: string) => path.join(executableCacheDir(), `${t.platform}-${key}`);

/** The kept executable of `t` for `key` and its hash, or undefined; marks it used (the newest stay). */
export function keptExecutable(t: Target, key: string): { file: string; sha256: string } | undefined {
  const dir = entryDir(t, key);
  const file = path.join(dir, t.executable);
  try {
    const sha256 = fs.readFileSync(path.join(dir, "sha256"), "utf8").trim();
    if (!fs.existsSync(file)) return undefined;
    const now = new Date();
    fs.utimesSync(dir, now, now);
    return { file, sha256 };
  } catch {
    return undefined;
  }
}

/**
 * Keeps `exe`, checked by the build, as `t`'s executable for `key` (unless one is kept already), then removes all
 * but the KEEP newest of `t`. Written beside and renamed into place, so a build killed halfway or another build at
 * the same time leaves no half entry.
 */
export function keepExecutable(t: Target, key: string, exe: string): void {
  const dir = entryDir(t, key);
  if (fs.existsSync(dir)) return;
  fs.mkdirSync(executableCacheDir(), { recursive: true });
  const tmp = fs.mkdtempSync(`${dir}.tmp-`);
  try {
    fs.copyFileSync(exe, path.join(tmp, t.executable));
    fs.chmodSync(path.join(tmp, t.executable), 0o755);
    fs.writeFileSync(path.join(tmp, "sha256"), `${sha256Of(exe)}\n`);
    fs.renameSync(tmp, dir);
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    // another build kept the same inputs' executable first
    if (!["EEXIST", "ENOTEMPTY"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
  }
  pruneKept(t);
}

/** Removes all but the KEEP most recently used entries of `t`. */
function pruneKept(t: Target): void {
  const root = executableCacheDir();
  const entries = fs
    .readdirSync(root)
    .filter((name) => name.startsWith(`${t.platform}-`) && !name.includes(".tmp-"))
    .map((name) => ({ name, used: fs.statSync(path.join(root, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const { name } of entries.slice(KEEP))
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
}
