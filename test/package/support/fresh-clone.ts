// A fresh clone of the checkout, as a new contributor makes one: `git clone`, so it holds only what git tracks (no
// dist/, no node_modules, no caches), with the working tree's changes in it (a commit of them on top of HEAD, made with
// a throwaway index: the checkout's index, branch and files are untouched), so the tests run what is about to be
// committed. Its node_modules is the checkout's, hard-linked (`cp -al`): `npm ci` installs the same lock file, and
// its download and unpacking are 30 to 40 CPU-s a file cannot spend (test/README.md, "Fresh clones").
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../engine/native-programs";

const git = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = REPO_ROOT): string =>
  execFileSync("git", ["-c", "user.name=fresh-clone", "-c", "user.email=fresh-clone@localhost", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
  }).trim();

/** A commit of the working tree (tracked and new files git does not ignore) whose parent is HEAD. */
function workingTreeCommit(): string {
  const index = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fresh-clone-index-")), "index");
  try {
    const env = { GIT_INDEX_FILE: index };
    git(["read-tree", "HEAD"], env);
    git(["add", "-A"], env);
    const tree = git(["write-tree"], env);
    return git(["commit-tree", tree, "-p", "HEAD", "-m", "the working tree, for a fresh clone"]);
  } finally {
    fs.rmSync(path.dirname(index), { recursive: true, force: true });
  }
}

/**
 * Clones the checkout into `<parent>/<name>` and checks out its working tree's commit; with `linkNodeModules`, puts
 * the checkout's node_modules there as hard links. Returns the clone's directory.
 */
export function freshClone(parent: string, name: string, linkNodeModules: boolean): string {
  const commit = workingTreeCommit();
  const dir = path.join(parent, name);
  // --shared: the clone reads the checkout's objects (the commit above among them) instead of copying them.
  git(["clone", "--quiet", "--shared", "--no-checkout", REPO_ROOT, dir]);
  git(["checkout", "--quiet", "--detach", commit], {}, dir);
  if (linkNodeModules) {
    const modules = path.join(REPO_ROOT, "node_modules");
    try {
      execFileSync("cp", ["-al", modules, dir], { stdio: "pipe" });
    } catch {
      // Another file system (a tmpfs /tmp): no hard links across it, so a copy (245 MB, seconds).
      fs.rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
      execFileSync("cp", ["-a", modules, dir]);
    }
  }
  return dir;
}
