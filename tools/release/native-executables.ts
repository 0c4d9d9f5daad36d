/**
 * `node dist/tools/release/native-executables.js <outDir> <platform>...`: the plugin executables of platforms whose
 * own node runs on this machine but not on the Linux machine that builds the release: darwin-arm64 and darwin-amd64
 * (under Rosetta 2) on a Mac, windows-amd64 on Windows. Each is made by its platform's own node, so it carries V8's
 * code cache of the bundle, which the Linux build cannot make for them (V8 takes a cache only in the build of V8 that
 * wrote it). The release workflow runs this on macos-latest and windows-latest, and `npm run release:build` takes
 * the executables in place of its own (RELEASE_NATIVE_EXECUTABLES, build.ts) after checking that they embed the same
 * bundles it made.
 *
 * Writes `<outDir>/<platform>/<executable>` and `<outDir>/<platform>/bundles.sha256`, the hash of the bundles they
 * embed (bundlesHash).
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bundleParts, bundlePlugin } from "../../provider/native/pack.js";
import { partFileName, type PartName } from "../../provider/native/parts.js";
import { commandHere } from "./check-executable.js";
import { TARGETS } from "./node-binaries.js";
import { buildPluginExecutable } from "./plugin-executable.js";

/** The hash of the plugin's bundle and of its parts' (by name): what two builds of the executables must share. */
export function bundlesHash(bundle: string, parts: Record<string, string>): string {
  const hash = crypto.createHash("sha256").update(fs.readFileSync(bundle));
  for (const name of Object.keys(parts).sort()) hash.update(name).update(fs.readFileSync(parts[name]!));
  return hash.digest("hex");
}

export async function buildNativeExecutables(outDir: string, platforms: string[]): Promise<void> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-native-"));
  try {
    const bundle = path.join(staging, "provider.js");
    await bundlePlugin(bundle);
    const parts = await bundleParts(staging);
    const assets = Object.fromEntries(
      (Object.entries(parts) as [PartName, string][]).map(([name, file]) => [partFileName(name), file]),
    );
    const hash = bundlesHash(bundle, parts);
    for (const platform of platforms) {
      const t = TARGETS.find((x) => x.platform === platform);
      if (!t)
        throw new Error(
          `no platform ${platform}; the platforms are ${TARGETS.map((x) => x.platform).join(", ")}`,
        );
      if (!commandHere(t, "node"))
        throw new Error(
          `${platform}'s node does not run on this ${process.platform}-${process.arch} machine`,
        );
      const dir = path.join(outDir, platform);
      fs.mkdirSync(dir, { recursive: true });
      buildPluginExecutable(
        t,
        bundle,
        assets,
        path.join(dir, t.executable),
        { node: process.execPath },
        (line) => process.stderr.write(`native-executables: ${line}\n`),
      );
      fs.writeFileSync(path.join(dir, "bundles.sha256"), `${hash}\n`);
      process.stderr.write(`native-executables: ${path.join(dir, t.executable)}\n`);
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [outDir, ...platforms] = process.argv.slice(2);
  if (!outDir || platforms.length === 0) {
    process.stderr.write("usage: native-executables <outDir> <platform>...\n");
    process.exit(2);
  }
  buildNativeExecutables(path.resolve(outDir), platforms).catch((error: unknown) => {
    process.stderr.write(`native-executables: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
