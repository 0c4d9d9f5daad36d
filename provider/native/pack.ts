/**
 * `npm run plugin:pack`: the plugin for this machine's platform as a launcher tarball
 * `pulumi-resource-rimuhosting-v<version>-<os>-<arch>.tar.gz` in dist/, for
 * `pulumi plugin install resource rimuhosting <version> --file <tarball>`. Its path is the last line printed.
 * (A release ships self-contained executables instead, for every platform: `npm run release:build`,
 * tools/release/build.ts. This tarball is the quick one for a checkout, and the bench's point of comparison.)
 *
 * The tarball holds the launcher `pulumi-resource-rimuhosting` (a shell script that runs `node`), the plugin
 * bundled by esbuild (no node_modules, no symlinks: the CLI refuses a tarball whose links point outside it), the
 * bundles of its parts beside it (parts.ts: its commands' code, e.g. `emulator.js`, and @pulumi/pulumi as
 * `pulumi.js`, each loaded only when it is used), each bundle's licences (`<bundle>.LEGAL.txt`), the LICENSE and
 * THIRD-PARTY-LICENSES.txt (got's and its packages').
 * It needs the Node.js of package.json's `engines` on PATH, nothing else.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { build, type BuildOptions, type Metafile, type Plugin } from "esbuild";
import { type BundledPackage, bundledPackages, thirdPartyLicences } from "./bundle-licences.js";
import { PARTS, type PartName, partFileName } from "./parts.js";
import { REPO_ROOT } from "./schema/plugin-dir.js";
import { GOT_LICENCES } from "./vendor-got.js";

/** The part that holds @pulumi/pulumi (parts.ts). */
const PULUMI_PART: PartName = "pulumi";

/**
 * The launcher, with the Node.js it needs as package.json's `engines` says (`>=22.12`: 22.12 or later). It turns on
 * Node's compile cache (in Node's own default place, unless NODE_COMPILE_CACHE names another; NODE_DISABLE_COMPILE_CACHE
 * turns it off): from the second start on, the bundle's code is read compiled instead of compiled again, which took
 * the first answer's CPU from about 124 to 89 ms on Node 22 (docs/benchmarks.md). The bundle cannot turn it on itself:
 * Node compiles a script before any of it runs.
 */
function launcher(): string {
  const needs = nodeEngine().replace(/^>=\s*/, "");
  return `#!/bin/sh
# pulumi-resource-rimuhosting: the RimuHosting provider plugin for Pulumi (needs Node.js ${needs} or later on PATH).
export NODE_COMPILE_CACHE="\${NODE_COMPILE_CACHE:-\${TMPDIR:-/tmp}/node-compile-cache}"
exec node "$(dirname "$0")/provider.js" "$@"
`;
}

/**
 * @pulumi/pulumi loads TypeScript (its closure serializer, which only dynamic providers' programs use) through
 * a shim that falls back to a vendored copy by file path, which a bundle cannot follow. A provider never
 * serializes a closure: the bundle gets an empty module instead of 9 MB of compiler.
 */
const withoutTypeScript: Plugin = {
  name: "without-typescript",
  setup(builder) {
    builder.onResolve({ filter: /^typescript$/ }, () => ({ path: "typescript", namespace: "unused" }));
    builder.onLoad({ filter: /.*/, namespace: "unused" }, () => ({ contents: "module.exports = {};" }));
  },
};

/**
 * In the plugin's bundle, `require("@pulumi/pulumi")` (the functions' only) loads the part that holds it
 * (parts.ts, pulumi-sdk.ts) when it first runs, instead of a copy inside the bundle. Its code then stays out of what
 * the plugin loads to start, and out of the linux-amd64 startup snapshot, whose start-up grows with the text it
 * holds. The bundle's own `@pulumi/pulumi/proto/...` stubs, which the server needs at once, stay in it.
 */
const pulumiAsPart: Plugin = {
  name: "pulumi-as-part",
  setup(builder) {
    builder.onResolve({ filter: /^@pulumi\/pulumi$/ }, () => ({ path: "pulumi", namespace: "part" }));
    builder.onLoad({ filter: /.*/, namespace: "part" }, () => ({
      contents: `module.exports = require("./parts.js").loadPart(${JSON.stringify(PULUMI_PART)});`,
      resolveDir: path.join(REPO_ROOT, "dist/provider/native"),
    }));
  },
};

/** Pulumi's names for the machine (the CLI looks for these in a plugin's file name), e.g. `linux-amd64`. */
export function platformName(): string {
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
  return `${process.platform}-${arch}`;
}

/** The package's version (package.json), the version every artifact of a release carries. */
export function packageVersion(): string {
  return manifest().version;
}

/** The Node.js versions the package runs on (package.json's `engines.node`, e.g. `>=22.12`). */
function nodeEngine(): string {
  return manifest().engines.node;
}

function manifest(): { version: string; engines: { node: string } } {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
    engines: { node: string };
  };
}

