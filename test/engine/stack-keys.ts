// The key service of the harness's stacks: a stand-in for the transit engine of HashiCorp Vault (the CLI's
// `--secrets-provider hashivault://<key>`), in this process, on 127.0.0.1. With the file backend's default, the
// passphrase, every `pulumi` command on a stack derives the stack's key from it first: PBKDF2 with 1,000,000 rounds
// of SHA-256, 0.17-0.19 CPU-s of the CLI's 0.25-0.4 in a preview's profile (`pulumi --profiling`), for each of the
// suite's CLI processes. With a key service the CLI asks it once per process to unwrap the stack's data key, which
// encrypts the secrets in config and state as before (AES-256-GCM). Wrapping here is no protection (base64 behind
// Vault's prefix): the stacks are a test's, on its own machine. The recipes' stacks keep the passphrase, as a
// user's do (CliStack's `keys`), and so do the tests of secrets (get-and-secrets, native-secrets).
import * as crypto from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** The key the stacks name (`hashivault://<key>`); the stand-in serves any. */
export const STACK_KEY_PROVIDER = "hashivault://rimu-tests";
const PREFIX = "vault:v1:";

let server: Promise<http.Server> | undefined;
let users = 0;

/** Vault's transit encrypt and decrypt: `{"plaintext": <base64>}` and `{"ciphertext": "vault:v1:..."}`. */
function answer(url: string, body: string): { status: number; json: unknown } {
  const route = /^\/v1\/transit\/(encrypt|decrypt)\/[\w./-]+$/.exec(url);
  let request: { plaintext?: unknown; ciphertext?: unknown };
  try {
    request = JSON.parse(body || "{}") as typeof request;
  } catch {
    return { status: 400, json: { errors: ["the body is not JSON"] } };
  }
  if (route?.[1] === "encrypt" && typeof request.plaintext === "string")
    return { status: 200, json: { data: { ciphertext: `${PREFIX}${request.plaintext}` } } };
  if (
    route?.[1] === "decrypt" &&
    typeof request.ciphertext === "string" &&
    request.ciphertext.startsWith(PREFIX)
  )
    return { status: 200, json: { data: { plaintext: request.ciphertext.slice(PREFIX.length) } } };
  return { status: 400, json: { errors: [`not a transit request this stand-in serves: ${url}`] } };
}

function listen(): Promise<http.Server> {
  const started = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const { status, json } = answer(req.url ?? "", body);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    });
  });
  // Never what keeps a test's process alive.
  started.unref();
  return new Promise((resolve, reject) => {
    started.once("error", reject);
    started.listen(0, "127.0.0.1", () => resolve(started));
  });
}

/**
 * Starts the stand-in (once for every stack of this test file) and returns what a `pulumi` command on a stack
 * using it needs in its environment. Each call is a user: `release()` once per call; the last one closes it.
 */
export async function useStackKeys(): Promise<{ env: Record<string, string>; release(): void }> {
  users += 1;
  const running = await (server ??= listen());
  const { port } = running.address() as AddressInfo;
  let released = false;
  return {
    env: { VAULT_ADDR: `http://127.0.0.1:${port}`, VAULT_TOKEN: "rimu-tests" },
    release() {
      if (released) return;
      released = true;
      users -= 1;
      if (users > 0 || server === undefined) return;
      server = undefined;
      running.close();
    },
  };
}

/**
 * `value` encrypted for the stack whose settings file holds `settings`, as the CLI's `config set --secret` writes
 * it (`v1:<nonce>:<ciphertext>`, AES-256-GCM under the stack's data key): the key service wraps the data key with no
 * secret, so it is read from the file's `encryptedkey`. Saves a `pulumi config set-all` process per secret set.
 */
export function encryptForStack(settings: string, value: string): string {
  const wrapped = /^encryptedkey: (\S+)$/m.exec(settings)?.[1];
  const unwrapped = wrapped === undefined ? "" : Buffer.from(wrapped, "base64").toString("utf8");
  if (!unwrapped.startsWith(PREFIX))
    throw new Error("the stack's settings file holds no data key of the key service (encryptedkey)");
  const key = Buffer.from(unwrapped.slice(PREFIX.length), "base64");
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce);
  const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}
