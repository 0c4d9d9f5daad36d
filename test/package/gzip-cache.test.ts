/**
 * The gzip cache of the release's archives (tools/release/gzip-cache.ts), in a scratch RELEASE_NODE_CACHE: the same
 * bytes compressed a second time come from the cache, identical to what zlib writes; other bytes never do; a kept
 * file that does not decompress to the bytes of its key is not used. That the release build's second run takes the
 * plugin tarballs' gzip from it, release-verify.test.ts's builds print ("its gzip kept"). Another build pruning the
 * cache while this one uses it (two checkouts building at once) costs a compression, never the build.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";
import * as zlib from "node:zlib";
import { gzipCacheDir, gzipFile } from "../../tools/release/gzip-cache";
import { scratchReleaseCache } from "./support/offline-project";

const scratch = scratchReleaseCache("gzip-cache");

/** A file of `size` bytes from `seed`: compressible, as an executable is, and unlike any other seed's. */
function input(name: string, seed: string, size = 3 << 20): string {
  const block = crypto.createHash("sha512").update(seed).digest();
  const file = path.join(scratch.dir, name);
  const bytes = Buffer.alloc(size);
  for (let at = 0; at < size; at += 4096) block.copy(bytes, at, 0, Math.min(block.length, size - at));
  fs.writeFileSync(file, bytes);
  return file;
}
/** node:fs itself, whose functions the cache's module calls through at each call: what a spy must replace. */
const nodeFs = createRequire(__filename)("node:fs") as typeof fs;
const out = (name: string) => path.join(scratch.dir, name);
const zlibOf = (file: string) => zlib.gzipSync(fs.readFileSync(file));

describe("the gzip cache", () => {
  const a = input("a.tar", "a");

  it("compresses the first time, takes the kept file the second, and both are zlib's bytes", async () => {
    expect(await gzipFile(a, out("a1.gz"))).toBe("compressed");
    expect(await gzipFile(a, out("a2.gz"))).toBe("kept");
    expect(fs.readFileSync(out("a1.gz")).equals(zlibOf(a))).toBe(true);
    expect(fs.readFileSync(out("a2.gz")).equals(zlibOf(a))).toBe(true);
  });

  it("never gives other bytes' gzip", async () => {
    const b = input("b.tar", "b");
    expect(await gzipFile(b, out("b.gz"))).toBe("compressed");
    expect(fs.readFileSync(out("b.gz")).equals(zlibOf(b))).toBe(true);
  });

  it("does not use a kept file that does not decompress to its key's bytes, and compresses anew", async () => {
    const c = input("c.tar", "c");
    await gzipFile(c, out("c1.gz"));
    const kept = fs.readdirSync(gzipCacheDir()).map((name) => path.join(gzipCacheDir(), name));
    // Every kept file becomes another input's gzip: right format, wrong bytes.
    for (const file of kept) fs.writeFileSync(file, zlib.gzipSync(Buffer.from("other bytes")));
    expect(await gzipFile(c, out("c2.gz"))).toBe("compressed");
    expect(fs.readFileSync(out("c2.gz")).equals(zlibOf(c))).toBe(true);
    for (const file of kept) fs.writeFileSync(file, "not gzip");
    expect(await gzipFile(a, out("a3.gz"))).toBe("compressed");
    expect(fs.readFileSync(out("a3.gz")).equals(zlibOf(a))).toBe(true);
  });

  it("leaves small archives out of the cache", async () => {
    const small = input("small.tar", "small", 64 << 10);
    const before = fs.readdirSync(gzipCacheDir()).length;
    expect(await gzipFile(small, out("small1.gz"))).toBe("compressed");
    expect(await gzipFile(small, out("small2.gz"))).toBe("compressed");
    expect(fs.readdirSync(gzipCacheDir()).length).toBe(before);
    expect(fs.readFileSync(out("small2.gz")).equals(zlibOf(small))).toBe(true);
  });

  it("compresses anew when another build prunes the kept file just before it is copied", async () => {
    const d = input("d.tar", "d");
    await gzipFile(d, out("d1.gz"));
    const copy = fs.copyFileSync;
    // The pruning build's moment: the kept file goes as this build turns to copy it.
    const prunedFirst = jest.spyOn(nodeFs, "copyFileSync").mockImplementation((src, dest, mode) => {
      if (String(src).startsWith(gzipCacheDir())) fs.rmSync(src as string, { force: true });
      return copy(src, dest, mode);
    });
    try {
      expect(await gzipFile(d, out("d2.gz"))).toBe("compressed");
    } finally {
      prunedFirst.mockRestore();
    }
    expect(fs.readFileSync(out("d2.gz")).equals(zlibOf(d))).toBe(true);
    expect(await gzipFile(d, out("d3.gz"))).toBe("kept");
  });

  it("keeps going when a kept file listed for pruning is already gone", async () => {
    const e = input("e.tar", "e");
    const list = fs.readdirSync;
    // Another build removed this one between the listing and its stat.
    const listedGone = jest
      .spyOn(nodeFs, "readdirSync")
      .mockImplementation(((dir: fs.PathLike, options?: unknown) =>
        String(dir) === gzipCacheDir()
          ? [...(list(dir) as string[]), "0000000000000000000000000000000000000000.gz"]
          : list(dir, options as undefined)) as typeof fs.readdirSync);
    try {
      expect(await gzipFile(e, out("e1.gz"))).toBe("compressed");
    } finally {
      listedGone.mockRestore();
    }
    expect(await gzipFile(e, out("e2.gz"))).toBe("kept");
  });
});
