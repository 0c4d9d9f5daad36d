// A release you can verify (issue 34), on real `npm run release:build` output:
// - reproducible: a second build of the same commit, into another directory, with its node binaries cached
//   under another path, another environment and one core (as on another builder's machine), writes the same files
//   as the release the other tests share (ensureRelease's dist/release), byte for byte, but for a count the
//   linux-amd64 startup snapshot holds (SNAPSHOT_COUNTER_BYTES); with `--fresh`, so it makes every executable anew
//   where the first may have taken them from the executable cache (tools/release/executable-cache.ts);
// - signed: that second build, like the release workflow's build job, is unsigned and says so; then signed as the
//   sign job does (signSums), with a throwaway key standing for the published one, and its SHA256SUMS.sig verifies;
// - the verified install route of docs/installation-configuration.md ("Verify what you install"), run as written
//   against that release served on 127.0.0.1 (only the address and the version are the test's), with a fresh
//   PULUMI_HOME: it installs the plugin; with the linux-amd64 tarball tampered and SHA256SUMS and its signature as
//   they were, it fails and installs nothing. scripts/verify-release.sh, the same for CI, likewise.
// The recipes' commands run in a user's environment (test/docs/support/user-env.ts): what the page sets (RELEASE_URL,
// RELEASE_KEY for the script) and, from docs/testing.md's harness list, a PULUMI_HOME and a GnuPG home of their own.
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { recipe } from "../docs/support/code-blocks";
import { shell } from "../docs/support/shell";
import { userEnv } from "../docs/support/user-env";
import { findPulumiCli } from "./cli-stack";
import { REPO_ROOT } from "./native-programs";
import { secondBuild as buildSecond, type SecondBuild } from "../package/support/release-second-build";
import { ensureRelease, RELEASE_DIR, version } from "./release-support";
import { TARGETS } from "../../tools/release/node-binaries";
import { PACKAGES_FILE } from "../../tools/release/package-entry";

jest.setTimeout(300_000);
/** Two builds of 4-6 minutes each on an idle machine, when neither is there yet. */
const BUILD_TIMEOUT = 2_400_000;
const TARBALL = `pulumi-resource-rimuhosting-v${version}-linux-amd64.tar.gz`;
/**
 * How many bytes two builds' linux-amd64 executables may differ by: its startup snapshot holds a count that
 * follows the timing of the build, not its inputs. Seen in three pairs of builds (on a loaded CI machine, or one
 * pinned to a core): one byte one apart, one byte six apart, and the four bytes of the snapshot's checksum; every
 * other byte of the 169 MB the same (docs/releasing.md, "Reproducibly"). A fourth pair, in a CI run on an empty
 * cache root (d78b963), differed in 9: the bound was 6, and failed it. A path, an environment variable or a
 * timestamp in the snapshot changes far more than 16.
 */
const SNAPSHOT_COUNTER_BYTES = 16;
const GITHUB = "https://github.com";
const RELEASE_PATH = `/pulumi-rimuhosting/pulumi-rimuhosting/releases/download/v${version}/`;
/** The page of the verify recipes; the environment of every command they run starts from it (user-env.ts). */
const PAGE = "docs/installation-configuration.md";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "release-verify-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The second release:build of this commit, signed with a throwaway key (release-second-build.ts). */
const secondBuild = (): SecondBuild => buildSecond(scratch);

function skipReason(): string | undefined {
  if (process.platform !== "linux" || process.arch !== "x64") return "the release is built on linux x64";
  return undefined;
}
const describeHere = (title: string, body: () => void, reason = skipReason()) => {
  if (reason && process.env.CI === "true") throw new Error(`CI=true, but ${title} cannot run: ${reason}`);
  if (reason) describe.skip(`${title} (skipped: ${reason})`, body);
  else describe(title, body);
};

