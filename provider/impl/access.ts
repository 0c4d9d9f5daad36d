/**
 * Access inputs: SSH public keys installed for root at install time, and the reverse DNS (PTR) name of
 * the primary address. Validation (check) and the file the keys become (create, reinstall).
 */

import { ROOT_AUTHORIZED_KEYS_PATH } from "../../contract/index.js";

/**
 * Where sshKeys go. RimuHosting's own tools install an SSH key the same way: a file_injection_data
 * entry for this path in the new-VPS (or reinstall) request (docs/rimuhosting-api.md#r4).
 */
export const AUTHORIZED_KEYS_PATH = ROOT_AUTHORIZED_KEYS_PATH;

/** OpenSSH public key types accepted in sshKeys. */
const SSH_KEY_TYPES = [
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
] as const;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Why `key` is not one OpenSSH public key (`<type> <base64 body> [comment]`), or undefined. The body is
 * decoded: it starts with the key type again (a length-prefixed string), which catches truncated or
 * mixed-up keys in preview rather than on a server nobody can log into.
 */
export function sshKeyProblem(key: string): string | undefined {
  if (/-----BEGIN/.test(key))
    return "is a private key; give the public key instead (the .pub file, e.g. ~/.ssh/id_ed25519.pub)";
  if (/[\r\n]/.test(key.trim()))
    return "holds more than one line; give one public key per entry (split authorized_keys by line)";
  const [type, body, ...comment] = key.trim().split(/\s+/);
  if (!type || !(SSH_KEY_TYPES as readonly string[]).includes(type))
    return `must start with a key type (${SSH_KEY_TYPES.slice(0, 3).join(", ")}, …), e.g. "ssh-ed25519 AAAAC3Nza… me@laptop"`;
  if (!body || !BASE64.test(body) || body.length % 4 !== 0)
    return `must have the base64 key body after "${type}", e.g. "${type} AAAA… me@laptop"`;
  const bytes = Buffer.from(body, "base64");
  const length = bytes.length >= 4 ? bytes.readUInt32BE(0) : -1;
  const embedded = length > 0 && length <= 64 ? bytes.subarray(4, 4 + length).toString("latin1") : "";
  if (embedded !== type)
    return `is not a valid ${type} key: its body does not encode a ${type} key (truncated or pasted from another key?)`;
  if (comment.some((word) => word.includes("\u0000"))) return "must not contain NUL characters";
  return undefined;
}

/** The authorized_keys file for these keys: one per line, each trimmed, with a final newline. */
export function authorizedKeysFile(keys: readonly string[]): string {
  return keys.map((key) => key.trim()).join("\n") + "\n";
}

/**
 * Why `name` is not a host name for a PTR record, or undefined. "" is allowed: it removes the record.
 * A trailing dot (absolute name) is accepted. Labels: 1–63 letters, digits or hyphens, not starting or
 * ending with a hyphen; at least two labels; at most 253 characters.
 */
export function reverseDnsProblem(name: string): string | undefined {
  if (name === "") return undefined;
  const plain = name.endsWith(".") ? name.slice(0, -1) : name;
  if (plain.length > 253) return `must be at most 253 characters (it has ${plain.length})`;
  const labels = plain.split(".");
  if (labels.length < 2) return `must be a fully qualified host name such as web1.example.com, not "${name}"`;
  for (const label of labels) {
    if (label === "") return `must not have an empty label (".." or a leading dot) in "${name}"`;
    if (label.length > 63) return `has a label longer than 63 characters ("${label.slice(0, 20)}…")`;
    if (!/^[A-Za-z0-9-]+$/.test(label))
      return `may use only letters, digits and hyphens in each label ("${label}" is not allowed)`;
    if (label.startsWith("-") || label.endsWith("-"))
      return `must not start or end a label with a hyphen ("${label}")`;
  }
  if (/^\d+$/.test(labels[labels.length - 1]!)) return `must end in a name, not a number ("${name}")`;
  return undefined;
}
