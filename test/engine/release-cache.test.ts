/**
 * The kept release (test/engine/release-cache.ts), in a scratch RELEASE_NODE_CACHE and a scratch git checkout: the
 * key follows every file of the working tree (committed or not) and the commit's time, and there is none for a
 * signed build; a kept release comes back whole, and one that no longer matches its SHA256SUMS does not come back.
 * That a restored release is the one a build from scratch writes, release-verify.test.ts compares byte for byte.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { keepRelease, releaseCacheDir, releaseCacheKey, restoreRelease } from "./release-cache";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "release-cache-"));
const envBefore = { ...process.env };
beforeAll(() => {
  process.env.RELEASE_NODE_CACHE = path.join(scratch, "cache");
  delete process.env.RELEASE_SIGNING_KEY;
  delete process.env.RELEASE_NATIVE_EXECUTABLES;
  delete process.env.SOURCE_DATE_EPOCH;
});
afterAll(() => {
  process.env = envBefore;
  fs.rmSync(scratch, { recursive: true, force: true });
});

const checkout = path.join(scratch, "checkout");
/** git in the checkout, committing as `t` at `time` (seconds since 1970). */
const git = (time: number, ...args: string[]) =>
  execFileSync("git", ["-C", checkout, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_DATE: `@${time} +0000`, GIT_COMMITTER_DATE: `@${time} +0000` },
  });

/** A release directory of `files`, with its SHA256SUMS, and the fingerprint file beside it. */
function release(name: string, files: Record<string, string>): { dir: string; inputs: string } {
  const dir = path.join(scratch, name, "release");
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  const sums = Object.keys(files)
    .sort()
    .map((f) => `${createHash("sha256").update(files[f]!).digest("hex")}  ${f}\n`)
    .join("");
  fs.writeFileSync(path.join(dir, "SHA256SUMS"), sums);
  const inputs = path.join(scratch, name, "release.inputs");
  fs.writeFileSync(inputs, `fingerprint of ${name}`);
  return { dir, inputs };
}

describe("the kept release", () => {
  beforeAll(() => {
    fs.mkdirSync(checkout);
    git(0, "init", "-q");
    fs.writeFileSync(path.join(checkout, "a.ts"), "a");
    git(0, "add", "a.ts");
    git(1_700_000_000, "commit", "-q", "-m", "one");
  });

  it("has a key that follows a changed file, a new one, the commit's time; none for a signed build", () => {
    const key = releaseCacheKey(checkout)!;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(releaseCacheKey(checkout)).toBe(key);
    fs.writeFileSync(path.join(checkout, "a.ts"), "a changed");
    const changed = releaseCacheKey(checkout);
    fs.writeFileSync(path.join(checkout, "a.ts"), "a");
    fs.writeFileSync(path.join(checkout, "new.ts"), "new");
    const added = releaseCacheKey(checkout);
    fs.rmSync(path.join(checkout, "new.ts"));
    expect(releaseCacheKey(checkout)).toBe(key);
    git(1_800_000_000, "commit", "-q", "--allow-empty", "-m", "two");
    const later = releaseCacheKey(checkout);
    expect(new Set([key, changed, added, later]).size).toBe(4);
    process.env.RELEASE_SIGNING_KEY = "a key";
    expect(releaseCacheKey(checkout)).toBeUndefined();
    delete process.env.RELEASE_SIGNING_KEY;
  });

  it("comes back whole under its key only, with the build's fingerprint", () => {
    const built = release("built", { "plugin.tar.gz": "plugin bytes", "sdk.tgz": "sdk bytes" });
    keepRelease("k1", built.dir, built.inputs);
    const target = path.join(scratch, "clone", "dist", "release");
    const inputs = path.join(scratch, "clone", "dist", "release.inputs");
    expect(restoreRelease("k2", target, inputs)).toBe(false);
    expect(restoreRelease("k1", target, inputs)).toBe(true);
    expect(fs.readdirSync(target).sort()).toEqual(["SHA256SUMS", "plugin.tar.gz", "sdk.tgz"]);
    expect(fs.readFileSync(path.join(target, "plugin.tar.gz"), "utf8")).toBe("plugin bytes");
    expect(fs.readFileSync(inputs, "utf8")).toBe("fingerprint of built");
  });

  it("does not come back when a file no longer matches SHA256SUMS, and is dropped", () => {
    const built = release("tampered", { "plugin.tar.gz": "plugin bytes" });
    keepRelease("k3", built.dir, built.inputs);
    fs.writeFileSync(path.join(releaseCacheDir(), "k3", "release", "plugin.tar.gz"), "other bytes");
    const target = path.join(scratch, "clone3", "release");
    expect(restoreRelease("k3", target, path.join(scratch, "clone3", "release.inputs"))).toBe(false);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(path.join(releaseCacheDir(), "k3"))).toBe(false);
  });
});
