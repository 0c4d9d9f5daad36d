/**
 * The release: package.json's version and CHANGELOG.md's first section agree, as the release workflow requires
 * (scripts/release-version.js, which both run); scripts/release-files.js, which picks from dist/release what the
 * workflow attaches to the GitHub release and publishes to npm and PyPI, refuses a release that is incomplete, of
 * another version or not what its SHA256SUMS says; the workflow's facts (support/release-workflow.ts), each shown
 * to fail on a workflow that lacks it; and its tag step, run against a local origin: vX.Y.Z and sdk/vX.Y.Z.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, scratchDir } from "./support/offline-project";
import { TARGETS } from "../../tools/release/node-binaries";
import { readReleaseWorkflow, releaseWorkflowProblems, stepNamed } from "./support/release-workflow";

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

  it("the release workflow releases what the script prints: a pushed tag must be it", () => {
    const workflow = readReleaseWorkflow();
    expect(workflow).toMatch(/tag="\$\(node scripts\/release-version\.js\)"/);
    expect(workflow).toMatch(/if \[ "\$GITHUB_REF_NAME" != "\$tag" \]; then/);
  });
});

const FILES_SCRIPT = path.join(REPO_ROOT, "scripts/release-files.js");

function releaseFiles(dir: string, root: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [FILES_SCRIPT, "--dir", dir, "--root", root, ...args], {
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

/** The names npm pack and Python's build give this version's packages, as the release holds them. */
const PLUGIN_NAMES = TARGETS.map((t) => `pulumi-resource-rimuhosting-v${version}-${t.platform}.tar.gz`);
const PROVIDER_TGZ = `pulumi-rimuhosting-${version}.tgz`;
const RELEASE_NAMES = [
  ...PLUGIN_NAMES,
  PROVIDER_TGZ,
  `pulumi-rimuhosting-rimuhosting-${version}.tgz`,
  `pulumi_rimuhosting-${version}-py3-none-any.whl`,
  `pulumi_rimuhosting-${version}.tar.gz`,
  `rimuhosting-${version}.jar`,
  `rimuhosting-${version}-sources.jar`,
  `rimuhosting-${version}.pom`,
  `rimuhosting-policy-pack-${version}.tar.gz`,
];

/** A release directory holding `names` (each file its own name as content) and their SHA256SUMS. */
function releaseDir(name: string, names = RELEASE_NAMES): string {
  const dir = path.join(scratch.dir, name);
  fs.mkdirSync(dir);
  for (const file of names) fs.writeFileSync(path.join(dir, file), file);
  const sum = (file: string) => crypto.createHash("sha256").update(file).digest("hex");
  fs.writeFileSync(path.join(dir, "SHA256SUMS"), names.map((f) => `${sum(f)}  ${f}\n`).join(""));
  return dir;
}

