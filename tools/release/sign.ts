/**
 * The release's signature: a detached OpenPGP signature over SHA256SUMS, `SHA256SUMS.sig` (binary, as Terraform
 * providers publish theirs), made with GnuPG. SHA256SUMS names the SHA-256 of every other file of the release, so
 * the one signature vouches for all of them; users check it with the public key published in the repository
 * (keys/release-signing-key.asc, also shown on docs/installation-configuration.md) and scripts/verify-release.sh.
 *
 * The private key comes from the environment, as a release workflow passes secrets: RELEASE_SIGNING_KEY holds it
 * ASCII-armored, RELEASE_SIGNING_PASSPHRASE its passphrase (if it has one). It is imported into a GnuPG home made
 * for the signing and removed after, so no keyring of the machine is read or changed. A key whose fingerprint is not
 * the published key's signs nothing: users would reject the release, or worse, trust a key no maintainer holds.
 *
 * Run as `node dist/tools/release/sign.js <SHA256SUMS>` it signs a built release: the release workflow's signing job,
 * the only one with the key in its environment (docs/releasing.md).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../provider/native/schema/plugin-dir.js";

export const SIGNING_KEY_ENV = "RELEASE_SIGNING_KEY";
export const SIGNING_PASSPHRASE_ENV = "RELEASE_SIGNING_PASSPHRASE";
/** The public key users verify with, in the repository. */
export const PUBLISHED_KEY = path.join(REPO_ROOT, "keys/release-signing-key.asc");
export const SIGNATURE_SUFFIX = ".sig";

export type SigningResult =
  | { signed: false; message: string }
  | { signed: true; signature: string; fingerprint: string; message: string };

/** A file as a message names it: relative to the checkout when it is in it. */
const shown = (file: string): string =>
  file.startsWith(REPO_ROOT + path.sep) ? path.relative(REPO_ROOT, file) : file;

/** gpg in `home`, batch mode; throws with gpg's last lines when it fails. */
function gpg(home: string, args: string[], input = ""): string {
  const result = spawnSync("gpg", ["--homedir", home, "--batch", "--no-tty", ...args], {
    input,
    encoding: "utf8",
  });
  if (result.error) throw new Error(`gpg could not be run (${result.error.message}): install GnuPG`);
  if (result.status !== 0) {
    const said = result.stderr.trim().split("\n").slice(-3).join("; ");
    throw new Error(said || `gpg exited with ${result.status}`);
  }
  return result.stdout;
}

/** The fingerprints of the keys of `home` (secret keys if `secret`), in order. */
function fingerprints(home: string, secret: boolean): string[] {
  const listed = gpg(home, ["--with-colons", secret ? "--list-secret-keys" : "--list-keys"]);
  const found: string[] = [];
  let primary = false;
  for (const line of listed.split("\n")) {
    const fields = line.split(":");
    if (fields[0] === "sec" || fields[0] === "pub") primary = true;
    else if (fields[0] === "ssb" || fields[0] === "sub") primary = false;
    else if (fields[0] === "fpr" && primary) found.push(fields[9]!);
  }
  return found;
}

/** The primary key's fingerprint of an armored public key file. */
export function keyFingerprint(keyFile: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-gpg-"));
  try {
    gpg(home, ["--quiet", "--import", keyFile]);
    const [fingerprint] = fingerprints(home, false);
    if (!fingerprint) throw new Error(`${keyFile} holds no OpenPGP public key`);
    return fingerprint;
  } finally {
    stopAgent(home);
  }
}

function stopAgent(home: string): void {
  spawnSync("gpgconf", ["--homedir", home, "--kill", "gpg-agent"], { stdio: "ignore" });
  fs.rmSync(home, { recursive: true, force: true });
}

/**
 * Signs `sumsFile` into `<sumsFile>.sig` with the key of RELEASE_SIGNING_KEY, or says why it did not: no key given
 * is not an error (a local build is unsigned), a key that cannot sign is.
 */
export function signSums(
  sumsFile: string,
  env: NodeJS.ProcessEnv = process.env,
  publishedKey: string = PUBLISHED_KEY,
): SigningResult {
  const armored = env[SIGNING_KEY_ENV];
  const signature = `${sumsFile}${SIGNATURE_SUFFIX}`;
  fs.rmSync(signature, { force: true });
  if (!armored?.trim()) {
    return {
      signed: false,
      message: `NOT SIGNED: ${SIGNING_KEY_ENV} is not set, so ${path.basename(sumsFile)} has no ${path.basename(signature)} (a release must be signed: set ${SIGNING_KEY_ENV} to the ASCII-armored private key, and ${SIGNING_PASSPHRASE_ENV} to its passphrase)`,
    };
  }
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-gpg-"));
  fs.chmodSync(home, 0o700);
  try {
    try {
      gpg(home, ["--quiet", "--import"], armored);
    } catch (e) {
      throw new Error(
        `${SIGNING_KEY_ENV} holds no OpenPGP private key gpg can import (${(e as Error).message})`,
        {
          cause: e,
        },
      );
    }
    const [fingerprint, ...others] = fingerprints(home, true);
    if (!fingerprint)
      throw new Error(`${SIGNING_KEY_ENV} holds a public key only: it must be the ASCII-armored private key`);
    if (others.length > 0)
      throw new Error(
        `${SIGNING_KEY_ENV} holds ${others.length + 1} private keys: give it the one release key`,
      );
    const released = keyFingerprint(publishedKey);
    if (fingerprint !== released)
      throw new Error(
        `${SIGNING_KEY_ENV} holds key ${fingerprint}, not the release key ${released} that ` +
          `${shown(publishedKey)} publishes: nothing was signed. Give it the release key, or ` +
          `replace the published key first (docs/releasing.md, "Rotate the key")`,
      );
    try {
      gpg(
        home,
        [
          ...["--pinentry-mode", "loopback", "--passphrase-fd", "0"],
          ...["--local-user", fingerprint, "--output", signature, "--detach-sign", sumsFile],
        ],
        env[SIGNING_PASSPHRASE_ENV] ?? "",
      );
    } catch (e) {
      throw new Error(
        `signing with ${SIGNING_KEY_ENV} (key ${fingerprint}) failed: ${(e as Error).message} (is ${SIGNING_PASSPHRASE_ENV} its passphrase?)`,
        { cause: e },
      );
    }
    // The signature must verify with the key that made it (a key made only for encryption signs nothing useful).
    gpg(home, ["--quiet", "--verify", signature, sumsFile]);
    return {
      signed: true,
      signature,
      fingerprint,
      message: `signed by ${fingerprint}, the published key (${shown(publishedKey)})`,
    };
  } finally {
    stopAgent(home);
  }
}

if (require.main === module) {
  const [sums] = process.argv.slice(2);
  try {
    if (!sums) throw new Error("usage: node dist/tools/release/sign.js <release dir>/SHA256SUMS");
    const result = signSums(path.resolve(sums));
    console.log(`${path.basename(sums)}: ${result.message}`);
    if (!result.signed) process.exitCode = 1;
  } catch (error) {
    console.error(`sign: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
