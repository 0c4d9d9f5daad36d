/** Well-formed OpenSSH public keys for tests (the body encodes its type, as a real key's does). */
function body(type: string, keyBytes: number, fill: number): string {
  const typeBytes = Buffer.from(type, "latin1");
  const parts = [Buffer.alloc(4), typeBytes, Buffer.alloc(4), Buffer.alloc(keyBytes, fill)];
  parts[0]!.writeUInt32BE(typeBytes.length);
  parts[2]!.writeUInt32BE(keyBytes);
  return Buffer.concat(parts).toString("base64");
}

export const ED25519_KEY = `ssh-ed25519 ${body("ssh-ed25519", 32, 7)} alice@laptop`;
export const ED25519_KEY_2 = `ssh-ed25519 ${body("ssh-ed25519", 32, 9)} bob@desk`;
export const RSA_KEY = `ssh-rsa ${body("ssh-rsa", 259, 3)}`;
/** An ssh-rsa key whose body is really an ed25519 key (a paste mix-up). */
export const MISLABELLED_KEY = `ssh-rsa ${body("ssh-ed25519", 32, 7)} mixed@up`;
