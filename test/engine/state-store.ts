// The stack's state (the harness's checkpoint) in one JSON file, written atomically (temp file + rename).
// Secret values never reach the file in plaintext: each secret envelope is stored as
// {SIG_KEY: SECRET_SIG, ciphertext} encrypted with AES-256-GCM under a key derived from a passphrase, which is the
// shape the Pulumi passphrase secrets provider writes. The passphrase defaults to "" (like PULUMI_CONFIG_PASSPHRASE="").
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as z from "zod";
import { isSecret, mapSecrets, SECRET_SIG, SIG_KEY } from "./property-values";

export const ResourceState = z.object({
  urn: z.string(),
  type: z.string(),
  custom: z.boolean(),
  /** Empty for component resources (and the Stack). */
  id: z.string().default(""),
  parent: z.string().default(""),
  /** Inputs after Check, with secret envelopes. */
  inputs: z.record(z.string(), z.unknown()).default({}),
  /** Outputs from the provider, with secret envelopes. */
  outputs: z.record(z.string(), z.unknown()).default({}),
  /** URNs this resource depends on (dependsOn, property dependencies and parent): deleted after it. */
  dependencies: z.array(z.string()).default([]),
  /** Set when create/update reported ErrorResourceInitFailed: the next update is forced. */
  initErrors: z.array(z.string()).default([]),
  additionalSecretOutputs: z.array(z.string()).default([]),
  /** The old half of a create-before-delete replacement, still to be deleted. */
  pendingDelete: z.boolean().optional(),
});
export type ResourceState = z.infer<typeof ResourceState>;

export const StackState = z.object({
  version: z.literal(1),
  project: z.string(),
  stack: z.string(),
  /** Salt for the passphrase-derived key that encrypts secrets. */
  encryptionSalt: z.string(),
  /** In registration order, so dependencies come before dependents. */
  resources: z.array(ResourceState),
});
export type StackState = z.infer<typeof StackState>;

const CIPHER = "aes-256-gcm";

export interface StateStore {
  readonly file: string;
  load(): StackState;
  save(state: StackState): void;
}

export function createStateStore(
  file: string,
  ids: { project: string; stack: string },
  passphrase = "",
): StateStore {
  // scrypt is deliberately slow and the state is saved after every step: derive the key once per salt.
  const keys = new Map<string, Buffer>();
  const keyFor = (salt: string): Buffer => {
    let key = keys.get(salt);
    if (!key) keys.set(salt, (key = crypto.scryptSync(passphrase, Buffer.from(salt, "base64"), 32)));
    return key;
  };
  const encrypt = (key: Buffer, value: unknown): string => {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv(CIPHER, key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
  };
  const decrypt = (key: Buffer, text: string): unknown => {
    const raw = Buffer.from(text.replace(/^v1:/, ""), "base64");
    const decipher = crypto.createDecipheriv(CIPHER, key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    return JSON.parse(plain);
  };
  const isStoredSecret = (v: unknown): v is { ciphertext: string } =>
    typeof v === "object" &&
    v !== null &&
    (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG &&
    "ciphertext" in v;

  return {
    file,
    load() {
      if (!fs.existsSync(file)) {
        return {
          version: 1,
          ...ids,
          encryptionSalt: crypto.randomBytes(16).toString("base64"),
          resources: [],
        };
      }
      const parsed = StackState.parse(JSON.parse(fs.readFileSync(file, "utf8")));
      const key = keyFor(parsed.encryptionSalt);
      const open = (v: unknown): unknown =>
        mapSecrets(
          v,
          (s) => ({ [SIG_KEY]: SECRET_SIG, value: decrypt(key, (s as { ciphertext: string }).ciphertext) }),
          isStoredSecret,
        );
      return {
        ...parsed,
        resources: parsed.resources.map((r) => ({
          ...r,
          inputs: open(r.inputs) as Record<string, unknown>,
          outputs: open(r.outputs) as Record<string, unknown>,
        })),
      };
    },
    save(state) {
      const key = keyFor(state.encryptionSalt);
      const seal = (v: unknown): unknown =>
        mapSecrets(v, (s) => ({
          [SIG_KEY]: SECRET_SIG,
          ciphertext: encrypt(key, isSecret(s) ? s.value : s),
        }));
      const sealed = {
        ...state,
        resources: state.resources.map((r) => ({ ...r, inputs: seal(r.inputs), outputs: seal(r.outputs) })),
      };
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, `${JSON.stringify(sealed, null, 2)}\n`, { mode: 0o600 });
      fs.renameSync(tmp, file);
    },
  };
}
