/** Well-formed OpenSSH public keys for tests: bodies laid out as sshd reads them (type, then the key's fields). */
function blob(...fields: Buffer[]): string {
  return Buffer.concat(
    fields.flatMap((field) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(field.length);
      return [length, field];
    }),
  ).toString("base64");
}

const text = (value: string) => Buffer.from(value, "latin1");

/** An ed25519 key body: the type and 32 bytes of key. */
function ed25519(fill: number): string {
  return blob(text("ssh-ed25519"), Buffer.alloc(32, fill));
}

/** An RSA key body: the type, e = 65537 and a 2048-bit modulus (an mpint: a leading zero byte for the high bit). */
function rsa(fill: number): string {
  const modulus = Buffer.concat([Buffer.from([0]), Buffer.alloc(256, fill | 0x80)]);
  return blob(text("ssh-rsa"), Buffer.from([0x01, 0x00, 0x01]), modulus);
}

export const ED25519_KEY = `ssh-ed25519 ${ed25519(7)} alice@laptop`;
export const ED25519_KEY_2 = `ssh-ed25519 ${ed25519(9)} bob@desk`;
export const RSA_KEY = `ssh-rsa ${rsa(3)}`;
/** An ssh-rsa key whose body is really an ed25519 key (a paste mix-up). */
export const MISLABELLED_KEY = `ssh-rsa ${ed25519(7)} mixed@up`;
/** An ed25519 key cut short by a few characters (a truncated paste): its body still starts with the type. */
export const TRUNCATED_KEY = `ssh-ed25519 ${ed25519(5).slice(0, 60)} cut@short`;
