/**
 * scripts/node-from-nodejs-org.sh, which the release workflow runs so that the plugins embed the Node that Node's
 * releasers signed: against a made-up nodejs.org on 127.0.0.1 (the five archives, laid out as nodejs.org lays them
 * out, and SHASUMS256.txt signed by a throwaway key given as the keyring), it writes each platform's node and
 * LICENSE where tools/release/node-binaries.ts looks; it refuses a changed archive, and checksums signed by a key
 * that is not in the keyring.
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { TARGETS } from "../../tools/release/node-binaries";
import { shell } from "../docs/support/shell";
import { REPO_ROOT, scratchDir } from "./support/offline-project";
import { throwawayKey, type ThrowawayKey } from "./support/throwaway-key";

jest.setTimeout(120_000);

const VERSION = "26.0.0";
const scratch = scratchDir("node-from-nodejs-org");
afterAll(() => scratch.cleanup());

/** Node's name for each platform, and its archive's suffix. */
const NODE_PLATFORMS: Record<string, [string, string]> = {
  "linux-amd64": ["linux-x64", "tar.xz"],
  "linux-arm64": ["linux-arm64", "tar.xz"],
  "darwin-amd64": ["darwin-x64", "tar.gz"],
  "darwin-arm64": ["darwin-arm64", "tar.gz"],
  "windows-amd64": ["win-x64", "zip"],
};

/** A dist/v<version>/ directory as nodejs.org serves it, SHASUMS256.txt signed by `key`. */
function nodeDist(name: string, key: ThrowawayKey): string {
  const dist = path.join(scratch.dir, name, `v${VERSION}`);
  fs.mkdirSync(dist, { recursive: true });
  const sums: string[] = [];
  for (const [node, suffix] of Object.values(NODE_PLATFORMS)) {
    const top = `node-v${VERSION}-${node}`;
    const tree = path.join(scratch.dir, name, "tree", top);
    const exe = node === "win-x64" ? path.join(tree, "node.exe") : path.join(tree, "bin", "node");
    fs.mkdirSync(path.dirname(exe), { recursive: true });
    fs.writeFileSync(exe, `node for ${node}`);
    fs.writeFileSync(path.join(tree, "LICENSE"), "Node's licence");
    const archive = `${top}.${suffix}`;
    const cwd = path.dirname(tree);
    if (suffix === "zip") execFileSync("zip", ["-qr", path.join(dist, archive), top], { cwd });
    else execFileSync("tar", [suffix === "tar.xz" ? "-cJf" : "-czf", path.join(dist, archive), top], { cwd });
    const sum = crypto
      .createHash("sha256")
      .update(fs.readFileSync(path.join(dist, archive)))
      .digest("hex");
    sums.push(`${sum}  ${archive}\n`);
  }
  fs.writeFileSync(path.join(dist, "SHASUMS256.txt"), sums.join(""));
  const home = path.join(path.dirname(key.publicKeyFile), "gnupg");
  execFileSync("gpg", [
    ...["--homedir", home, "--batch", "--pinentry-mode", "loopback", "--passphrase", key.passphrase],
    ...[
      "--output",
      path.join(dist, "SHASUMS256.txt.sig"),
      "--detach-sign",
      path.join(dist, "SHASUMS256.txt"),
    ],
  ]);
  execFileSync("gpgconf", ["--homedir", home, "--kill", "gpg-agent"]);
  return path.dirname(dist);
}

/** Serves `root` on 127.0.0.1; resolves to its URL. */
async function serve(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const file = path.join(root, path.normalize(decodeURIComponent(req.url ?? "/")));
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile())
      return res.writeHead(404).end();
    res.writeHead(200).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let key: ThrowawayKey;
let keyring: string;
beforeAll(() => {
  key = throwawayKey(path.join(scratch.dir, "node-releaser"), "a Node.js releaser");
  keyring = path.join(scratch.dir, "node-releaser", "gnupg", "pubring.kbx");
});

async function run(root: string, cache: string) {
  const server = await serve(root);
  try {
    return await shell(`scripts/node-from-nodejs-org.sh ${VERSION} '${cache}'`, {
      cwd: REPO_ROOT,
      env: { NODE_DIST_URL: server.url, NODE_KEYRING: keyring },
    });
  } finally {
    await server.close();
  }
}

describe("scripts/node-from-nodejs-org.sh", () => {
  it("writes each platform's node and LICENSE where the release build looks, after checking them", async () => {
    const cache = path.join(scratch.dir, "cache-good");
    const result = await run(nodeDist("good", key), cache);
    expect(result.output).toContain(`SHASUMS256.txt of v${VERSION} is signed by a Node.js release key`);
    expect(result.code).toBe(0);
    for (const t of TARGETS) {
      const [node] = NODE_PLATFORMS[t.platform]!;
      const dir = path.join(cache, `node-${t.platform}-${VERSION}`);
      const exe = path.join(dir, t.os === "windows" ? "node.exe" : "node");
      expect(fs.readFileSync(exe, "utf8")).toBe(`node for ${node}`);
      expect(fs.readFileSync(path.join(dir, "LICENSE"), "utf8")).toBe("Node's licence");
    }
  });

  it("refuses an archive that is not what the signed SHASUMS256.txt says", async () => {
    const root = nodeDist("tampered", key);
    fs.appendFileSync(path.join(root, `v${VERSION}`, `node-v${VERSION}-darwin-arm64.tar.gz`), "tampered");
    const cache = path.join(scratch.dir, "cache-tampered");
    const result = await run(root, cache);
    expect(result.output).toContain(
      `node-v${VERSION}-darwin-arm64.tar.gz is not what the signed SHASUMS256.txt says`,
    );
    expect(result.code).toBe(1);
    expect(fs.existsSync(path.join(cache, `node-darwin-arm64-${VERSION}`, "node"))).toBe(false);
  });

  it("refuses checksums signed by a key that is not Node's", async () => {
    const stranger = throwawayKey(path.join(scratch.dir, "stranger"), "not a Node.js releaser");
    const cache = path.join(scratch.dir, "cache-stranger");
    const result = await run(nodeDist("stranger-signed", stranger), cache);
    expect(result.output).toContain(`SHASUMS256.txt of ${VERSION} is not signed by a Node.js release key`);
    expect(result.code).toBe(1);
    expect(fs.existsSync(cache)).toBe(false);
  });
});
