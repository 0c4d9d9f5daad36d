/**
 * The plugin as one self-contained executable per platform: a Node.js single executable application, that is the
 * platform's official `node` binary with the esbuild bundle of the plugin embedded in it. The user's machine needs
 * no Node.js, and the engine starts it as it starts any plugin.
 *
 * Why this way (docs/releasing.md says more): the plugin is TypeScript on the same core as the dynamic provider, so
 * a compiled binary would mean a second implementation; the bundle and its parts hold every dependency; and
 * Node 26 writes the executable itself (`node --build-sea`, for ELF, Mach-O and PE targets alike), so no injector
 * or other toolchain is needed. The cost is the size of the Node runtime in every tarball.
 *
 * Start-up: where this machine can run the target's own node (linux-amd64; linux-arm64 under qemu-user), that node
 * makes the executable with V8's code cache of the bundle, so the plugin skips parsing the bundle and compiling its
 * top level at start (the functions a call runs are still compiled when they first run). V8 loads a code cache only
 * in the node that made it, so the other platforms go without. linux-amd64, whose node runs natively here, gets a
 * startup snapshot instead: the plugin starts from the heap its bundle left after loading the server, with the
 * modules Node's snapshot builder cannot hold stood in for (snapshot-entry.ts).
 * docs/releasing.md, "Start-up", has the figures and why the build fixes V8's random seed.
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { commandHere } from "./check-executable.js";
import { HOST_TARGET, nodeBinary, type Target } from "./node-binaries.js";
import { SNAPSHOT_DATA_SCRIPT, snapshotEntry, type SnapshotData } from "./snapshot-entry.js";

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
 * accepts the cache all the same (the flags it checks a cache against leave the seed out). An executable with a
 * snapshot rehashes the snapshot's heap with its own seed as it starts (SNAPSHOT_V8_FLAGS says why).
 */
export const BUILD_RANDOM_SEED = 34;

/**
 * Whether `t`'s executable starts from a startup snapshot: only the platform the release is built on, whose node
 * makes the snapshot natively (a snapshot, like a code cache, is taken only by the node that made it; linux-arm64's
 * under qemu keeps its code cache).
 */
export const usesSnapshot = (t: Target): boolean => t.platform === HOST_TARGET.platform;

/**
 * V8 flags of the executable with a snapshot, given both to the node that makes it and to the executable
 * (`execArgv`): given to the executable alone, the start took more CPU than without them (docs/releasing.md).
 * `--no-regexp-tier-up`: V8 compiles a regular expression to machine code at its first use instead of
 * interpreting it first; Node's `net.isIPv6`, which listen() runs on the address, took 4 to 28 ms the first time
 * otherwise (its pattern is large; a snapshot does not keep compiled expressions), and about 1 ms with it. gRPC's
 * test now skips that pattern for 127.0.0.1 (provider/native/fast-start.ts); the flag still saved 3.6 ms of the
 * first answer after that (docs/releasing.md); which expression it now speeds up is not traced.
 *
 * Not `--no-rehash-snapshot`, which saved 3 to 10 ms of CPU of the first answer (docs/releasing.md): with it V8 keeps
 * the hash seed the snapshot was made with, and the build fixes that seed (BUILD_RANDOM_SEED, for reproducible
 * bytes), so every copy of a release would hash strings with one seed anyone can read in this file or in the
 * executable. A random seed per start is what guards a process against keys chosen to collide (hash flooding), and
 * this executable does not only talk to the engine on loopback: its `emulator` command is an HTTP server that can
 * listen on any interface (`--host`) and reads the JSON, headers and query strings whoever reaches it sends.
 */
export const SNAPSHOT_V8_FLAGS = ["--no-regexp-tier-up"];

/**
 * V8 flags of the node that makes a snapshot, and of it alone. `--predictable`: V8 compiles and collects garbage on
 * the main thread, so the heap the snapshot holds depends less on how the machine scheduled V8's background threads:
 * with it, a build pinned to one loaded core (`taskset`) and an idle build wrote the same bytes; without it, they
 * differed. It does not make the snapshot fully reproducible: a count in it still follows the build's timing
 * (docs/releasing.md, "Reproducibly"; release-verify.test.ts). The executable does not get it: given to both, it
 * cost the first answer about 1.5 ms; given to the builder alone, about 0.6 ms, within the noise. Other flags given
 * to the builder alone (`--single-threaded`, `--predictable-gc-schedule`, `--no-flush-bytecode`) cost about 6 ms,
 * and the same flags given to both were as fast as none: it is the difference that costs. `--expose-internals`
 * (a Node option, not V8's): the snapshot's prelude defers Node's loading of its CA certificates through Node's
 * internal crypto binding (snapshot-entry.ts); the executable does not need it.
 */
export const SNAPSHOT_BUILD_FLAGS = ["--predictable", "--expose-internals"];

/** The environment the node that makes an executable gets (buildPluginExecutable): to find programs and scratch space. */
const BUILD_ENVIRONMENT = ["PATH", "TMPDIR", "TMP", "TEMP", "SystemRoot", "windir"];

/**
 * The directory an executable with a snapshot is made in. The snapshot holds the path of its script, so the path is
 * the same for the same inputs: `rimu-sea-<hash of key>` in the temporary directory. mkdir gives it to one build at a
 * time; another build of the same inputs waits for it (a directory older than 10 minutes was left by a build that
 * was killed, and is taken over).
 */