describe("scripts/release-files.js", () => {
  it("attaches SHA256SUMS and every file it lists, publishes the two npm tarballs and the Python dists", () => {
    const dir = releaseDir("complete");
    expect(releaseFiles(dir, REPO_ROOT, "check")).toMatchObject({ status: 0, stderr: "" });
    const github = releaseFiles(dir, REPO_ROOT, "github");
    expect(github.stdout.split("\n").map((f) => path.basename(f))).toEqual([
      "SHA256SUMS",
      ...[...RELEASE_NAMES].sort(),
    ]);
    expect(releaseFiles(dir, REPO_ROOT, "npm").stdout.split("\n")).toEqual([
      `pulumi-rimuhosting@${version} ${path.join(dir, `pulumi-rimuhosting-${version}.tgz`)}`,
      `@pulumi-rimuhosting/rimuhosting@${version} ${path.join(dir, `pulumi-rimuhosting-rimuhosting-${version}.tgz`)}`,
    ]);
    const pypiDir = path.join(scratch.dir, "pypi");
    expect(releaseFiles(dir, REPO_ROOT, "pypi", pypiDir).status).toBe(0);
    expect(fs.readdirSync(pypiDir).sort()).toEqual([
      `pulumi_rimuhosting-${version}-py3-none-any.whl`,
      `pulumi_rimuhosting-${version}.tar.gz`,
    ]);
  });

  it.each([
    [
      "a missing wheel",
      (dir: string) => rebuilt(dir, (names) => names.filter((f) => !f.endsWith(".whl"))),
      /one wheel pulumi_rimuhosting-.*, not 0/,
    ],
    [
      "a missing SDK tarball",
      (dir: string) =>
        rebuilt(dir, (names) => names.filter((f) => !f.startsWith("pulumi-rimuhosting-rimuhosting-"))),
      /no pulumi-rimuhosting-rimuhosting-.*\.tgz \(the Node\.js SDK's npm package\)/,
    ],
    [
      "no Java sources jar",
      (dir: string) => rebuilt(dir, (names) => names.filter((f) => !f.endsWith("-sources.jar"))),
      /no rimuhosting-.*-sources\.jar \(the Java SDK's sources jar\)/,
    ],
    [
      "no policy pack",
      (dir: string) =>
        rebuilt(dir, (names) => names.filter((f) => !f.startsWith("rimuhosting-policy-pack-"))),
      /no rimuhosting-policy-pack-.*\.tar\.gz \(the policy pack\)/,
    ],
    [
      "no plugin tarball",
      (dir: string) => rebuilt(dir, (names) => names.filter((f) => !f.startsWith("pulumi-resource-"))),
      /no plugin tarball for linux-amd64, linux-arm64, darwin-amd64, darwin-arm64, windows-amd64/,
    ],
    [
      "a plugin tarball of another version",
      (dir: string) =>
        rebuilt(dir, (names) => [...names, "pulumi-resource-rimuhosting-v9.9.9-linux-amd64.tar.gz"]),
      /v9\.9\.9-linux-amd64\.tar\.gz is not a plugin tarball of/,
    ],
    [
      "a file SHA256SUMS does not list",
      (dir: string) => fs.writeFileSync(path.join(dir, "extra.txt"), "x"),
      /extra\.txt is in .* but not in its SHA256SUMS/,
    ],
    [
      "a changed file",
      (dir: string) => fs.appendFileSync(path.join(dir, PLUGIN_NAMES[0]!), "changed"),
      /linux-amd64\.tar\.gz's SHA-256 is [0-9a-f]{64}, not/,
    ],
    [
      "a listed file missing",
      (dir: string) => fs.rmSync(path.join(dir, PROVIDER_TGZ)),
      /SHA256SUMS lists pulumi-rimuhosting-.*\.tgz, which is not in/,
    ],
  ])("refuses a release with %s", (_what, spoil, message) => {
    const dir = releaseDir(`spoiled-${_what.replace(/\W+/g, "-")}`);
    spoil(dir);
    for (const command of ["check", "github", "npm"]) {
      const result = releaseFiles(dir, REPO_ROOT, command);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
    }
  });

  it.each(TARGETS.map((t) => t.platform))(
    "refuses a release without the %s plugin (every platform release:build makes, or nothing)",
    (platform) => {
      const dir = releaseDir(
        `without-${platform}`,
        RELEASE_NAMES.filter((f) => !f.endsWith(`-${platform}.tar.gz`)),
      );
      const result = releaseFiles(dir, REPO_ROOT, "check");
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`has no plugin tarball for ${platform} `);
    },
  );

  it("attaches SHA256SUMS.sig, the signature, after SHA256SUMS (it is the one file SHA256SUMS does not list)", () => {
    const dir = releaseDir("signed");
    fs.writeFileSync(path.join(dir, "SHA256SUMS.sig"), "signature");
    expect(releaseFiles(dir, REPO_ROOT, "check").status).toBe(0);
    const github = releaseFiles(dir, REPO_ROOT, "github").stdout.split("\n");
    expect(github.slice(0, 2).map((f) => path.basename(f))).toEqual(["SHA256SUMS", "SHA256SUMS.sig"]);
  });

  it("refuses SDKs generated for another version", () => {
    const root = path.join(scratch.dir, "old-sdk");
    fs.mkdirSync(path.join(root, "sdk/nodejs"), { recursive: true });
    fs.mkdirSync(path.join(root, "sdk/python"), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(root, "package.json"));
    const sdk = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "sdk/nodejs/package.json"), "utf8"));
    fs.writeFileSync(
      path.join(root, "sdk/nodejs/package.json"),
      JSON.stringify({ ...sdk, version: "0.0.1" }),
    );
    fs.copyFileSync(
      path.join(REPO_ROOT, "sdk/python/pyproject.toml"),
      path.join(root, "sdk/python/pyproject.toml"),
    );
    const result = releaseFiles(releaseDir("old-sdk-release"), root, "npm");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`sdk/nodejs/package.json is version 0.0.1, not the release's ${version}`);
  });
});

/** The release directory `dir` with its files replaced by `edit` of the usual names (SHA256SUMS rewritten). */
function rebuilt(dir: string, edit: (names: string[]) => string[]): void {
  fs.rmSync(dir, { recursive: true });
  releaseDir(path.basename(dir), edit(RELEASE_NAMES));
}

