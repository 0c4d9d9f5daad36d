/**
 * The plugin as one self-contained executable per platform: a Node.js single executable application, that is the
 * platform's official `node` binary with the esbuild bundle of the plugin embedded in it. The user's machine needs
 * no Node.js, and the engine starts it as it starts any plugin.
 *
 * Why this way (docs/releasing.md says more): the plugin is TypeScript on the same core as the dynamic provider, so
 * a compiled binary would mean a second implementation; the bundle already holds every dependency in one file; and
 * Node 26 writes the executable itself (`node --build-sea`, for ELF, Mach-O and PE targets alike), so no injector
 * or other toolchain is needed. The cost is the size of the Node runtime in every tarball.
 *
 * Start-up: where this machine can run the target's own node (linux-amd64; linux-arm64 under qemu-user), that node
 * makes the executable with V8's code cache of the bundle, so the plugin skips parsing the bundle and compiling its
 * top level at start (the functions a call runs are still compiled when they first run). V8 loads a code cache only
 * in the node that made it, so the other platforms go without. No startup snapshot: Node's snapshot builder cannot hold the http2, http and tls modules gRPC loads (it aborts).
 * docs/releasing.md, "Start-up", has the figures and why the build fixes V8's random seed.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { commandHere } from "./check-executable.js";
import { HOST_TARGET, nodeBinary, type Target } from "./node-binaries.js";

/**
 * The machine that makes the executables runs the linux-x64 node of the release's version (the blob must be made
 * by the version it goes into).
 */
export function hostNode(log?: (line: string) => void): string {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `release:build runs on linux x64 (it runs Node's linux-x64 binary to make every executable); this is ${process.platform}-${process.arch}`,
    );
  return nodeBinary(HOST_TARGET, log).exe;
}

/**
 * The command that runs `t`'s own node on this machine, which alone can make t's code cache (V8 loads a cache only
 * in the build of V8 that wrote it): linux-amd64's node, linux-arm64's under qemu-user; none for the others.
 */
export function codeCacheNode(t: Target, log?: (line: string) => void): string[] | undefined {
  return commandHere(t, nodeBinary(t, log).exe);
}

/**
 * V8's random seed for the node that makes an executable. V8 derives its hash seed from it, and the hash seed
 * orders the tables the code cache holds: with a seed of its own per run, two builds of one commit would write
 * different code caches. The seed is the building process's only; the executable starts with a random one, and V8
 * accepts the cache all the same (the flags it checks a cache against leave the seed out).
 */
export const BUILD_RANDOM_SEED = 34;

/**
 * Writes `outFile`, the plugin for `t`: `bundle` embedded in t's node binary, and each of `assets` (the bundles of
 * the plugin's parts, provider/native/parts.ts: asset key to file) as a SEA asset, which the plugin evaluates only
 * when it needs that part. Where t's own node runs here (codeCacheNode), it makes the executable, with V8's code
 * cache of the bundle; elsewhere `tools.node` (the host's) makes it without. No startup snapshot (the header says
 * why). NODE_OPTIONS is ignored (`execArgvExtension: none`): it is set for the user's program (a `--require` of
 * ts-node, say), and the plugin must not start with it.
 */
export function buildPluginExecutable(
  t: Target,
  bundle: string,
  assets: Record<string, string>,
  outFile: string,
  tools: { node: string; rcodesign?: string },
  log?: (line: string) => void,
): void {
  const ownNode = codeCacheNode(t, log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-sea-"));
  try {
    const config = path.join(dir, "sea-config.json");
    // The executable records the path `main` names: a fixed name beside the config (the build runs in `dir`),
    // not the build's temporary directory, so that two builds write the same bytes.
    fs.copyFileSync(bundle, path.join(dir, "provider.js"));
    fs.writeFileSync(
      config,
      JSON.stringify({
        main: "provider.js",
        mainFormat: "commonjs",
        executable: nodeBinary(t, log).exe,
        output: outFile,
        disableExperimentalSEAWarning: true,
        useCodeCache: ownNode !== undefined,
        useSnapshot: false,
        execArgvExtension: "none",
        assets,
      }),
    );
    const [node, ...nodeArgs] = ownNode ?? [tools.node];
    execFileSync(node!, [...nodeArgs, `--random-seed=${BUILD_RANDOM_SEED}`, "--build-sea", config], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    fs.chmodSync(outFile, 0o755);
    // Embedding the bundle drops the Mach-O binary's signature, and Apple Silicon runs no unsigned code: sign it
    // again, ad hoc (no identity; what `codesign --sign -` does on a Mac), as Node's own guide does.
    if (t.os === "darwin") {
      if (!tools.rcodesign) throw new Error(`signing ${t.platform} needs rcodesign (scripts/rcodesign.sh)`);
      execFileSync(tools.rcodesign, ["sign", outFile], { stdio: ["ignore", "pipe", "pipe"] });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
