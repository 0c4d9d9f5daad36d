/**
 * The commit checked out in a git working tree, read from its files (test files may start no process unless listed
 * in needs-processes.js): `.git` a directory or, in a worktree, a file naming one; HEAD a commit or a ref, found
 * loose in the worktree's or the common git directory, or in packed-refs. undefined with no checkout.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const read = (file: string): string | undefined => {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
};

export function gitHead(root: string): string | undefined {
  const dotGit = path.join(root, ".git");
  const pointer = read(dotGit);
  const gitDir = pointer?.startsWith("gitdir:") ? path.resolve(root, pointer.slice(7).trim()) : dotGit;
  const head = read(path.join(gitDir, "HEAD"));
  if (head === undefined || !head.startsWith("ref:")) return head;
  const ref = head.slice(4).trim();
  const commonDir = read(path.join(gitDir, "commondir"));
  const common = commonDir === undefined ? gitDir : path.resolve(gitDir, commonDir);
  const loose = read(path.join(gitDir, ref)) ?? read(path.join(common, ref));
  if (loose !== undefined) return loose;
  const packed = read(path.join(common, "packed-refs"))
    ?.split("\n")
    .find((line) => line.endsWith(` ${ref}`));
  return packed?.split(" ")[0];
}
