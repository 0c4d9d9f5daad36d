/**
 * A release signing key made for one test run and thrown away: an Ed25519 OpenPGP key with a passphrase, made in
 * a GnuPG home of its own (never the machine's), as the release workflow's secrets would give one.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface ThrowawayKey {
  /** The ASCII-armored private key (what RELEASE_SIGNING_KEY holds). */
  privateKey: string;
  passphrase: string;
  /** The ASCII-armored public key, written to a file (what RELEASE_KEY names, or keys/release-signing-key.asc). */
  publicKeyFile: string;
  fingerprint: string;
}

/** Makes a key in `dir` (a scratch directory): its GnuPG home is `<dir>/gnupg`. */
export function throwawayKey(dir: string, name = "release test"): ThrowawayKey {
  const home = path.join(dir, "gnupg");
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  // The agent protects the secret key by hashing the passphrase a count of times it calibrates to its machine; a
  // key thrown away gets a small fixed count instead. Making one took the agent 3 s of CPU, and about none with it
  // (gpg-agent's TIME in ps after `--quick-gen-key`).
  fs.writeFileSync(path.join(home, "gpg-agent.conf"), "s2k-count 65536\n");
  const passphrase = "throwaway passphrase";
  const gpg = (...args: string[]) =>
    execFileSync(
      "gpg",
      ["--homedir", home, "--batch", "--pinentry-mode", "loopback", "--passphrase", passphrase, ...args],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
  gpg("--quick-gen-key", `${name} <release-test@example.invalid>`, "ed25519", "sign", "never");
  const fingerprint = gpg("--with-colons", "--list-secret-keys")
    .split("\n")
    .find((line) => line.startsWith("fpr:"))!
    .split(":")[9]!;
  const publicKeyFile = path.join(dir, `${fingerprint}.asc`);
  fs.writeFileSync(publicKeyFile, gpg("--armor", "--export", fingerprint));
  const privateKey = gpg("--armor", "--export-secret-keys", fingerprint);
  execFileSync("gpgconf", ["--homedir", home, "--kill", "gpg-agent"], { stdio: "ignore" });
  return { privateKey, passphrase, publicKeyFile, fingerprint };
}