/** The name the CLI's plugin download asks for: `pulumi-resource-rimuhosting-v<version>-<os>-<arch>.tar.gz`. */
export const pluginTarballName = (version: string, platform: string): string =>
  `pulumi-resource-rimuhosting-v${version}-${platform}.tar.gz`;

/** What the plugin's bundle and its parts' bundles are built with. */
const BUNDLE_OPTIONS: BuildOptions = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  minify: true,
  legalComments: "linked",
  // The packages each bundle holds, for their licence files (writeLicences); the metafile's paths are relative to this.
  metafile: true,
  absWorkingDir: REPO_ROOT,
  // Requires of @pulumi/pulumi's program runner and automation API that a provider never reaches.
  external: ["ts-node", "node-gyp/*"],
  plugins: [withoutTypeScript],
  logLevel: "warning",
};

/** The packages bundled so far, by `name@version`: what a release's THIRD-PARTY-LICENSES.txt lists. */
export type BundledLicences = Map<string, BundledPackage>;

/**
 * Writes `<outFile>.LEGAL.txt`: the licence files of every package the bundle holds (most packages carry their
 * licence as a file, which esbuild's `legalComments` never sees), then the licence comments esbuild found in the
 * code. Adds the packages to `licences` when given.
 */
function writeLicences(outFile: string, metafile: Metafile, licences?: BundledLicences): void {
  const packages = bundledPackages(metafile, REPO_ROOT);
  for (const pkg of packages) licences?.set(`${pkg.name}@${pkg.version}`, pkg);
  const legal = `${outFile}.LEGAL.txt`;
  const comments = fs.existsSync(legal)
    ? `\nLicence comments in the code:\n\n${fs.readFileSync(legal, "utf8")}`
    : "";
  fs.writeFileSync(legal, `${thirdPartyLicences(path.basename(outFile), packages)}${comments}`);
}

/**
 * The plugin (dist/provider/native/main.js, so `npm run build` first) bundled by esbuild into `outFile`: one
 * CommonJS file with every dependency but @pulumi/pulumi (a part: `pulumiAsPart`), and its licences beside it in
 * `<outFile>.LEGAL.txt`. The launcher tarball ships it as it is; the release's self-contained executables
 * (tools/release) embed it in a Node binary. Its parts (parts.ts) are not in it: bundleParts writes them.
 */
export async function bundlePlugin(outFile: string, licences?: BundledLicences): Promise<void> {
  const result = await build({
    ...BUNDLE_OPTIONS,
    entryPoints: [path.join(REPO_ROOT, "dist/provider/native/main.js")],
    outfile: outFile,
    define: { RIMU_PLUGIN_BUNDLE: "true" },
    plugins: [withoutTypeScript, pulumiAsPart],
  });
  writeLicences(outFile, result.metafile!, licences);
}

/**
 * Each part of the plugin (parts.ts) bundled on its own into `outDir`, as `<name>.js` (and its licences in
 * `<name>.js.LEGAL.txt`); returns the paths by part name.
 */
export async function bundleParts(
  outDir: string,
  licences?: BundledLicences,
): Promise<Record<PartName, string>> {
  const files = {} as Record<PartName, string>;
  for (const name of Object.keys(PARTS) as PartName[]) {
    files[name] = path.join(outDir, partFileName(name));
    const result = await build({
      ...BUNDLE_OPTIONS,
      entryPoints: [path.join(REPO_ROOT, "dist", PARTS[name])],
      outfile: files[name],
    });
    writeLicences(files[name], result.metafile!, licences);
  }
  return files;
}

/** Writes `tarball` (gzip) holding the files of `dir`, sorted, at its top level. */
export function tarDirectory(dir: string, tarball: string): void {
  fs.mkdirSync(path.dirname(tarball), { recursive: true });
  execFileSync("tar", ["-czf", tarball, "-C", dir, ...fs.readdirSync(dir).sort()]);
}

export async function packPlugin(outDir = path.join(REPO_ROOT, "dist")): Promise<string> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-plugin-"));
  try {
    await bundlePlugin(path.join(staging, "provider.js"));
    await bundleParts(staging);
    fs.writeFileSync(path.join(staging, "pulumi-resource-rimuhosting"), launcher(), { mode: 0o755 });
    fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(staging, "LICENSE"));
    // The bundle holds got's (dist/vendor/got.cjs), whose packages carry their licences as files, not comments.
    fs.copyFileSync(GOT_LICENCES, path.join(staging, "THIRD-PARTY-LICENSES.txt"));
    const tarball = path.join(outDir, pluginTarballName(packageVersion(), platformName()));
    tarDirectory(staging, tarball);
    return tarball;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

if (require.main === module) {
  packPlugin().then(
    (tarball) => {
      console.log(`${(fs.statSync(tarball).size / 1024).toFixed(0)} KB`);
      console.log(tarball);
    },
    (error: unknown) => {
      console.error(`plugin:pack failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
