/**
 * A user's project in a fresh directory outside the repository, installed from the packed tarball with
 * `npm install --offline`: nothing is downloaded, every package comes from npm's local cache.
 *
 * `npm ci` fills that cache with the tarballs of the repository's lockfile but not with the registry's
 * package documents that a lockfile-less install resolves versions from, so the project gets a
 * lockfile too: the same versions the repository locks (a subset of its tree, at the same paths), and
 * the tarball for pulumi-rimuhosting.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packNpmPackage } from "../../../tools/release/npm-package";
import { workingTreeFiles, workingTreeHash } from "../../../tools/release/working-tree";

export const REPO_ROOT = path.resolve(__dirname, "../../..");

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}
interface Lockfile {
  name: string;
  version: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

export interface PackedPackage {
  /** Absolute path of the .tgz. */
  tarball: string;
  /** Paths inside the package, e.g. `dist/provider/index.js`. */
  files: string[];
  /** The package.json inside the tarball. */
  manifest: Record<string, unknown> & { name: string; version: string };
}

/** A scratch directory under the OS temp dir, removed by `cleanup()`. */
export function scratchDir(label: string): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rimu-${label}-`));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A scratch directory for a test file whose `cache/` is the release tools' cache (RELEASE_NODE_CACHE) while the
 * file runs, the setting put back and the directory removed after it: the machine's own cache is left alone.
 */
export function scratchReleaseCache(label: string): { dir: string } {
  const scratch = scratchDir(label);
  const before = process.env.RELEASE_NODE_CACHE;
  beforeAll(() => (process.env.RELEASE_NODE_CACHE = path.join(scratch.dir, "cache")));
  afterAll(() => {
    if (before === undefined) delete process.env.RELEASE_NODE_CACHE;
    else process.env.RELEASE_NODE_CACHE = before;
    scratch.cleanup();
  });
  return scratch;
}

/**
 * Packs the repository as a release does (tools/release/npm-package.ts): a copy of the tracked (and new, not ignored)
 * files, with the repository's node_modules beside it, built with `npm run build`, then packed with the package's
 * own README and published package.json. The working tree's dist/ is neither used nor touched (other tests may be
 * reading it). The tarball is copied into `into` from the one pack a test run makes (sharedPack).
 */
export function packFromCheckout(into: string): PackedPackage {
  const shared = sharedPack();
  const tarball = path.join(into, path.basename(shared));
  fs.copyFileSync(shared, tarball);
  return packedTarball(tarball);
}

/**
 * The pack of the working tree as it is now, made once for every test file that asks (packed, readme, recipes):
 * each build takes about 20 s of CPU, which the end-to-end files wait for. It is kept in the temporary directory
 * under the hash of the files it is made from (package-lock.json among them), so a changed file makes a new one; one
 * file makes it while the others wait on a lock, as the release's tests do (test/engine/release-support.ts).
 */
function sharedPack(): string {
  const dir = path.join(os.tmpdir(), `rimu-pack-${workingTreeHash().slice(0, 16)}`);
  const done = path.join(dir, "tarball");
  const lock = `${dir}.lock`;
  for (;;) {
    if (fs.existsSync(done)) return fs.readFileSync(done, "utf8");
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A lock older than the slowest build was left by a killed run; one gone already was just released.
      const held = fs.statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 600_000) fs.rmSync(lock, { recursive: true, force: true });
      else if (held) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    const checkout = path.join(dir, "checkout");
    copyWorkingTree(checkout);
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(checkout, "node_modules"), "dir");
    const build = npm(["run", "build"], checkout);
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
    const tarball = packNpmPackage(checkout, dir);
    fs.rmSync(checkout, { recursive: true, force: true });
    fs.writeFileSync(done, tarball);
    return tarball;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** A tarball `npm pack` wrote (elsewhere than packFromCheckout), with its file list and package.json. */
export function packedTarball(tarball: string): PackedPackage {
  const tar = (...args: string[]) =>
    execFileSync("tar", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const files = tar("-tzf", tarball)
    .split("\n")
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ""));
  const manifest = JSON.parse(tar("-xzOf", tarball, "package/package.json")) as PackedPackage["manifest"];
  return { tarball, files, manifest };
}

/** Copies the repository's working tree into `dir`: the tracked files and the new ones git does not ignore (links as links). */
export function copyWorkingTree(dir: string): void {
  for (const file of workingTreeFiles()) {
    const from = path.join(REPO_ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    // A link stays a link (policy-pack/cost points into the copy's own provider/).
    if (fs.lstatSync(from).isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), path.join(dir, file));
    else fs.copyFileSync(from, path.join(dir, file));
  }
}

/** Runs npm with the repository's Node, no audit/fund noise and no update check. */
export function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      ...env,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * Writes package.json and package-lock.json of a user's project that depends on `dependencies` and
 * `devDependencies` (names the repository locks, at its versions) and on the packed package. The
 * lockfile holds what npm would install: each dependency resolved the way Node resolves it in the
 * repository's tree, closed over dependencies, optional dependencies and required peers.
 */
export function writeProject(
  dir: string,
  packed: PackedPackage,
  deps: { dependencies: string[]; devDependencies: string[] },
): void {
  const repoLock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as Lockfile;
  const tarballName = path.basename(packed.tarball);
  fs.copyFileSync(packed.tarball, path.join(dir, tarballName));

  const versionOf = (name: string): string => {
    const entry = repoLock.packages[`node_modules/${name}`];
    if (!entry?.version) throw new Error(`the repository does not lock ${name}`);
    return entry.version;
  };
  const pkg = {
    name: "rimu-user-project",
    version: "1.0.0",
    private: true,
    main: "index.ts",
    dependencies: {
      [packed.manifest.name]: `file:${tarballName}`,
      ...Object.fromEntries(deps.dependencies.map((name) => [name, versionOf(name)])),
    },
    devDependencies: Object.fromEntries(deps.devDependencies.map((name) => [name, versionOf(name)])),
  };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");

  const tarballEntry: LockEntry = {
    version: packed.manifest.version,
    resolved: `file:${tarballName}`,
    integrity: `sha512-${createHash("sha512").update(fs.readFileSync(packed.tarball)).digest("base64")}`,
  };
  for (const key of [
    "license",
    "dependencies",
    "peerDependencies",
    "peerDependenciesMeta",
    "bin",
    "engines",
  ]) {
    if (packed.manifest[key] !== undefined) tarballEntry[key] = packed.manifest[key];
  }
  const source: Record<string, LockEntry> = {
    ...repoLock.packages,
    [`node_modules/${packed.manifest.name}`]: tarballEntry,
  };

  const packages: Record<string, LockEntry> = {
    "": {
      name: pkg.name,
      version: pkg.version,
      dependencies: pkg.dependencies,
      devDependencies: pkg.devDependencies,
    },
  };
  const resolveFrom = (from: string, name: string): string | undefined => {
    for (let at = from; ;) {
      const candidate = `${at ? `${at}/` : ""}node_modules/${name}`;
      if (source[candidate]) return candidate;
      if (!at) return undefined;
      const cut = at.lastIndexOf("/node_modules/");
      at = cut < 0 ? "" : at.slice(0, cut);
    }
  };
  const visit = (from: string, name: string, optional: boolean): void => {
    const at = resolveFrom(from, name);
    if (at === undefined) {
      if (optional) return;
      throw new Error(`${name} (needed by ${from || "the project"}) is not in the repository's lockfile`);
    }
    if (packages[at]) return;
    const entry = { ...source[at]! };
    if (entry.link) throw new Error(`${name} is a link in the repository's lockfile`);
    for (const flag of ["dev", "optional", "devOptional", "peer"]) delete entry[flag];
    packages[at] = entry;
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(at, dep, false);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(at, dep, true);
    for (const dep of Object.keys(entry.peerDependencies ?? {})) {
      visit(at, dep, entry.peerDependenciesMeta?.[dep]?.optional === true);
    }
  };
  for (const name of [packed.manifest.name, ...deps.dependencies, ...deps.devDependencies])
    visit("", name, false);

  const lock: Lockfile = {
    name: pkg.name,
    version: pkg.version,
    lockfileVersion: 3,
    requires: true,
    packages,
  };
  fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify(lock, null, 2) + "\n");
}

