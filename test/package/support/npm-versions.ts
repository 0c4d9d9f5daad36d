/**
 * npm's newest major line (12, npm's `latest`), beside the npm that ships with the Node first on PATH: scripts/npm.sh
 * installs it into a cache outside the clone the first time (from the npm registry) and reuses it after.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "./offline-project";

/** The major line of npm the tests take the users' routes with, besides the one on PATH. */
export const NEWEST_NPM_MAJOR = 12;

/** The directory holding npm and npx of `major` (scripts/npm.sh's last line). */
export function npmBinDir(major: number = NEWEST_NPM_MAJOR): string {
  const printed = execFileSync(path.join(REPO_ROOT, "scripts/npm.sh"), [String(major)], { encoding: "utf8" });
  return printed.trim().split("\n").pop()!;
}

/** process.env with npm `major` first on PATH (the node already on PATH runs it). */
export function envWithNpm(major: number = NEWEST_NPM_MAJOR): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${npmBinDir(major)}${path.delimiter}${process.env.PATH}` };
}
