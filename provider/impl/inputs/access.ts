/**
 * Access inputs: SSH public keys installed for root at install time, and the reverse DNS (PTR) name of
 * the primary address. Validation (check) and the file the keys become (create, reinstall).
 */

import { ROOT_AUTHORIZED_KEYS_PATH } from "../../../contract/index.js";

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
 * parsed the way sshd reads it (RFC 4253 §6.6, RFC 5656 §3.1, OpenSSH's PROTOCOL.u2f): length-prefixed
 * fields whose first one repeats the key type, the key material of that type at its exact size, and
 * nothing after it. A truncated, padded or mixed-up key is refused in preview rather than installed on a
 * server nobody can then log into.
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
  const problem = keyBodyProblem(type as SshKeyType, Buffer.from(body, "base64"));
  if (problem) return `is not a valid ${type} key: ${problem} (truncated, or pasted from another key?)`;
  if (comment.some((word) => word.includes("\u0000"))) return "must not contain NUL characters";
  return undefined;
}

type SshKeyType = (typeof SSH_KEY_TYPES)[number];

/** The size in bytes of an uncompressed point (0x04 ‖ X ‖ Y) on each NIST curve OpenSSH supports. */
const EC_POINT_BYTES = { nistp256: 65, nistp384: 97, nistp521: 133 } as const;

/** Reads the length-prefixed fields of a key blob; undefined when a length runs past the end. */
function fieldsOf(blob: Buffer): Buffer[] | undefined {
  const fields: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(at);
    if (at + 4 + length > blob.length) return undefined;
    fields.push(blob.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/** Why the decoded body is not a key of `type`, or undefined. */
function keyBodyProblem(type: SshKeyType, blob: Buffer): string | undefined {
  const fields = fieldsOf(blob);
  if (!fields || fields.length === 0) return "its body is cut short";
  if (fields[0]!.toString("latin1") !== type) return `its body does not encode a ${type} key`;
  const [, ...material] = fields;
  const count = (n: number) =>
    material.length === n ? undefined : `its body has ${material.length} fields after the type, not ${n}`;
  switch (type) {
    case "ssh-ed25519":
      return (
        count(1) ??
        (material[0]!.length === 32 ? undefined : `its key is ${material[0]!.length} bytes, not 32`)
      );
    case "sk-ssh-ed25519@openssh.com":
      return (
        count(2) ??
        (material[0]!.length === 32 ? undefined : `its key is ${material[0]!.length} bytes, not 32`)
      );
    case "ssh-rsa": {
      const problem = count(2);
      if (problem) return problem;
      const bits = mpintBits(material[1]!);
      if (mpintBits(material[0]!) < 2) return "its public exponent is missing";
      return bits >= 1024
        ? undefined
        : `its modulus has ${bits} bits; RSA keys need at least 1024 (2048 or more today)`;
    }
    case "ecdsa-sha2-nistp256":
    case "ecdsa-sha2-nistp384":
    case "ecdsa-sha2-nistp521":
    case "sk-ecdsa-sha2-nistp256@openssh.com": {
      const problem = count(type.startsWith("sk-") ? 3 : 2);
      if (problem) return problem;
      const curve = material[0]!.toString("latin1");
      if (!type.includes(curve) || !(curve in EC_POINT_BYTES))
        return `its curve is ${JSON.stringify(curve)}, not the one its type names`;
      const point = material[1]!;
      const size = EC_POINT_BYTES[curve as keyof typeof EC_POINT_BYTES];
      return point.length === size && point[0] === 4
        ? undefined
        : `its point is ${point.length} bytes, not ${size}`;
    }
  }
}

/** The bit length of an SSH mpint (big-endian, two's complement, a leading zero byte for a set high bit). */
function mpintBits(value: Buffer): number {
  let at = 0;
  while (at < value.length && value[at] === 0) at++;
  if (at === value.length) return 0;
  return (value.length - at - 1) * 8 + (32 - Math.clz32(value[at]!));
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
