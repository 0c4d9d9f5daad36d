/**
 * `npm run release:build`: every artifact of a release, for package.json's version, in dist/release/
 * (docs/releasing.md):
 * - `pulumi-resource-rimuhosting-v<version>-<os>-<arch>.tar.gz` for each platform of TARGETS: the self-contained
 *   plugin executable (plugin-executable.ts), its LICENSE, the licences of what the bundle holds and Node's;
 * - the provider's npm package (npm-package.ts: `npm pack` of what its users get);
 * - the policy pack, `rimuhosting-policy-pack-<version>.tar.gz` (policy-pack.ts);
 * - the SDK packages (sdk-packages.ts);
 * - the `packages:` entry with every tarball's checksum, and the YAML package declaration (package-entry.ts);
 * - `SHA256SUMS` over all of them, in sha256sum's format, written last;
 * - `SHA256SUMS.sig`, its detached GPG signature, when RELEASE_SIGNING_KEY gives the key (sign.ts); without it
 *   the build says plainly that it did not sign.
 *
 * Every platform of TARGETS or nothing: the build fails unless a tarball of each is written. The files are
 * reproducible (archive.ts): two builds of one commit on one machine write the same bytes, SHA256SUMS.sig apart
 * (a signature carries its time).
 *
 * Nothing ships that cannot run: linux-amd64 and linux-arm64 (under qemu-user) each answer a GetPluginInfo
 * call with the package's version before they are packed, and the others pass checkFormat; else the build fails.
 *
 * `--if-stale`: do nothing when dist/release already holds the artifacts of the same inputs (the bundle, this
 * code, package.json, package/README.md, sdk/, the timestamp): the tests build the release once per run this way.
 * `--out <dir>`: write the release into <dir> instead of dist/release (a second build to compare with the first).
 * The plugin executables are kept outside the clone, keyed by their inputs, and taken from there by the next build
 * of the same inputs (executable-cache.ts); `--fresh` makes every one anew all the same.
 * RELEASE_NATIVE_EXECUTABLES=<dir>: take the macOS and Windows executables made on their own OS, with their code
 * cache (native-executables.ts), from <dir>.
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { thirdPartyLicences } from "../../provider/native/bundle-licences.js";
import {
  type BundledLicences,
  bundleParts,
  bundlePlugin,
  packageVersion,
  pluginTarballName,
} from "../../provider/native/pack.js";
import { partFileName, type PartName } from "../../provider/native/parts.js";
import { REPO_ROOT } from "../../provider/native/schema/plugin-dir.js";
import { GOT_LICENCES } from "../../provider/native/vendor-got.js";
import { normalizeTarball, sourceDateEpoch, tarDirectory } from "./archive.js";
import { checkFormat, commandHere, firstCall, seaBlobHolds } from "./check-executable.js";
import { executableKey, keepExecutable, keptExecutable, sha256Of } from "./executable-cache.js";
import { bundlesHash } from "./native-executables.js";
import { HOST_TARGET, nodeBinary, SEA_NODE_VERSION, TARGETS, type Target } from "./node-binaries.js";
import { PACKAGE_README, packNpmPackage } from "./npm-package.js";
import { writePackageFiles } from "./package-entry.js";
import { buildPluginExecutable, hostNode } from "./plugin-executable.js";
import { packPolicyPack, POLICY_PACK_DIR, policyPackFiles } from "./policy-pack.js";
import { buildSdkPackages } from "./sdk-packages.js";
import { signSums } from "./sign.js";

export const RELEASE_DIR = path.join(REPO_ROOT, "dist/release");
/** The fingerprint of the inputs dist/release was built from (outside it: SHA256SUMS covers all of dist/release). */
const FINGERPRINT_FILE = path.join(REPO_ROOT, "dist/release.inputs");

const log = (line: string) => process.stderr.write(`release:build: ${line}\n`);

/** The files of the release code (this directory): what makes the artifacts. */
const releaseCodeFiles = () => fs.readdirSync(__dirname).map((f) => path.join(__dirname, f));

/** Every file under `dir` (relative paths, sorted), leaving out build output that is not the SDKs' source. */
function filesUnder(dir: string, skip: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => !skip.test(f) && fs.statSync(path.join(dir, f)).isFile())
    .sort();
}

/**
 * A hash of what the artifacts are made from: the plugin's bundles (its own and its parts'), the release code,
 * package.json, package/README.md (the npm package's), the policy pack's files, sdk/ and the timestamp the archives
 * carry.
 */
