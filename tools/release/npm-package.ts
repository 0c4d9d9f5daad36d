/**
 * The provider's npm package (`pulumi-rimuhosting-<version>.tgz`) as its users get it, packed from a staging copy
 * of what package.json's `files` selects, with two files of their own:
 *
 * - README.md is package/README.md, written for someone who installed the package (no clone, no `npm run`, no
 *   examples/), its relative links to docs/ turned into links to the docs at the release's tag (`blob/v<version>/`),
 *   so the page on npm's registry describes the version it shows. The repository's README.md stays the contributor's
 *   front page.
 * - package.json without what only a checkout uses: the development scripts (`prepare` among them: an installed
 *   package is already built, and npm warns about, or blocks, a lifecycle script of a package from a file or a URL),
 *   the devDependencies, the overrides and the allowScripts of the repository's own install.
 *
 * `npm run release:build` (build.ts) packs the release's tarball with it; `npm run package` packs one into dist/ from
 * a checkout (docs/typescript.md: to try a branch); test/package/packed.test.ts installs what it packs.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../provider/native/schema/plugin-dir.js";

/** The package's own README, in the repository (its links are relative to it, and checked like every page's). */
export const PACKAGE_README = "package/README.md";
/** What package.json holds for the repository's own install and build only: no installed package reads them. */
export const DEVELOPMENT_FIELDS = ["scripts", "devDependencies", "overrides", "allowScripts"] as const;

interface Manifest {
  name: string;
  version: string;
  repository: { url: string };
  [field: string]: unknown;
}

function readManifest(root: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Manifest;
}

/** The repository's web address, from package.json's `repository.url` (`git+https://…/name.git`). */
export function repositoryWebUrl(manifest: { repository: { url: string } }): string {
  return manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
}

/** The package.json that is published: the repository's, less DEVELOPMENT_FIELDS. */
export function publishedManifest(root: string): Manifest {
  const manifest = readManifest(root);
  for (const field of DEVELOPMENT_FIELDS) delete manifest[field];
  return manifest;
}

/**
 * package/README.md as published: each relative link to a file of the repository becomes a link to that file at
 * the tag `v<version>`.
 */
export function packageReadme(root: string): string {
  const manifest = readManifest(root);
  const base = `${repositoryWebUrl(manifest)}/blob/v${manifest.version}/`;
  const readmeDir = path.dirname(path.join(root, PACKAGE_README));
  const text = fs.readFileSync(path.join(root, PACKAGE_README), "utf8");
  return text.replace(/\]\((?!https?:|#|mailto:)([^)\s]+)\)/g, (_, target: string) => {
    const inRepo = path.relative(root, path.resolve(readmeDir, target)).split(path.sep).join("/");
    if (inRepo.startsWith("..")) throw new Error(`${PACKAGE_README} links outside the repository: ${target}`);
    return `](${base}${inRepo})`;
  });
}

/** Runs npm quietly (no audit, fund or update notice) in `cwd`; returns what it printed on stdout. */
function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    },
  });
}

/**
 * Packs the package of the checkout at `root` (built: dist/ must hold the compiled code) into `outDir`; returns the
 * tarball's path. No script runs: `--ignore-scripts` in the checkout, and the staged package.json has none.
 */
export function packNpmPackage(root: string, outDir: string): string {
  fs.mkdirSync(outDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-npm-package-"));
  try {
    // What npm would pack from the checkout (package.json's `files`, plus package.json, README and LICENSE).
    const listed = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], root)) as [
      { files: { path: string }[] },
    ];
    for (const { path: file } of listed[0].files) {
      fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      fs.copyFileSync(path.join(root, file), path.join(staging, file));
    }
    fs.writeFileSync(
      path.join(staging, "package.json"),
      `${JSON.stringify(publishedManifest(root), null, 2)}\n`,
    );
    fs.writeFileSync(path.join(staging, "README.md"), packageReadme(root));
    const printed = npm(
      ["pack", "--json", "--ignore-scripts", "--pack-destination", path.resolve(outDir)],
      staging,
    );
    const [{ filename }] = JSON.parse(printed) as [{ filename: string }];
    return path.join(path.resolve(outDir), filename);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const outDir = process.argv[2] ?? path.join(REPO_ROOT, "dist");
  console.log(path.relative(process.cwd(), packNpmPackage(REPO_ROOT, outDir)));
}
