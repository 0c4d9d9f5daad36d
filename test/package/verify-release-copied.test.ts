/**
 * scripts/verify-release.sh as docs/installation-configuration.md tells a user to take it: copied out of the
 * repository with `keys/` beside it (issue 42). A release signed with the key of that `keys/` verifies with no
 * RELEASE_KEY; a release served on 127.0.0.1 without SHA256SUMS.sig stops at the signature step saying "this release
 * is not signed", not with curl's 404. A throwaway key stands in for the release key.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { sha256sums } from "../../tools/release/build";
import { signSums } from "../../tools/release/sign";
import { REPO_ROOT, scratchDir } from "./support/offline-project";
import { throwawayKey, type ThrowawayKey } from "./support/throwaway-key";

jest.setTimeout(60_000);

const scratch = scratchDir("verify-release-copied");
afterAll(() => scratch.cleanup());
const TARBALL = "pulumi-resource-rimuhosting-v0.1.0-linux-amd64.tar.gz";
let key: ThrowawayKey;
/** The script, copied into a directory of its own with keys/ beside it. */
let copied: string;
beforeAll(() => {
  key = throwawayKey(path.join(scratch.dir, "key"));
  const tools = path.join(scratch.dir, "tools");
  fs.mkdirSync(path.join(tools, "keys"), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, "scripts/verify-release.sh"), path.join(tools, "verify-release.sh"));
  fs.copyFileSync(key.publicKeyFile, path.join(tools, "keys/release-signing-key.asc"));
  copied = path.join(tools, "verify-release.sh");
});

/** A release directory: a plugin tarball and its SHA256SUMS, signed with the throwaway key if `signed`. */
function release(name: string, signed: boolean): string {
  const dir = path.join(scratch.dir, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, TARBALL), "the plugin");
  fs.writeFileSync(path.join(dir, "SHA256SUMS"), sha256sums(dir));
  if (signed)
    signSums(
      path.join(dir, "SHA256SUMS"),
      { RELEASE_SIGNING_KEY: key.privateKey, RELEASE_SIGNING_PASSPHRASE: key.passphrase },
      key.publicKeyFile,
    );
  return dir;
}

/** Runs the copied script (never with RELEASE_KEY), with a stand-in `pulumi` first on PATH. */
function runCopied(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  const bin = path.join(scratch.dir, "bin");
  fs.mkdirSync(bin, { recursive: true });
  // Stands in for `pulumi plugin install`: says what it was asked.
  fs.writeFileSync(path.join(bin, "pulumi"), '#!/bin/sh\necho "pulumi $*"\n', { mode: 0o755 });
  const { RELEASE_KEY: _ignored, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      copied,
      args,
      { env: { ...inherited, ...env, PATH: `${bin}:${process.env.PATH}`, GNUPGHOME: scratch.dir } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? -1) : 0,
          output: `${stdout}${stderr}`,
        }),
    );
  });
}

test("copied with keys/ beside it, it finds the key there and verifies a signed release", async () => {
  const result = await runCopied(["--dir", release("signed", true)]);
  expect(result.output).toContain(`SHA256SUMS is signed by the release key (${key.fingerprint})`);
  expect(result.code).toBe(0);
});

describe("a release served on 127.0.0.1", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    release("unsigned", false);
    release("served-signed", true);
    // /<release dir>/<file>: each release directory of the scratch directory at its own address.
    server = http.createServer((req, res) => {
      const [dir, file] = (req.url ?? "").split("/").slice(-2);
      const found = path.join(scratch.dir, dir!, file!);
      if (!fs.existsSync(found)) return res.writeHead(404).end("Not Found");
      res.writeHead(200).end(fs.readFileSync(found));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  test("signed: downloaded, verified with the key beside the script, then installed", async () => {
    const result = await runCopied(["0.1.0", "linux-amd64"], { RELEASE_URL: `${base}/served-signed` });
    expect(result.output).toContain(`SHA256SUMS is signed by the release key (${key.fingerprint})`);
    expect(result.output).toMatch(
      new RegExp(`pulumi plugin install resource rimuhosting 0\\.1\\.0 --file \\S+/${TARBALL}`),
    );
    expect(result.code).toBe(0);
  });

  test("without SHA256SUMS.sig: 'this release is not signed' at the signature step, no curl 404, nothing installed", async () => {
    const result = await runCopied(["0.1.0", "linux-amd64"], { RELEASE_URL: `${base}/unsigned` });
    expect(result.output.trim()).toBe(
      `verify-release: ${base}/unsigned/ has no SHA256SUMS.sig: this release is not signed, do not install it`,
    );
    expect(result.code).toBe(1);
  });
});