function fingerprint(bundles: string[], epoch: number): string {
  const hash = crypto.createHash("sha256").update(`${SEA_NODE_VERSION} ${epoch}`);
  for (const bundle of bundles) hash.update(fs.readFileSync(bundle));
  const inputs = [
    ...releaseCodeFiles(),
    path.join(REPO_ROOT, "package.json"),
    path.join(REPO_ROOT, PACKAGE_README), // the npm package's README
    ...policyPackFiles(REPO_ROOT).map((f) => path.join(REPO_ROOT, POLICY_PACK_DIR, f)),
    ...filesUnder(
      path.join(REPO_ROOT, "sdk"),
      /(^|\/)(node_modules|bin|build|dist|__pycache__|target)(\/|$)/,
    ).map((f) => path.join(REPO_ROOT, "sdk", f)),
  ];
  const native = process.env.RELEASE_NATIVE_EXECUTABLES;
  if (native) inputs.push(...filesUnder(native, /^$/).map((f) => path.join(native, f)));
  for (const file of inputs) hash.update(file).update(fs.readFileSync(file));
  return hash.digest("hex");
}

/** The lines of SHA256SUMS for the files of `dir`, as `sha256sum` prints them. */
export function sha256sums(dir: string): string {
  return fs
    .readdirSync(dir)
    .filter((f) => f !== "SHA256SUMS" && f !== "SHA256SUMS.sig")
    .sort()
    .map(
      (f) =>
        `${crypto
          .createHash("sha256")
          .update(fs.readFileSync(path.join(dir, f)))
          .digest("hex")}  ${f}\n`,
    )
    .join("");
}

/**
 * RELEASE_NATIVE_EXECUTABLES, when set: a directory of executables made on their own OS (native-executables.ts; the
 * release workflow's native-executables jobs), taken in place of the ones this machine would make without a code
 * cache. Each must embed the bundles this build made (`hash`), or the build fails.
 */