/** Every package installed under `dir`'s node_modules, by name (nested copies included). */
export function installedPackages(
  dir: string,
): Map<string, { version: string; engines?: { node?: string } }[]> {
  const found = new Map<string, { version: string; engines?: { node?: string } }[]>();
  const walk = (modules: string): void => {
    if (!fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      if (entry.startsWith(".")) continue;
      const names = entry.startsWith("@")
        ? fs.readdirSync(path.join(modules, entry)).map((sub) => `${entry}/${sub}`)
        : [entry];
      for (const name of names) {
        const manifestPath = path.join(modules, name, "package.json");
        if (!fs.existsSync(manifestPath)) continue;
        const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
        found.set(name, [
          ...(found.get(name) ?? []),
          { version: manifest.version, engines: manifest.engines },
        ]);
        walk(path.join(modules, name, "node_modules"));
      }
    }
  };
  walk(path.join(dir, "node_modules"));
  return found;
}

/**
 * `packed` unpacked into `dir`/node_modules, as npm puts a package, and `links` (@pulumi/pulumi and the package's
 * own dependencies, by default) linked from the repository's node_modules, at the versions its lockfile holds, as
 * test/engine/automation-api.test.ts does for the Node.js SDK: for a test whose claim is not the install (an
 * `npm install --offline` of @pulumi/pulumi's tree took about 9 CPU-s). A file that proves the install uses
 * writeProject and npm.
 */
export function unpackIntoProject(
  dir: string,
  packed: PackedPackage,
  links: string[] = ["@pulumi/pulumi", ...Object.keys(packed.manifest.dependencies ?? {})],
): void {
  const modules = path.join(dir, "node_modules");
  const target = path.join(modules, packed.manifest.name);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const unpacked = fs.mkdtempSync(path.join(modules, ".unpack-"));
  execFileSync("tar", ["-xzf", packed.tarball, "-C", unpacked]);
  fs.renameSync(path.join(unpacked, "package"), target);
  fs.rmSync(unpacked, { recursive: true, force: true });
  for (const name of links) {
    const link = path.join(modules, name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", name), link, "dir");
  }
}
