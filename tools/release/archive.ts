/**
 * Archives that come out byte for byte the same from the same files: what makes two `npm run release:build` runs
 * of one commit write identical tarballs (docs/releasing.md, "Reproducible").
 *
 * A plain `tar -czf` records each file's mtime, owner and group, lists entries in the order the directory gives
 * them, and gzip stamps the time of compression. Here: entries sorted by name, every mtime the release's
 * SOURCE_DATE_EPOCH, owner and group 0 with no names, permissions reduced to rwx for the owner and r-x for the
 * others (the execute bit kept where it was), ustar format (no pax headers carrying access times), and gzip
 * through Node's zlib, which writes no file name and a zero time in its header.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../provider/native/schema/plugin-dir.js";
import { gzipFile } from "./gzip-cache.js";

/**
 * The release's timestamp, in seconds since the epoch: $SOURCE_DATE_EPOCH when set (the reproducible-builds
 * convention), else the time of the commit being built, so one commit always gives the same archives.
 */
export function sourceDateEpoch(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.SOURCE_DATE_EPOCH;
  if (given !== undefined && given !== "") {
    if (!/^\d+$/.test(given))
      throw new Error(
        `SOURCE_DATE_EPOCH is ${JSON.stringify(given)}: it must be whole seconds since 1970 (unset it to use the commit's time)`,
      );
    return Number(given);
  }
  try {
    const printed = execFileSync("git", ["log", "-1", "--format=%ct", "HEAD"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return Number(printed.trim());
  } catch {
    throw new Error(
      `${REPO_ROOT} is not a git checkout with a commit, so the release has no timestamp: set SOURCE_DATE_EPOCH (seconds since 1970)`,
    );
  }
}

/**
 * Writes `tarball` (gzip), holding `entries` of `dir` (files or directories, recursively), reproducibly; says whether
 * its gzip was kept from an archive of the same bytes (gzip-cache.ts).
 */
export async function writeTarball(
  dir: string,
  entries: string[],
  tarball: string,
  epoch: number,
): Promise<"kept" | "compressed"> {
  fs.mkdirSync(path.dirname(tarball), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-tar-"));
  try {
    const tar = path.join(scratch, "archive.tar");
    execFileSync("tar", [
      "--create",
      `--file=${tar}`,
      "--format=ustar",
      "--sort=name",
      `--mtime=@${epoch}`,
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      "--mode=u=rwX,go=rX",
      "-C",
      dir,
      "--",
      ...[...entries].sort(),
    ]);
    // The same bytes' gzip from the cache when a build archived them before (gzip-cache.ts)
    return await gzipFile(tar, tarball);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Writes `tarball` holding the files of `dir` at its top level, reproducibly. */
export function tarDirectory(dir: string, tarball: string, epoch: number): Promise<"kept" | "compressed"> {
  return writeTarball(dir, fs.readdirSync(dir), tarball, epoch);
}

/**
 * Rewrites a gzip tarball made by another tool (the Python sdist: setuptools stamps the build's time on the files
 * it generates and in the gzip header) with the same entries and contents, reproducibly.
 */
export async function normalizeTarball(tarball: string, epoch: number): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-retar-"));
  try {
    execFileSync("tar", ["-xzf", tarball, "-C", scratch]);
    await writeTarball(scratch, fs.readdirSync(scratch), `${tarball}.tmp`, epoch);
    fs.renameSync(`${tarball}.tmp`, tarball);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
