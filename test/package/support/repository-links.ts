/** The links into the project's GitHub repository that a packaged README holds, and where a release's should go. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./offline-project";

const { repository } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  repository: { url: string };
};
/** https://github.com/<owner>/<name>, from package.json's repository.url. */
export const REPOSITORY_WEB_URL = repository.url.replace(/^git\+/, "").replace(/\.git$/, "");

/**
 * Every URL to a file or folder of the repository in `text` (`…/blob/<ref>/…` or `…/tree/<ref>/…`, in Markdown links
 * and bare alike); the repository's own address (a package's home page) is not one.
 */
export function linksIntoRepository(text: string): string[] {
  const escaped = REPOSITORY_WEB_URL.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return [...text.matchAll(new RegExp(`${escaped}/(?:blob|tree)/[^\\s)>"'\\]]*`, "g"))].map((m) => m[0]);
}

/** Where a packaged README's links go: the files of the repository at the release's tag. */
export const atTag = (version: string): string => `${REPOSITORY_WEB_URL}/blob/v${version}/`;
