/**
 * package.json's version and CHANGELOG.md's first section agree, as the release workflow requires before it creates
 * the tag (scripts/release-version.js, which both run), and the workflow tags what that script prints.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, scratchDir } from "./support/offline-project";

const SCRIPT = path.join(REPO_ROOT, "scripts/release-version.js");
const scratch = scratchDir("release");
afterAll(() => scratch.cleanup());

function releaseVersion(root: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [SCRIPT, "--root", root, ...args], { encoding: "utf8" });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

/** A copy of package.json and CHANGELOG.md, with `edit` applied to the changelog. */
function copyWith(name: string, edit: (changelog: string) => string): string {
  const dir = path.join(scratch.dir, name);
  fs.mkdirSync(dir);
  fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(dir, "package.json"));
  const changelog = fs.readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8");
  fs.writeFileSync(path.join(dir, "CHANGELOG.md"), edit(changelog));
  return dir;
}

const version: string = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;

describe("the release version", () => {
  it("CHANGELOG.md's first section is package.json's version: the tag is v<version>", () => {
    expect(releaseVersion(REPO_ROOT)).toEqual({ status: 0, stdout: `v${version}`, stderr: "" });
  });

  it("writes that section as the release notes", () => {
    const notes = path.join(scratch.dir, "notes.md");
    expect(releaseVersion(REPO_ROOT, "--notes", notes).status).toBe(0);
    const text = fs.readFileSync(notes, "utf8");
    expect(text).toMatch(/^### Added$/m);
    expect(text).not.toMatch(/^## \[/m);
  });

  it("refuses a changelog whose first section is another version, or Unreleased", () => {
    const bumped = copyWith("bumped", (text) => text.replace("## [", `## [9.9.9]\n\n- a change\n\n## [`));
    const unreleased = copyWith("unreleased", (text) =>
      text.replace("## [", "## [Unreleased]\n\n- a change\n\n## ["),
    );
    for (const dir of [bumped, unreleased]) {
      const result = releaseVersion(dir);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`package.json's version is ${version}`);
    }
  });

  it("the release workflow tags what the script prints, and only from a run by hand", () => {
    const workflow = fs.readFileSync(path.join(REPO_ROOT, ".github/workflows/release.yml"), "utf8");
    expect(workflow).toMatch(/tag="\$\(node scripts\/release-version\.js\)"/);
    expect(workflow).toMatch(/git tag "\$TAG" "\$GITHUB_SHA"/);
    expect(workflow).toMatch(/^on:\s*\n\s+workflow_dispatch:/m);
  });
});
