/**
 * The release's signature (tools/release/sign.ts, which `npm run release:build` calls) and the check users and the
 * release workflow run (scripts/verify-release.sh --dir): a release signed with a throwaway key verifies with that
 * key; a changed file, a changed SHA256SUMS, another key or no signature at all fails the check; a build without a
 * key says plainly that it did not sign; a key that cannot sign is an error that does not print the key.
 * test/engine/release-verify.test.ts runs the whole route on a real release.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { sha256sums } from "../../tools/release/build";
import { keyFingerprint, PUBLISHED_KEY, signSums } from "../../tools/release/sign";
import { REPO_ROOT, scratchDir } from "./support/offline-project";
import { throwawayKey, type ThrowawayKey } from "./support/throwaway-key";

jest.setTimeout(60_000);

const scratch = scratchDir("release-signing");
afterAll(() => scratch.cleanup());
let key: ThrowawayKey;
let otherKey: ThrowawayKey;
beforeAll(() => {
  key = throwawayKey(path.join(scratch.dir, "key"));
  otherKey = throwawayKey(path.join(scratch.dir, "other-key"), "someone else");
});

/** A release directory of two files and their SHA256SUMS. */
function release(name: string): string {
  const dir = path.join(scratch.dir, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "pulumi-resource-rimuhosting-v0.1.0-linux-amd64.tar.gz"), "the plugin");
  fs.writeFileSync(path.join(dir, "pulumi-rimuhosting-0.1.0.tgz"), "the package");
  fs.writeFileSync(path.join(dir, "SHA256SUMS"), sha256sums(dir));
  return dir;
}

const signingEnv = (k: ThrowawayKey) => ({
  RELEASE_SIGNING_KEY: k.privateKey,
  RELEASE_SIGNING_PASSPHRASE: k.passphrase,
});