describeHere("two release:builds of one commit", () => {
  let second: SecondBuild | undefined;
  beforeAll(async () => {
    await ensureRelease();
    second = secondBuild();
  }, BUILD_TIMEOUT);

  it("write the same files, byte for byte, but for two counters in the linux-amd64 snapshot", () => {
    const sums = (dir: string) =>
      Object.fromEntries(
        fs
          .readFileSync(path.join(dir, "SHA256SUMS"), "utf8")
          .trimEnd()
          .split("\n")
          .map((line) => line.split(/\s+/).reverse()),
      ) as Record<string, string>;
    const first = sums(RELEASE_DIR);
    const again = sums(second!.dir);
    expect(Object.keys(first)).toHaveLength(fs.readdirSync(RELEASE_DIR).length - 1);
    expect(Object.keys(again).sort()).toEqual(Object.keys(first).sort());
    // Every file but these two the same: the linux-amd64 tarball, and the `packages:` entry that holds its checksum.
    const others = (all: Record<string, string>) =>
      Object.entries(all).filter(([name]) => name !== TARBALL && name !== PACKAGES_FILE);
    expect(others(again)).toEqual(others(first));
    // The linux-amd64 tarball: the same files; the executable the same but for at most SNAPSHOT_COUNTER_BYTES bytes.
    const listing = (dir: string) =>
      execFileSync("tar", ["-tvzf", path.join(dir, TARBALL)], { encoding: "utf8" }).replace(/ +/g, " ");
    expect(listing(second!.dir)).toEqual(listing(RELEASE_DIR));
    const executable = (dir: string) =>
      execFileSync("tar", ["-xzOf", path.join(dir, TARBALL), "pulumi-resource-rimuhosting"], {
        maxBuffer: 1 << 30,
      });
    const a = executable(RELEASE_DIR);
    const b = executable(second!.dir);
    expect(b.length).toBe(a.length);
    let differing = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differing += 1;
    expect(differing).toBeLessThanOrEqual(SNAPSHOT_COUNTER_BYTES);
    // The `packages:` entry: the same once it names one linux-amd64 checksum.
    type Entry = { packages: { rimuhosting: { checksums: Record<string, string> } } };
    const entry = (dir: string) =>
      JSON.parse(fs.readFileSync(path.join(dir, PACKAGES_FILE), "utf8")) as Entry;
    const firstEntry = entry(RELEASE_DIR);
    const againEntry = entry(second!.dir);
    againEntry.packages.rimuhosting.checksums["linux-amd64"] =
      firstEntry.packages.rimuhosting.checksums["linux-amd64"]!;
    expect(againEntry).toEqual(firstEntry);
  });

  it("the second made every executable anew: none taken from the executable cache", () => {
    for (const t of TARGETS) expect(second!.log).toContain(`-${t.platform}.tar.gz: `);
    expect(second!.log).not.toContain("kept from a build of the same inputs");
    // linux-arm64's bytes are those the cache keeps, which answered under qemu when kept: not started again.
    expect(second!.log).toMatch(/linux-arm64\.tar\.gz: .*the same bytes as the kept executable/);
  });

  it("built unsigned (and says so), then signed; the signature verifies with that key", () => {
    expect(second!.log).toContain("SHA256SUMS: NOT SIGNED");
    const { key } = second!;
    expect(second!.signing.message).toContain(`signed by ${key.fingerprint}`);
    // The page's `--dir` form, with RELEASE_KEY naming the key as the page says.
    const result = spawnSync(path.join(REPO_ROOT, "scripts/verify-release.sh"), ["--dir", second!.dir], {
      encoding: "utf8",
      env: userEnv(PAGE, { RELEASE_KEY: key.publicKeyFile }),
    });
    expect(result.stdout).toContain(`SHA256SUMS is signed by the release key (${key.fingerprint})`);
    expect(result.status).toBe(0);
  });
});