function takeBuildDirectory(key: string): string {
  const dir = path.join(
    os.tmpdir(),
    `rimu-sea-${crypto.createHash("sha256").update(key).digest("hex").slice(0, 16)}`,
  );
  const limit = 600_000;
  const deadline = Date.now() + limit;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const since = fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > limit) fs.rmSync(dir, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`${dir} stayed in use for ${limit / 60_000} minutes`);
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

/** `exe` placed in `dir` as `node` (a hard link, or a copy across file systems); returns its path. */
function placedNode(exe: string, dir: string): string {
  const placed = path.join(dir, "node");
  fs.rmSync(placed, { force: true });
  try {
    fs.linkSync(exe, placed);
  } catch {
    fs.copyFileSync(exe, placed);
    fs.chmodSync(placed, 0o755);
  }
  return placed;
}

/**
 * Writes `outFile`, the plugin for `t`: `bundle` embedded in t's node binary, and each of `assets` (the bundles of
 * the plugin's parts, provider/native/parts.ts: asset key to file) as a SEA asset, which the plugin evaluates only
 * when it needs that part. Where t's own node runs here (codeCacheNode), it makes the executable, with V8's code
 * cache of the bundle, or for the build's own platform a startup snapshot (usesSnapshot); elsewhere `tools.node`
 * (the host's) makes it without either. NODE_OPTIONS is ignored (`execArgvExtension: none`): it is set for the
 * user's program (a `--require` of ts-node, say), and the plugin must not start with it.
 */
export function buildPluginExecutable(
  t: Target,
  bundle: string,
  assets: Record<string, string>,
  outFile: string,
  tools: { node: string; rcodesign?: string },
  log?: (line: string) => void,
): void {
  let ownNode = codeCacheNode(t, log);
  const snapshot = ownNode !== undefined && usesSnapshot(t);
  const dir = snapshot
    ? takeBuildDirectory(
        `${t.platform} ${crypto.createHash("sha256").update(fs.readFileSync(bundle)).digest("hex")}`,
      )
    : fs.mkdtempSync(path.join(os.tmpdir(), "rimu-sea-"));
  try {
    const config = path.join(dir, "sea-config.json");
    // What the node that makes the executable sees: only what it needs to run. With a snapshot, what modules read
    // from the environment when they load is read now and kept: gRPC's GRPC_* variables, Node's colours
    // (FORCE_COLOR changed the snapshot), and NODE_COMPILE_CACHE's compiled code. Two builds whose environments
    // differed (the tests' jest workers, CI) wrote different linux-amd64 executables (release-verify.test.ts).
    const env = Object.fromEntries(
      BUILD_ENVIRONMENT.filter((name) => process.env[name] !== undefined).map((name) => [
        name,
        process.env[name],
      ]),
    );
    // The executable records the path `main` names: a fixed name beside the config (the build runs in `dir`),
    // not the build's temporary directory, so that two builds write the same bytes.
    if (snapshot) {
      // The snapshot also records the path of the node that makes it (its process.execPath), which is under the
      // builder's cache and so its HOME: that node runs from the build directory, so two builds write the same bytes.
      ownNode = [placedNode(ownNode![0]!, dir), ...ownNode!.slice(1)];
      const [dataNode, ...dataArgs] = ownNode;
      const data = JSON.parse(
        execFileSync(dataNode!, [...dataArgs, "-e", SNAPSHOT_DATA_SCRIPT], { encoding: "utf8", env }),
      ) as SnapshotData;
      fs.writeFileSync(path.join(dir, "provider.js"), snapshotEntry(fs.readFileSync(bundle, "utf8"), data));
    } else fs.copyFileSync(bundle, path.join(dir, "provider.js"));
    fs.writeFileSync(
      config,
      JSON.stringify({
        main: "provider.js",
        mainFormat: "commonjs",
        executable: nodeBinary(t, log).exe,
        output: outFile,
        disableExperimentalSEAWarning: true,
        // Node ignores the code cache of a snapshot's script (the snapshot holds what ran).
        useCodeCache: ownNode !== undefined && !snapshot,
        useSnapshot: snapshot,
        ...(snapshot ? { execArgv: SNAPSHOT_V8_FLAGS } : {}),
        execArgvExtension: "none",
        assets,
      }),
    );
    const [node, ...nodeArgs] = ownNode ?? [tools.node];
    const flags = snapshot ? [...SNAPSHOT_V8_FLAGS, ...SNAPSHOT_BUILD_FLAGS] : [];
    execFileSync(
      node!,
      [...nodeArgs, ...flags, `--random-seed=${BUILD_RANDOM_SEED}`, "--build-sea", config],
      {
        cwd: dir,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    fs.chmodSync(outFile, 0o755);
    // Embedding the bundle drops the Mach-O binary's signature, and Apple Silicon runs no unsigned code: sign it
    // again, ad hoc (no identity; what `codesign --sign -` does on a Mac), as Node's own guide does.
    // On a Mac (native-executables.ts), Apple's codesign does it.
    if (t.os === "darwin" && process.platform === "darwin")
      execFileSync("codesign", ["--sign", "-", "--force", outFile], { stdio: ["ignore", "pipe", "pipe"] });
    else if (t.os === "darwin") {
      if (!tools.rcodesign) throw new Error(`signing ${t.platform} needs rcodesign (scripts/rcodesign.sh)`);
      execFileSync(tools.rcodesign, ["sign", outFile], { stdio: ["ignore", "pipe", "pipe"] });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
