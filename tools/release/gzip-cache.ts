/**
 * The gzip of the release's large archives, kept outside the clone under the SHA-256 of the bytes compressed, so
 * that a build archiving the same bytes again takes the compressed file instead of deflating ~150 MB anew (about
 * 4 CPU-s a plugin tarball): release-verify's second build archives the same executables as the first (all but
 * linux-amd64, whose snapshot holds a count of its own), and a build of an already-built commit the same tarballs.
 *
 * Node's gzip is a function of its input, zlib's version and the level: the key holds all three. A kept file's
 * copy is used only once it decompresses to bytes of the key's hash (about a quarter of the compression's CPU);
 * else the input is compressed anew. `<cache>/gzip/<key>.gz`, written beside and renamed into place; the KEEP
 * most recently used stay.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { pipeline } from "node:stream/promises";
import * as zlib from "node:zlib";
import { nodeCacheDir } from "./node-binaries.js";

/** Enough for two builds' five plugin tarballs and a few more (~50 MB each). */
const KEEP = 12;
/** Archives smaller than this are compressed each time: hashing and checking cost about what compressing does. */
const SMALLEST = 1 << 20;

export const gzipCacheDir = (): string => path.join(nodeCacheDir(), "gzip");

/** The SHA-256 (hex) of what `source` yields. */
async function digestOf(source: NodeJS.ReadableStream): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(source, hash);
  return hash.digest("hex");
}

/** Whether `gz` is a gzip file that decompresses to bytes of SHA-256 `digest`. */
async function decompressesTo(gz: string, digest: string): Promise<boolean> {
  try {
    return (await digestOf(fs.createReadStream(gz).pipe(zlib.createGunzip()))) === digest;
  } catch {
    return false; // not gzip, or cut short
  }
}

const compress = (from: string, to: string) =>
  pipeline(fs.createReadStream(from), zlib.createGzip(), fs.createWriteStream(to));

/** The key of `digest`'s gzip: the input's hash, zlib's version and the level (the default, as createGzip uses). */
export const gzipKey = (digest: string): string =>
  crypto
    .createHash("sha256")
    .update(`zlib ${process.versions.zlib} level ${zlib.constants.Z_DEFAULT_COMPRESSION}\n${digest}`)
    .digest("hex")
    .slice(0, 40);

/**
 * Writes `to`, the gzip of `from`: the kept one for the same bytes when it checks out, else compressed here (and
 * kept). Returns which.
 */
export async function gzipFile(from: string, to: string): Promise<"kept" | "compressed"> {
  if (fs.statSync(from).size < SMALLEST) {
    await compress(from, to);
    return "compressed";
  }
  const digest = await digestOf(fs.createReadStream(from));
  const kept = path.join(gzipCacheDir(), `${gzipKey(digest)}.gz`);
  if (await takeKept(kept, to, digest)) return "kept";
  await compress(from, to);
  keep(to, kept);
  return "compressed";
}

/**
 * Copies `kept` to `to` and checks the copy, not the kept file: another build on the machine may prune or replace
 * the kept file at any moment (a check of it, then a copy, once failed on a file pruned in between). The copy reads
 * one open file, whole even if it is unlinked meanwhile. False when there is none or the copy does not check out.
 */
async function takeKept(kept: string, to: string, digest: string): Promise<boolean> {
  try {
    fs.copyFileSync(kept, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  if (!(await decompressesTo(to, digest))) return false;
  const now = new Date();
  try {
    fs.utimesSync(kept, now, now);
  } catch {
    // pruned by another build since the copy: the copy stands
  }
  return true;
}

/** Keeps `gz` as `kept` (renamed into place: a build killed halfway leaves no half file), then prunes the oldest. */
function keep(gz: string, kept: string): void {
  const dir = path.dirname(kept);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${kept}.tmp-${process.pid}`;
  try {
    fs.copyFileSync(gz, tmp);
    fs.renameSync(tmp, kept);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  // Another build may prune at the same time: a file gone between the listing and its stat is skipped.
  const entries = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".gz"))
    .flatMap((name) => {
      const stat = fs.statSync(path.join(dir, name), { throwIfNoEntry: false });
      return stat ? [{ name, used: stat.mtimeMs }] : [];
    })
    .sort((a, b) => b.used - a.used);
  for (const { name } of entries.slice(KEEP)) fs.rmSync(path.join(dir, name), { force: true });
}