/** Serves `dir`'s files under GitHub's release path on 127.0.0.1; `origin` replaces https://github.com. */
async function serveRelease(dir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x").pathname;
    const name = url.startsWith(RELEASE_PATH) ? url.slice(RELEASE_PATH.length) : "";
    const file = path.join(dir, name);
    if (!name || name.includes("/") || !fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const cli = findPulumiCli();

describeHere(
  "the verified install route of the docs, against a signed release served on 127.0.0.1",
  () => {
    let good: Awaited<ReturnType<typeof serveRelease>>;
    let tampered: Awaited<ReturnType<typeof serveRelease>>;
    let key: SecondBuild["key"];
    beforeAll(async () => {
      const { dir, key: signer } = secondBuild();
      key = signer;
      good = await serveRelease(dir);
      // The plugin changed; SHA256SUMS and its signature as the release published them.
      const spoiled = path.join(scratch, "tampered");
      fs.mkdirSync(spoiled);
      for (const file of [TARBALL, "SHA256SUMS", "SHA256SUMS.sig"])
        fs.copyFileSync(path.join(dir, file), path.join(spoiled, file));
      fs.appendFileSync(path.join(spoiled, TARBALL), "tampered");
      tampered = await serveRelease(spoiled);
    }, BUILD_TIMEOUT);
    afterAll(async () => {
      await good?.close();
      await tampered?.close();
    });

    /**
     * A new user's directory (the key saved in it as the docs say), and the harness's names for their commands
     * (docs/testing.md): a PULUMI_HOME and a GnuPG home of their own, no update check. `env(pageSets)`: a
     * command's environment (user-env.ts) with what the page sets; `installed()`: what `pulumi plugin ls` lists.
     */
    function user(name: string) {
      const home = path.join(scratch, name);
      const cwd = path.join(home, "work");
      fs.mkdirSync(cwd, { recursive: true });
      fs.copyFileSync(key.publicKeyFile, path.join(cwd, "release-signing-key.asc"));
      const harness = {
        PULUMI_HOME: path.join(home, "pulumi"),
        GNUPGHOME: path.join(home, "gnupg"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
      };
      fs.mkdirSync(harness.GNUPGHOME, { mode: 0o700 });
      const env = (pageSets: Record<string, string> = {}) => userEnv(PAGE, pageSets, harness);
      const installed = () =>
        spawnSync("pulumi", ["plugin", "ls"], { cwd, env: env(), encoding: "utf8" }).stdout;
      return { cwd, env, installed };
    }

    /** The docs' recipe, with the release's address on 127.0.0.1 and this checkout's version. */
    const docsRoute = (origin: string) => {
      const text = recipe("docs/installation-configuration.md#verify");
      expect(text).toMatch(/^version=\d+\.\d+\.\d+$/m);
      expect(text).toContain(
        `release=${GITHUB}/pulumi-rimuhosting/pulumi-rimuhosting/releases/download/v$version`,
      );
      return text.replace(/^version=.*$/m, `version=${version}`).replace(GITHUB, origin);
    };
    const INSTALLED = new RegExp(`rimuhosting\\s+resource\\s+${version.replace(/\./g, "\\.")}`);

    it("downloads, checks the signature and the SHA-256, and installs the plugin", async () => {
      const u = user("docs-good");
      const result = await shell(docsRoute(good.origin), { cwd: u.cwd, env: u.env(), clean: true });
      expect(result.output).toContain('Good signature from "release test');
      expect(result.output).toContain(`${TARBALL}: OK`);
      expect(result.code).toBe(0);
      expect(u.installed()).toMatch(INSTALLED);
    });

    it("refuses a tampered tarball under the release's signed SHA256SUMS, and installs nothing", async () => {
      const u = user("docs-tampered");
      const result = await shell(docsRoute(tampered.origin), { cwd: u.cwd, env: u.env(), clean: true });
      expect(result.output).toContain(`${TARBALL}: FAILED`);
      expect(result.code).not.toBe(0);
      expect(u.installed()).not.toMatch(/rimuhosting/);
    });

    it.each([
      ["installs from the signed release", () => good, 0],
      ["refuses the tampered one", () => tampered, 1],
    ])("scripts/verify-release.sh, the same for CI, %s", async (_what, server, code) => {
      const u = user(`script-${code}`);
      const [line] = recipe("docs/installation-configuration.md#verify-script").trim().split("\n");
      expect(line).toMatch(/^scripts\/verify-release\.sh \d+\.\d+\.\d+ linux-amd64$/);
      const result = await shell(line!.replace(/\d+\.\d+\.\d+/, version), {
        cwd: REPO_ROOT,
        env: u.env({ RELEASE_URL: `${server().origin}${RELEASE_PATH}`, RELEASE_KEY: key.publicKeyFile }),
        clean: true,
      });
      expect(result.code).toBe(code);
      if (code === 0) {
        expect(result.output).toContain(`installed rimuhosting ${version} (linux-amd64), verified`);
        expect(u.installed()).toMatch(INSTALLED);
      } else {
        expect(result.output).toContain(`${TARBALL} is not what the signed SHA256SUMS says`);
        expect(u.installed()).not.toMatch(/rimuhosting/);
      }
    });
  },
  skipReason() ?? cli.reason,
);
