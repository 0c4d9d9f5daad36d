/**
 * The cache of the release's plugin executables (tools/release/executable-cache.ts), in a scratch RELEASE_NODE_CACHE:
 * a kept executable is found again only under the key of the same inputs (each input changes the key), with its
 * hash; a second keep of one key leaves the first; only the newest entries of a platform stay. That the release
 * build takes them, and that `--fresh` does not, release-verify.test.ts shows on real builds.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  executableCacheDir,
  executableKey,
  keepExecutable,
  keptExecutable,
  sha256Of,
} from "../../tools/release/executable-cache";
import { TARGETS } from "../../tools/release/node-binaries";
import { scratchReleaseCache } from "./support/offline-project";

const scratch = scratchReleaseCache("executable-cache");

const [linux, arm] = TARGETS;
const file = (name: string, text: string) => {
  const at = path.join(scratch.dir, name);
  fs.writeFileSync(at, text);
  return at;
};

describe("the executable cache", () => {
  const bundle = file("provider.js", "bundle");
  const assets = { "emulator.js": file("emulator.js", "emulator part") };
  const code = [file("build.js", "release code")];
  const key = executableKey(linux!, bundle, assets, code, "/cache/rcodesign/v1/bin/rcodesign");

  it("changes the key with every input: platform, bundle, an asset, the release code, the signing tool", () => {
    const keys = [
      key,
      executableKey(arm!, bundle, assets, code, "/cache/rcodesign/v1/bin/rcodesign"),
      executableKey(
        linux!,
        file("other.js", "other bundle"),
        assets,
        code,
        "/cache/rcodesign/v1/bin/rcodesign",
      ),
      executableKey(linux!, bundle, { "emulator.js": bundle }, code, "/cache/rcodesign/v1/bin/rcodesign"),
      executableKey(linux!, bundle, assets, [file("sign.js", "x")], "/cache/rcodesign/v1/bin/rcodesign"),
      executableKey(linux!, bundle, assets, code, "/cache/rcodesign/v2/bin/rcodesign"),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(executableKey(linux!, bundle, assets, code, "/cache/rcodesign/v1/bin/rcodesign")).toBe(key);
  });

  it("keeps the key when only the cache root moves: the same signing tool under another PULUMI_RIMU_CACHE", () => {
    expect(executableKey(linux!, bundle, assets, code, "/ci/cache-7/rcodesign/v1/bin/rcodesign")).toBe(key);
  });

  it("finds a kept executable under its key only, with its hash; a second keep leaves the first", () => {
    expect(keptExecutable(linux!, key)).toBeUndefined();
    const exe = file("exe", "executable bytes");
    keepExecutable(linux!, key, exe);
    const kept = keptExecutable(linux!, key)!;
    expect(fs.readFileSync(kept.file, "utf8")).toBe("executable bytes");
    expect(kept.sha256).toBe(sha256Of(exe));
    expect(keptExecutable(arm!, key)).toBeUndefined();
    keepExecutable(linux!, key, file("exe2", "other bytes"));
    expect(fs.readFileSync(keptExecutable(linux!, key)!.file, "utf8")).toBe("executable bytes");
  });

  it("keeps the two most recently used entries of a platform, and the other platforms'", () => {
    const [a, b, c] = ["a", "b", "c"].map((k) => `${k}${key.slice(1)}`);
    /** Marks every entry as used `minutes` ago. */
    const age = (minutes: number) => {
      const then = new Date(Date.now() - minutes * 60_000);
      for (const name of fs.readdirSync(executableCacheDir()))
        fs.utimesSync(path.join(executableCacheDir(), name), then, then);
    };
    keepExecutable(arm!, key, file("arm", "arm bytes"));
    age(3);
    keepExecutable(linux!, a!, file("exe-a", "a"));
    keepExecutable(linux!, b!, file("exe-b", "b")); // the first entry, the oldest, goes
    age(1);
    keptExecutable(linux!, a!); // used again: it stays, and b, used longer ago, goes
    keepExecutable(linux!, c!, file("exe-c", "c"));
    const keys = [a, b, c];
    expect(keptExecutable(linux!, keys[0]!)).toBeDefined();
    expect(keptExecutable(linux!, keys[2]!)).toBeDefined();
    expect(keptExecutable(linux!, keys[1]!)).toBeUndefined();
    expect(keptExecutable(linux!, key)).toBeUndefined();
    expect(keptExecutable(arm!, key)).toBeDefined();
    expect(fs.readdirSync(executableCacheDir()).filter((n) => n.includes(".tmp-"))).toEqual([]);
  });
});
