/**
 * What a project gives the CLI so that the CLI itself checks the plugin it downloads
 * (docs/installation-configuration.md, "Have the CLI check the download"), written by `npm run release:build` beside
 * the tarballs it describes:
 *
 * - `rimuhosting-packages.json`: a `packages:` entry in its full form, `source`, `version`, `pluginDownloadURL` and
 *   `checksums`, the SHA-256 of each platform's tarball keyed `<os>-<arch>` (the key the CLI looks up is its own
 *   GOOS-GOARCH, the names of TARGETS);
 * - `rimuhosting-<version>.yaml`: the package declaration a YAML program keeps as
 *   `sdks/rimuhosting/rimuhosting-<version>.yaml` (what `pulumi package add` writes: name, version, server).
 *
 * How CLI v3.259 reads the entry (sdk/go/common/workspace/project.go, plugins.go): `checksums` is a
 * `map[string][]byte`, so a value is whatever the project file's decoder makes of bytes. In Pulumi.json that is Go's
 * encoding/json: standard base64 of the 32 bytes of the digest. A hex digest is valid base64 too, and decodes to 48
 * other bytes that no download matches. In Pulumi.yaml, yaml.v3 decodes no string into bytes, so a `checksums:` key
 * makes the whole project fail to load: the entry is for Pulumi.json. When the plugin is missing, the CLI wraps the
 * download in `checksumSource`, which hashes the tarball as it arrives and fails at its end on a mismatch, before
 * anything is unpacked; a platform without a checksum is downloaded unchecked, so the entry names all five.
 * test/engine/release-checksums.test.ts shows each of these with the real CLI.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { pluginTarballName } from "../../provider/native/pack.js";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/native/schema/package-schema.js";
import { TARGETS } from "./node-binaries.js";

/** The package's name, as the CLI and the schema know it. */
const PACKAGE = "rimuhosting";
/** The release's file holding the `packages:` entry, as a Pulumi.json fragment. */
export const PACKAGES_FILE = `${PACKAGE}-packages.json`;
/** The release's package declaration for YAML programs (the name `pulumi package add` gives it under sdks/). */
export const declarationFile = (version: string): string => `${PACKAGE}-${version}.yaml`;

export interface PackageEntry {
  source: string;
  version: string;
  pluginDownloadURL: string;
  /** `<os>-<arch>` to the standard base64 of the tarball's SHA-256, as Pulumi.json encodes bytes. */
  checksums: Record<string, string>;
}

/** The SHA-256 of a file, in the encoding the CLI reads from Pulumi.json: standard base64. */
export const checksumOf = (file: string): string =>
  crypto.createHash("sha256").update(fs.readFileSync(file)).digest("base64");

/** The entry for the plugin tarballs of `version` in `dir` (every platform's tarball must be there). */
export function packageEntry(dir: string, version: string): PackageEntry {
  const checksums: Record<string, string> = {};
  for (const t of TARGETS)
    checksums[t.platform] = checksumOf(path.join(dir, pluginTarballName(version, t.platform)));
  return { source: PACKAGE, version, pluginDownloadURL: PLUGIN_DOWNLOAD_URL, checksums };
}

/** The package declaration of `version`, as `pulumi package add` writes it. */
export const packageDeclaration = (version: string): string =>
  `packageDeclarationVersion: 1\nname: ${PACKAGE}\nversion: ${version}\ndownloadUrl: ${PLUGIN_DOWNLOAD_URL}\n`;

/** Writes both files into `dir` (after the tarballs, before SHA256SUMS); returns their paths, the entry's first. */
export function writePackageFiles(dir: string, version: string): [entry: string, declaration: string] {
  const entry = path.join(dir, PACKAGES_FILE);
  fs.writeFileSync(
    entry,
    `${JSON.stringify({ packages: { [PACKAGE]: packageEntry(dir, version) } }, null, 2)}\n`,
  );
  const declaration = path.join(dir, declarationFile(version));
  fs.writeFileSync(declaration, packageDeclaration(version));
  return [entry, declaration];
}
