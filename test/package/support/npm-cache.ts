/**
 * Forgets, in this machine's npm cache, what npm kept of a URL served on 127.0.0.1: its HTTP cache entry and any
 * `npx` install made from it. The tests run npm with `npm_config_prefer_offline` (docs/testing.md), so a URL npm
 * fetched before is taken from its cache without a request; and each run's release server listens on a port the
 * system picks, so a later run can get an earlier run's port, URL and all. npm then installs the earlier run's
 * tarball (an older build) and never asks this run's server: a test that the line fetched from the release fails,
 * or worse, one that runs the installed code passes on old code. Forgotten before a run serves a URL and after.
 *
 * The layout is npm's (cacache's index: one file per key, at the SHA-256 of the key split 2/2/rest; `_npx/<hash>`
 * holds a package.json naming the install's specs); `npm cache clean <key>` and `npm cache npx rm` do the same for
 * a user, at an npm process each.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** npm's cache directory as the tests' npm sees it (a user's default, or npm_config_cache when set). */
function npmCacheDir(): string {
  return process.env.npm_config_cache ?? path.join(os.homedir(), ".npm");
}

/** The cacache index file holding `key`. */
function indexEntryPath(cache: string, key: string): string {
  const hash = createHash("sha256").update(key).digest("hex");
  return path.join(cache, "_cacache", "index-v5", hash.slice(0, 2), hash.slice(2, 4), hash.slice(4));
}

export function forgetCachedUrls(urls: readonly string[]): void {
  const cache = npmCacheDir();
  for (const url of urls)
    fs.rmSync(indexEntryPath(cache, `make-fetch-happen:request-cache:${url}`), { force: true });
  const npx = path.join(cache, "_npx");
  let installs: string[];
  try {
    installs = fs.readdirSync(npx);
  } catch {
    return; // no npx install yet
  }
  for (const install of installs) {
    let manifest = "";
    try {
      manifest = fs.readFileSync(path.join(npx, install, "package.json"), "utf8");
    } catch {
      continue;
    }
    if (urls.some((url) => manifest.includes(JSON.stringify(url))))
      fs.rmSync(path.join(npx, install), { recursive: true, force: true });
  }
}
