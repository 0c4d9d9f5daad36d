/**
 * The gzip cache of the release's archives (tools/release/gzip-cache.ts), in a scratch RELEASE_NODE_CACHE: the same
 * bytes compressed a second time come from the cache, identical to what zlib writes; other bytes never do; a kept
 * file that does not decompress to the bytes of its key is not used. That the release build's second run takes the
 * plugin tarballs' gzip from it, release-verify.test.ts's builds print ("its gzip kept").
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
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
});