function nativeExecutable(t: Target, hash: string): string | undefined {
  const dir = process.env.RELEASE_NATIVE_EXECUTABLES;
  const file = dir && path.join(dir, t.platform, t.executable);
  if (!file || !fs.existsSync(file)) return undefined;
  const theirs = fs.readFileSync(path.join(dir, t.platform, "bundles.sha256"), "utf8").trim();
  if (theirs !== hash)
    throw new Error(
      `${file} embeds other bundles (${theirs}) than this build made (${hash}): build both from one commit`,
    );
  return file;
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** The build fails unless `dir` holds a plugin tarball of every platform of TARGETS. */
export function checkAllPlatforms(dir: string, version: string): void {
  const missing = TARGETS.filter(
    (t) => !fs.existsSync(path.join(dir, pluginTarballName(version, t.platform))),
  );
  if (missing.length > 0)
    throw new Error(
      `no plugin tarball for ${missing.map((t) => t.platform).join(", ")}: a release ships all ${TARGETS.length} platforms or none`,
    );
}

export async function buildRelease(
  opts: { ifStale?: boolean; outDir?: string; fresh?: boolean } = {},
): Promise<string[]> {
  const started = Date.now();
  const version = packageVersion();
  const outDir = path.resolve(opts.outDir ?? RELEASE_DIR);
  // Only dist/release is reused by --if-stale, and only its inputs are recorded.
  const fingerprintFile = outDir === RELEASE_DIR ? FINGERPRINT_FILE : undefined;
  const epoch = sourceDateEpoch();
  // The Python build (setuptools' wheel, a child process) reads the time of the files it writes from here.
  process.env.SOURCE_DATE_EPOCH = String(epoch);
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-release-"));
  try {
    const bundle = path.join(staging, "provider.js");
    const licences: BundledLicences = new Map();
    await bundlePlugin(bundle, licences);
    const parts = await bundleParts(staging, licences);
    const inputs = fingerprint([bundle, ...Object.values(parts)], epoch);
    // The parts ride in the executable as SEA assets, under the names provider/native/parts.ts asks for.
    const assets = Object.fromEntries(
      (Object.entries(parts) as [PartName, string][]).map(([name, file]) => [partFileName(name), file]),
    );
    // The licences of everything the executable holds: every package of the plugin's bundle and its parts, each
    // once, then those of got and what it needs, which the bundle holds as dist/vendor/got.cjs
    // (provider/native/vendor-got.ts collects them).
    const thirdParty = path.join(staging, "THIRD-PARTY-LICENSES.txt");
    fs.writeFileSync(
      thirdParty,
      [
        thirdPartyLicences("the plugin's executable", licences.values()),
        fs.readFileSync(GOT_LICENCES, "utf8"),
      ].join("\n"),
    );
    if (
      opts.ifStale &&
      fingerprintFile &&
      fs.existsSync(path.join(outDir, "SHA256SUMS")) &&
      fs.existsSync(fingerprintFile) &&
      fs.readFileSync(fingerprintFile, "utf8") === inputs
    ) {
      log(`dist/release is up to date (${seconds(started)})`);
      return fs.readdirSync(outDir).map((f) => path.join(outDir, f));
    }
    if (fingerprintFile) fs.rmSync(fingerprintFile, { force: true });
    else if (fs.existsSync(outDir) && fs.readdirSync(outDir).length > 0)
      throw new Error(
        `--out ${opts.outDir}: the directory is not empty (the build replaces what it holds); name a new one`,
      );
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    log(`SOURCE_DATE_EPOCH=${epoch} (${new Date(epoch * 1000).toISOString()}): every archive's file times`);

    const node = hostNode(log);
    const releaseCode = releaseCodeFiles();
    const rcodesign = execFileSync(path.join(REPO_ROOT, "scripts/rcodesign.sh"), { encoding: "utf8" })
      .trim()
      .split("\n")
      .pop();
    // Node's licences, the same text for every platform of a version (the host's package has them).
    const nodeLicense = nodeBinary(HOST_TARGET).license;
    if (!nodeLicense) throw new Error(`no LICENSE in ${HOST_TARGET.npmPackage}@${SEA_NODE_VERSION}`);
    for (const t of TARGETS) {
      const step = Date.now();
      const dir = path.join(staging, t.platform);
      fs.mkdirSync(dir);
      const exe = path.join(dir, t.executable);
      const native = nativeExecutable(t, bundlesHash(bundle, parts));
      const key = executableKey(t, bundle, assets, releaseCode, rcodesign);
      const kept = native || opts.fresh ? undefined : keptExecutable(t, key);
      if (native) {
        fs.copyFileSync(native, exe);
        if (!seaBlobHolds(exe).codeCache) throw new Error(`${native} holds no code cache`);
        log(`${t.platform}: the executable made by its own node, with its code cache (${native})`);
      } else if (kept) fs.copyFileSync(kept.file, exe);
      else buildPluginExecutable(t, bundle, assets, exe, { node, rcodesign }, log);
      const format = checkFormat(t, exe);
      const command = commandHere(t, exe);
      let ran = "not run here";
      // The same bytes answered when they were kept: a check under qemu costs ~10 s of CPU.
      const sameAsKept = () => !native && keptExecutable(t, key)?.sha256 === sha256Of(exe);
      if (kept) ran = `kept from a build of the same inputs, which checked it (${kept.file})`;
      else if (command && sameAsKept())
        ran = "the same bytes as the kept executable, which answered GetPluginInfo: not run again";
      else if (command) {
        // a bound for a hung start, not a measure: under qemu on a busy machine the start takes tens of seconds
        const answer = await firstCall(command, { timeoutMs: 600_000 });
        if (answer.version !== version)
          throw new Error(
            `the ${t.platform} plugin answered GetPluginInfo with ${answer.version}, not ${version}`,
          );
        ran = `answered GetPluginInfo (${version}) in ${answer.ms.toFixed(0)} ms`;
      }
      if (!native) keepExecutable(t, key, exe);
      fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(dir, "LICENSE"));
      fs.copyFileSync(thirdParty, path.join(dir, "THIRD-PARTY-LICENSES.txt"));
      fs.copyFileSync(nodeLicense, path.join(dir, "NODE-LICENSE"));
      const tarball = path.join(outDir, pluginTarballName(version, t.platform));
      const gzip = await tarDirectory(dir, tarball, epoch);
      fs.rmSync(dir, { recursive: true, force: true });
      const packed = gzip === "kept" ? "; its gzip kept from an archive of the same bytes" : "";
      log(`${path.basename(tarball)}: ${format}; ${ran}${packed} (${seconds(step)})`);
    }
    checkAllPlatforms(outDir, version);
    const [entry, declaration] = writePackageFiles(outDir, version);
    log(`${path.basename(entry)}: the packages: entry with every tarball's checksum (package-entry.ts)`);
    log(`${path.basename(declaration)}: the package declaration for a YAML program's sdks/`);
    log(`${path.basename(packNpmPackage(REPO_ROOT, outDir))}: npm pack (npm-package.ts)`);
    const policyPack = await packPolicyPack(REPO_ROOT, outDir, version, epoch);
    log(`${path.basename(policyPack)}: the policy pack (policy-pack.ts)`);
    for (const file of await buildSdkPackages(outDir)) {
      // setuptools stamps the build's time on the sdist's generated files and its gzip header.
      if (file.endsWith(".tar.gz")) await normalizeTarball(file, epoch);
      log(`${path.basename(file)}: SDK package`);
    }
    const sums = path.join(outDir, "SHA256SUMS");
    fs.writeFileSync(sums, sha256sums(outDir));
    log(`SHA256SUMS: ${signSums(sums).message}`);
    if (fingerprintFile) fs.writeFileSync(fingerprintFile, inputs);
    log(`${path.relative(REPO_ROOT, outDir)} written in ${seconds(started)}`);
    return fs.readdirSync(outDir).map((f) => path.join(outDir, f));
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const out = process.argv.indexOf("--out");
  buildRelease({
    ifStale: process.argv.includes("--if-stale"),
    outDir: out >= 0 ? process.argv[out + 1] : undefined,
    fresh: process.argv.includes("--fresh"),
  }).then(
    (files) => {
      for (const file of files.sort()) console.log(file);
    },
    (error: unknown) => {
      log(`failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
