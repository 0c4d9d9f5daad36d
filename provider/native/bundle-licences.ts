/**
 * The licences of the third-party packages an esbuild bundle holds, read from the packages themselves. esbuild's own
 * `legalComments` keeps only licence comments found in the code, and most packages carry their licence as a file
 * instead (got and every package bundled with it do): the MIT and BSD licences ask that their text go with the code.
 * The packages come from the build's metafile, so the list follows what the bundle holds when a dependency changes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Metafile } from "esbuild";

/** A package's own licence files, as npm packages name them (license, LICENSE.md, LICENCE-MIT, COPYING, NOTICE). */
const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.\-_].*)?$/i;

export interface BundledPackage {
  name: string;
  version: string;
  /** package.json's `license` field (an SPDX expression). */
  license: string;
  /** The package's licence files' text, in file name order. */
  texts: string[];
}

/**
 * The packages whose files are among the metafile's inputs (`workingDir`: the build's working directory, which the
 * metafile's paths are relative to), each once by name and version, sorted by name. A package that ships no licence
 * file (a few small ones: spdx-license-ids, spdx-exceptions, abstract-logging) has no texts: thirdPartyLicences names
 * it with the licence its package.json declares.
 */
export function bundledPackages(metafile: Metafile, workingDir: string): BundledPackage[] {
  const roots = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split(path.sep).join("/"));
    if (match) roots.add(path.resolve(workingDir, match[1]!));
  }
  const byKey = new Map<string, BundledPackage>();
  for (const root of roots) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    const files = fs
      .readdirSync(root)
      .filter((name) => LICENCE_FILE.test(name))
      .sort();
    byKey.set(`${manifest.name}@${manifest.version}`, {
      name: manifest.name,
      version: manifest.version,
      license: manifest.license ?? "UNKNOWN",
      texts: files.map((file) => fs.readFileSync(path.join(root, file), "utf8").trim()),
    });
  }
  return sortedPackages(byKey.values());
}

const sortedPackages = (packages: Iterable<BundledPackage>): BundledPackage[] =>
  [...packages].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));

/**
 * The text of a THIRD-PARTY-LICENSES file for `bundle` (what holds the packages, e.g. its file name): a heading, then
 * each package's licences, sorted by name.
 */
export function thirdPartyLicences(bundle: string, packages: Iterable<BundledPackage>): string {
  const sections = sortedPackages(packages).map((pkg) => {
    const texts =
      pkg.texts.length > 0
        ? pkg.texts.join("\n\n")
        : `(no licence file in the package; its package.json: ${pkg.license})`;
    return `${"-".repeat(78)}\n${pkg.name}@${pkg.version} (${pkg.license})\n\n${texts}\n`;
  });
  return `The third-party packages bundled into ${bundle}, each with the licence it ships.\n\n${sections.join("\n")}`;
}