/** scripts/verify-release.sh --dir <dir>, checking with `keyFile`. */
function verify(dir: string, keyFile: string) {
  const result = spawnSync(path.join(REPO_ROOT, "scripts/verify-release.sh"), ["--dir", dir], {
    encoding: "utf8",
    env: { ...process.env, RELEASE_KEY: keyFile, GNUPGHOME: path.join(scratch.dir, "user-gnupg") },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("signing SHA256SUMS", () => {
  it("signs with the key of RELEASE_SIGNING_KEY, and the documented check accepts it", () => {
    const dir = release("signed");
    const signed = signSums(path.join(dir, "SHA256SUMS"), signingEnv(key), key.publicKeyFile);
    expect(signed).toMatchObject({ signed: true, fingerprint: key.fingerprint });
    expect(signed.message).toBe(`signed by ${key.fingerprint}, the published key (${key.publicKeyFile})`);
    expect(fs.readdirSync(dir)).toContain("SHA256SUMS.sig");
    const checked = verify(dir, key.publicKeyFile);
    expect(checked.output).toContain(`SHA256SUMS is signed by the release key (${key.fingerprint})`);
    expect(checked.output).toContain("every file SHA256SUMS lists is in");
    expect(checked.status).toBe(0);
  });

  it.each([
    [
      "a tampered tarball",
      (dir: string) =>
        fs.appendFileSync(path.join(dir, "pulumi-resource-rimuhosting-v0.1.0-linux-amd64.tar.gz"), "!"),
      /pulumi-resource-rimuhosting-v0\.1\.0-linux-amd64\.tar\.gz: FAILED[\s\S]*is not what SHA256SUMS says/,
    ],
    [
      "a tampered tarball with SHA256SUMS rewritten to match",
      (dir: string) => {
        fs.appendFileSync(path.join(dir, "pulumi-resource-rimuhosting-v0.1.0-linux-amd64.tar.gz"), "!");
        fs.writeFileSync(path.join(dir, "SHA256SUMS"), sha256sums(dir));
      },
      /BAD signature[\s\S]*is not a good signature by the release key/,
    ],
    [
      "no signature",
      (dir: string) => fs.rmSync(path.join(dir, "SHA256SUMS.sig")),
      /has no SHA256SUMS\.sig: this release is not signed/,
    ],
  ])("the documented check refuses %s", (what, spoil, message) => {
    const dir = release(`spoiled-${what.replace(/\W+/g, "-")}`);
    signSums(path.join(dir, "SHA256SUMS"), signingEnv(key), key.publicKeyFile);
    spoil(dir);
    const checked = verify(dir, key.publicKeyFile);
    expect(checked.output).toMatch(message);
    expect(checked.status).toBe(1);
  });

  it("the documented check refuses a release signed by another key", () => {
    const dir = release("signed-by-another-key");
    signSums(path.join(dir, "SHA256SUMS"), signingEnv(otherKey), otherKey.publicKeyFile);
    const checked = verify(dir, key.publicKeyFile);
    expect(checked.output).toMatch(/is not a good signature by the release key/);
    expect(checked.status).toBe(1);
  });

  it("refuses to sign with a key whose fingerprint is not the published key's, and says which is which", () => {
    const dir = release("wrong-key");
    let error: Error | undefined;
    try {
      signSums(path.join(dir, "SHA256SUMS"), signingEnv(otherKey), key.publicKeyFile);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toBe(
      `RELEASE_SIGNING_KEY holds key ${otherKey.fingerprint}, not the release key ${key.fingerprint} that ` +
        `${key.publicKeyFile} publishes: nothing was signed. Give it the release key, or replace the published key ` +
        `first (docs/releasing.md, "Rotate the key")`,
    );
    expect(fs.readdirSync(dir)).not.toContain("SHA256SUMS.sig");
    // The same release, the right key: signed.
    expect(signSums(path.join(dir, "SHA256SUMS"), signingEnv(key), key.publicKeyFile).signed).toBe(true);
  });

  it("the release workflow's signing command (`node dist/tools/release/sign.js`) refuses a key keys/ does not publish", () => {
    const dir = release("signing-command");
    const result = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "dist/tools/release/sign.js"), path.join(dir, "SHA256SUMS")],
      { encoding: "utf8", env: { ...process.env, ...signingEnv(key) } },
    );
    expect(result.stderr.trim()).toBe(
      `sign: RELEASE_SIGNING_KEY holds key ${key.fingerprint}, not the release key ` +
        `${keyFingerprint(PUBLISHED_KEY)} that keys/release-signing-key.asc publishes: nothing was signed. Give it ` +
        `the release key, or replace the published key first (docs/releasing.md, "Rotate the key")`,
    );
    expect(result.status).toBe(1);
    expect(fs.readdirSync(dir)).not.toContain("SHA256SUMS.sig");
  });

  it("without a key it does not sign, and says so", () => {
    const dir = release("unsigned");
    const result = signSums(path.join(dir, "SHA256SUMS"), {});
    expect(result).toEqual({
      signed: false,
      message: expect.stringMatching(
        /^NOT SIGNED: RELEASE_SIGNING_KEY is not set, so SHA256SUMS has no SHA256SUMS\.sig/,
      ),
    });
    expect(fs.readdirSync(dir)).not.toContain("SHA256SUMS.sig");
  });

  it.each([
    [
      "not a key",
      { RELEASE_SIGNING_KEY: "secret-looking text 1234" },
      /holds no OpenPGP private key gpg can import/,
    ],
    [
      "a public key",
      { RELEASE_SIGNING_KEY: "" }, // filled in below
      /holds a public key only: it must be the ASCII-armored private key/,
    ],
    [
      "the wrong passphrase",
      { RELEASE_SIGNING_PASSPHRASE: "wrong passphrase 1234" },
      /signing with RELEASE_SIGNING_KEY \(key [0-9A-F]{40}\) failed: .*is RELEASE_SIGNING_PASSPHRASE its passphrase\?/,
    ],
  ])("a key that cannot sign (%s) is an error naming the variable, not printing it", (what, env, message) => {
    const given =
      what === "a public key"
        ? { RELEASE_SIGNING_KEY: fs.readFileSync(key.publicKeyFile, "utf8") }
        : what === "the wrong passphrase"
          ? { RELEASE_SIGNING_KEY: key.privateKey, ...env }
          : env;
    const dir = release(`bad-key-${what.replace(/\W+/g, "-")}`);
    let error: Error | undefined;
    try {
      signSums(path.join(dir, "SHA256SUMS"), given, key.publicKeyFile);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain("1234");
    expect(error?.message).not.toContain("PRIVATE KEY BLOCK");
    expect(fs.readdirSync(dir)).not.toContain("SHA256SUMS.sig");
  });

  it("the published key is an OpenPGP public key, and no private one, which the docs show with its fingerprint", () => {
    const fingerprint = keyFingerprint(PUBLISHED_KEY);
    expect(fingerprint).toMatch(/^[0-9A-F]{40}$/);
    expect(fs.readFileSync(PUBLISHED_KEY, "utf8")).not.toMatch(/PRIVATE KEY/);
    const docs = fs.readFileSync(path.join(REPO_ROOT, "docs/installation-configuration.md"), "utf8");
    expect(docs).toContain(`\`${fingerprint.replace(/(.{4})(?!$)/g, "$1 ")}\``);
    expect(docs).toContain(`\n\`\`\`text\n${fs.readFileSync(PUBLISHED_KEY, "utf8")}\`\`\`\n`);
  });
});
