/**
 * Part of `npm run build` (after tsc): got and the packages it needs, bundled by esbuild into one CommonJS file,
 * dist/vendor/got.cjs, which provider/client/got.ts loads; their licences beside it in
 * dist/vendor/THIRD-PARTY-LICENSES.txt. The package ships both, and got is only a devDependency (its types, and
 * what this bundles).
 *
 * Why: got 14.6 is a tree of 77 ES modules over 21 packages, which Node loads one by one through require(esm):
 * about 0.18 CPU-s on Node 22, against about 0.08 for the one file (provider/client/README.md). Every dynamic
 * provider host and every program that calls a data source loads it once (a quickstart `pulumi preview`: two
 * processes; CI's tests start hundreds).
 *
 * Here beside pack.ts (and, like it, not in the package: package.json `files` leaves out dist/provider/native) because
 * the plugin's builds ship the same licences: its bundle holds this one (pack.ts, tools/release/build.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { build } from "esbuild";
import { bundledPackages, thirdPartyLicences } from "./bundle-licences.js";
import { REPO_ROOT } from "./schema/plugin-dir.js";

export const GOT_BUNDLE = path.join(REPO_ROOT, "dist/vendor/got.cjs");
export const GOT_LICENCES = path.join(REPO_ROOT, "dist/vendor/THIRD-PARTY-LICENSES.txt");

/** esbuild's target for the oldest Node of package.json's `engines` (`>=22.12` -> `node22.12`). */
function nodeTarget(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    engines: { node: string };
  };
  const oldest = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(manifest.engines.node.trim());
  if (!oldest) throw new Error(`package.json engines.node "${manifest.engines.node}" is not ">=<version>"`);
  return `node${oldest[1]}`;
}

export async function bundleGot(): Promise<void> {
  const result = await build({
    stdin: {
      contents: 'module.exports = require("got");',
      resolveDir: REPO_ROOT,
      sourcefile: "got-entry.js",
    },
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: "node",
    target: nodeTarget(),
    format: "cjs",
    // Smaller to read and compile at each start; got names its errors itself (`name = 'RequestError'`), so
    // minified class names change nothing a user sees.
    minify: true,
    // The packages' licence files are collected below; their code's comments add nothing to them.
    legalComments: "none",
    metafile: true,
    outfile: GOT_BUNDLE,
    logLevel: "warning",
  });
  const packages = bundledPackages(result.metafile, REPO_ROOT);
  if (!packages.some((pkg) => pkg.name === "got")) throw new Error("the got bundle holds no got");
  fs.writeFileSync(GOT_LICENCES, thirdPartyLicences(path.basename(GOT_BUNDLE), packages));
}

if (require.main === module) {
  bundleGot().catch((error: unknown) => {
    console.error(`bundling got failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
