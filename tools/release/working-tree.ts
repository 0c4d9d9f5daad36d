/**
 * The repository's working tree as git sees it: the tracked files and the new ones git does not ignore (a build's
 * sources, whether committed or not), and a hash of their names and contents, which keys what is built from them
 * and kept outside the clone (test/package/support/offline-project.ts's pack, test/engine/release-cache.ts's
 * release).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../provider/native/schema/plugin-dir.js";

/** The tracked files and the new ones git does not ignore, relative to the repository. */
export function workingTreeFiles(root: string = REPO_ROOT): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  return listed.split("\0").filter(Boolean);
}

/** The SHA-256 of the working tree's files (those workingTreeFiles lists and that exist), names and contents. */
export function workingTreeHash(root: string = REPO_ROOT): string {
  const hash = createHash("sha256");
  for (const file of workingTreeFiles(root).sort()) {
    const from = path.join(root, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    // A link (policy-pack/cost) counts by where it points; what it points to is hashed as its own files.
    const link = fs.lstatSync(from).isSymbolicLink();
    hash
      .update(`${file}\0`)
      .update(link ? `-> ${fs.readlinkSync(from)}` : fs.readFileSync(from))
      .update("\0");
  }
  return hash.digest("hex");
}