describe("the release workflow", () => {
  const text = readReleaseWorkflow();

  it("has every fact the release depends on", () => {
    expect(releaseWorkflowProblems(text)).toEqual([]);
  });

  it.each([
    ["no tag trigger", 'tags: ["v*"]', 'branches: ["main"]', /on\.push\.tags is undefined/],
    [
      "PyPI without id-token",
      "id-token: write # PyPI",
      "actions: read # PyPI",
      /pypi has no id-token: write/,
    ],
    [
      "npm without provenance",
      " --provenance --access public",
      " --access public",
      /npm publishes without --provenance/,
    ],
    [
      "no sdk/ tag",
      'for tag in "$TAG" "sdk/$TAG"; do',
      'for tag in "$TAG"; do',
      /does not tag both vX\.Y\.Z and sdk\/vX\.Y\.Z/,
    ],
    [
      "no release:build",
      "npm run release:build\n",
      "npm run plugin:pack\n",
      /does not run npm run release:build after \.ci\/run/,
    ],
    [
      "another upload directory",
      "path: dist/release/\n",
      "path: dist/\n",
      /build does not upload dist\/release/,
    ],
    [
      "PyPI before the release",
      "pypi:\n    needs: [version, github-release]",
      "pypi:\n    needs: [version, build]",
      /pypi does not wait for github-release/,
    ],
    [
      "npm before the tests",
      "npm:\n    needs: [version, github-release]",
      "npm:\n    needs: [version]",
      /npm does not wait for build/,
    ],
    [
      "Node from the npm registry",
      'scripts/node-from-nodejs-org.sh "$version"',
      'echo "$version"',
      /does not take Node from nodejs\.org/,
    ],
    [
      "no signing key",
      "RELEASE_SIGNING_KEY: ${{ secrets.RELEASE_SIGNING_KEY }}",
      "RELEASE_SIGNING: ${{ secrets.RELEASE_SIGNING_KEY }}",
      /sign does not give sign\.js the signing key/,
    ],
    [
      "no verification of the signed release",
      "scripts/verify-release.sh --dir dist/release",
      "ls dist/release",
      /does not verify the signed release/,
    ],
    [
      "the release key in the root build",
      "RELEASE_NODE_CACHE: ${{ runner.temp }}/node-from-nodejs-org\n",
      "RELEASE_NODE_CACHE: ${{ runner.temp }}/node-from-nodejs-org\n          RELEASE_SIGNING_KEY: ${{ secrets.RELEASE_SIGNING_KEY }}\n",
      /build has the release key in its environment \(only the signing step may\)/,
    ],
    [
      "signing beside root",
      "run: node dist/tools/release/sign.js dist/release/SHA256SUMS",
      'run: sudo -E env "PATH=$PATH" node dist/tools/release/sign.js dist/release/SHA256SUMS',
      /sign runs something as root beside the key/,
    ],
    [
      "the release before its signature",
      "needs: [version, sign, attest]",
      "needs: [version, build]",
      /github-release does not wait for sign \(it would publish an unsigned release\)/,
    ],
    [
      "npm unpinned",
      "npm install --global npm@11.21.2",
      "npm install --global npm@11",
      /npm installs npm@11, not an exact version of npm/,
    ],
    [
      "no provenance",
      "subject-checksums: dist/release/SHA256SUMS",
      "subject-path: dist/release/SHA256SUMS",
      /does not attest every file of SHA256SUMS/,
    ],
    [
      "the release before its provenance",
      "needs: [version, sign, attest]",
      "needs: [version, sign]",
      /github-release does not wait for attest/,
    ],
    [
      "PyPI's directory not the copied one",
      "packages-dir: dist/pypi/",
      "packages-dir: dist/release/",
      /pypi does not publish the directory release-files\.js pypi fills/,
    ],
  ])("names what is wrong with %s", (_what, from, to, problem) => {
    expect(text).toContain(from);
    expect(releaseWorkflowProblems(text.replace(from, to))).toEqual(
      expect.arrayContaining([expect.stringMatching(problem)]),
    );
  });

  it("its tag step tags the tested commit vX.Y.Z and sdk/vX.Y.Z, again without change, and refuses a moved tag", () => {
    const script = stepNamed(text, "Tag the tested commit")?.run;
    expect(script).toBeDefined();
    const origin = path.join(scratch.dir, "origin.git");
    const clone = path.join(scratch.dir, "clone");
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
    execFileSync("git", ["init", "--quiet", "--bare", origin]);
    execFileSync("git", ["clone", "--quiet", origin, clone], { stdio: "ignore" });
    const identity = ["-c", "user.name=release test", "-c", "user.email=release@test.invalid"];
    for (const message of ["first", "second"])
      git(clone, ...identity, "commit", "--quiet", "--allow-empty", "-m", message);
    git(clone, "push", "--quiet", "origin", "HEAD:refs/heads/main");
    const [second, first] = git(clone, "rev-list", "HEAD").split("\n");
    const step = (sha: string) =>
      spawnSync("bash", ["-e", "-c", script!], {
        cwd: clone,
        encoding: "utf8",
        env: { ...process.env, TAG: "v1.2.3", GITHUB_SHA: sha },
      });
    const tagsOnOrigin = () => git(origin, "for-each-ref", "--format=%(refname) %(objectname)", "refs/tags");

    // The tested commit is not the clone's HEAD, so a step that tagged HEAD would be caught.
    expect(step(first!).status).toBe(0);
    expect(tagsOnOrigin()).toBe(`refs/tags/sdk/v1.2.3 ${first}\nrefs/tags/v1.2.3 ${first}`);
    expect(step(first!).status).toBe(0); // a rerun: both exist on that commit
    expect(tagsOnOrigin()).toBe(`refs/tags/sdk/v1.2.3 ${first}\nrefs/tags/v1.2.3 ${first}`);
    const moved = step(second!);
    expect(moved.status).toBe(1);
    expect(moved.stdout).toContain(`::error::tag v1.2.3 already names commit ${first}, not ${second}`);
  });
});
