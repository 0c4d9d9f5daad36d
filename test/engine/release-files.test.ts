// The release workflow on the release `npm run release:build` really writes: the directory it uploads is the one
// the build writes, and scripts/release-files.js accepts that build as it is and hands the workflow every file of
// it for the GitHub release, the provider's and the Node.js SDK's tarballs for npm and the wheel and sdist for
// PyPI (test/package/release.test.ts checks the script and the workflow on made-up directories).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RELEASE_DIR as BUILD_DIR } from "../../tools/release/build";
import { RELEASE_DIR as WORKFLOW_DIR } from "../package/support/release-workflow";
import { REPO_ROOT } from "./native-programs";
import { ensureRelease, RELEASE_SDK, version } from "./release-support";
import { pluginTarballName } from "../../provider/native/pack";
import { TARGETS } from "../../tools/release/node-binaries";
import { declarationFile, PACKAGES_FILE } from "../../tools/release/package-entry";
import { policyPackTarballName } from "../../tools/release/policy-pack";

jest.setTimeout(300_000);
/** A cold machine fetches five node binaries and may build rcodesign first (.ci/run builds it beforehand). */
const BUILD_TIMEOUT = 1_800_000;

function releaseFiles(...args: string[]): string[] {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts/release-files.js"), ...args], {
    encoding: "utf8",
  });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return result.stdout.trim().split("\n");
}

describe("the release workflow's files, from a real release:build", () => {
  let scratch: string;
  beforeAll(async () => {
    await ensureRelease();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "release-files-"));
  }, BUILD_TIMEOUT);
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("the workflow uploads the directory release:build writes", () => {
    expect(path.relative(REPO_ROOT, BUILD_DIR)).toBe(WORKFLOW_DIR);
  });

  it("attaches every file of the build to the GitHub release, and publishes its two npm tarballs and Python dists", () => {
    expect(releaseFiles("check")).toHaveLength(1);
    const github = releaseFiles("github");
    const built = fs.readdirSync(BUILD_DIR).filter((f) => f !== "SHA256SUMS");
    // Exactly these (and the signature, when the build had the key): a plugin per platform, the provider's and the
    // Node.js SDK's npm tarballs, the wheel and the sdist, the Java jars and pom (buildSdkPackages writes nothing else), the packages: entry
    // and the YAML package declaration, and the policy pack's tarball.
    expect(built.filter((f) => f !== "SHA256SUMS.sig").sort()).toEqual(
      [
        ...TARGETS.map((t) => pluginTarballName(version, t.platform)),
        `pulumi-rimuhosting-${version}.tgz`,
        ...Object.values(RELEASE_SDK).map((file) => path.basename(file)),
        PACKAGES_FILE,
        declarationFile(version),
        policyPackTarballName(version),
      ].sort(),
    );
    expect(github.map((file) => path.relative(BUILD_DIR, file))).toEqual(["SHA256SUMS", ...built.sort()]);
    expect(releaseFiles("npm")).toEqual([
      `pulumi-rimuhosting@${version} ${path.join(BUILD_DIR, `pulumi-rimuhosting-${version}.tgz`)}`,
      `@pulumi-rimuhosting/rimuhosting@${version} ${RELEASE_SDK.npmTarball}`,
    ]);
    releaseFiles("pypi", scratch);
    expect(fs.readdirSync(scratch).sort()).toEqual(
      [RELEASE_SDK.wheel, RELEASE_SDK.sdist].map((file) => path.basename(file)).sort(),
    );
  });
});
