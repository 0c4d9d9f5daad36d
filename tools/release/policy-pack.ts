/**
 * The policy pack's release tarball, `rimuhosting-policy-pack-<version>.tar.gz`: the repository's policy-pack/ as a
 * user of the release needs it, without a clone (docs/cost.md#the-policy-pack). It unpacks into `policy-pack/`, with
 * its sources, its lock file, its launcher (`analyzer`) and its README; `npm ci --prefix policy-pack` is then the one
 * install step (its dependencies from its own lock file, and its `prepare` compiles it into bin/, which the launcher
 * runs). What a checkout's install leaves there (node_modules/, bin/) is not packed.
 *
 * build.ts writes it into the release; test/engine/release-policy-pack.test.ts packs it the same way, serves it on
 * 127.0.0.1 and runs the page's steps.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { writeTarball } from "./archive.js";

/** The directory the tarball unpacks into, and the repository's directory it is packed from. */
export const POLICY_PACK_DIR = "policy-pack";

/** What a checkout's install writes into policy-pack/: never packed. */
const INSTALLED = new Set(["node_modules", "bin"]);

export const policyPackTarballName = (version: string): string => `rimuhosting-policy-pack-${version}.tar.gz`;

/**
 * The pack's `cost/`: in the checkout a link to provider/impl/cost, the budget's rules the provider applies; the
 * tarball holds the files of it the pack imports (and what they import), so the pack applies those very rules.
 */
export const POLICY_PACK_COST_DIR = "cost";

/** Relative imports of a source file, by name without extension: `./cost/verdict` or `./money.js` gives its name. */
const importsOf = (source: string, prefix: string): string[] =>
  [...source.matchAll(new RegExp(`from "\\./${prefix}([\\w-]+)(?:\\.js)?"`, "g"))].map((m) => m[1]!);

/** The files of the pack's cost/ that its sources reach, as `cost/<file>.ts`, sorted. */
function costFiles(packDir: string, sources: readonly string[]): string[] {
  const reached = new Set<string>();
  const visit = (name: string) => {
    if (reached.has(name)) return;
    reached.add(name);
    const file = path.join(packDir, POLICY_PACK_COST_DIR, `${name}.ts`);
    for (const next of importsOf(fs.readFileSync(file, "utf8"), "")) visit(next);
  };
  for (const source of sources)
    for (const name of importsOf(
      fs.readFileSync(path.join(packDir, source), "utf8"),
      `${POLICY_PACK_COST_DIR}/`,
    ))
      visit(name);
  return [...reached].map((name) => `${POLICY_PACK_COST_DIR}/${name}.ts`).sort();
}

/** The files of the pack's directory in the checkout at `root` that the tarball holds, sorted. */
export function policyPackFiles(root: string): string[] {
  const dir = path.join(root, POLICY_PACK_DIR);
  const files = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !INSTALLED.has(entry.name))
    .map((entry) => entry.name);
  return [
    ...files,
    ...costFiles(
      dir,
      files.filter((f) => f.endsWith(".ts")),
    ),
  ].sort();
}

/** Writes the tarball of the checkout at `root`'s policy pack into `outDir`, reproducibly; returns its path. */
export async function packPolicyPack(
  root: string,
  outDir: string,
  version: string,
  epoch: number,
): Promise<string> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-policy-pack-"));
  try {
    const dir = path.join(staging, POLICY_PACK_DIR);
    fs.mkdirSync(path.join(dir, POLICY_PACK_COST_DIR), { recursive: true });
    // cost/'s files are copied through the checkout's link: the tarball holds files, never a link.
    for (const file of policyPackFiles(root))
      fs.copyFileSync(path.join(root, POLICY_PACK_DIR, file), path.join(dir, file));
    // The launcher keeps its execute bit (copyFileSync keeps the mode; writeTarball keeps the bit).
    const tarball = path.join(path.resolve(outDir), policyPackTarballName(version));
    await writeTarball(staging, [POLICY_PACK_DIR], tarball, epoch);
    return tarball;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
