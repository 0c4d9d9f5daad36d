// The release's artifacts as `npm run release:build` writes them into dist/release (tools/release/build.ts): the
// names the CLI's plugin download asks for, SHA256SUMS over every file, what each plugin tarball holds and the
// format of each executable; the linux-arm64 plugin's first gRPC call under qemu-user; and that `node` is hidden where
// the tests run the linux-amd64 plugin through the real CLI as on a machine without it (docs/releasing.md).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as tls from "node:tls";
import * as pulumi from "@pulumi/pulumi";
import * as os from "node:os";
import * as path from "node:path";
import { packPlugin } from "../../provider/native/pack";
import { checkFormat, commandHere, firstCall, seaBlobHolds } from "../../tools/release/check-executable";
import { TARGETS } from "../../tools/release/node-binaries";
import { describeNative } from "./native-programs";
import { DEMO_API_KEY, startEmulator } from "../../emulator/index";
import { connectProvider } from "../helpers/provider-client";
import { firstStdoutLine } from "../native/plugin-client";
import {
  ensureRelease,
  nodeHiddenBin,
  RELEASE_DIR,
  releaseSkipReason,
  tarballOf,
  target,
  unpack,
  version,
} from "./release-support";

jest.setTimeout(300_000);
const SIG = pulumi.runtime.specialSigKey;
const SECRET = pulumi.runtime.specialSecretSig;

/** A throwaway self-signed certificate for 127.0.0.1 in `dir` (its own CA). */
function selfSignedFor127(dir: string): { key: string; cert: string } {
  const files = { key: path.join(dir, "key.pem"), cert: path.join(dir, "cert.pem") };
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"]
      .concat(["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
      .concat(["-keyout", files.key, "-out", files.cert]),
    { stdio: "ignore" },
  );
  return files;
}
/** A cold machine fetches five node binaries and may build rcodesign first (.ci/run builds it beforehand). */
const BUILD_TIMEOUT = 1_800_000;

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
/** Each platform's executable, unpacked once for the file (a tarball takes about a second of CPU to unpack). */
const unpackedByPlatform = new Map<string, string>();
const unpacked = (platform: string): string => {
  if (!unpackedByPlatform.has(platform)) {
    const dir = unpack(target(platform));
    scratch.push(dir);
    unpackedByPlatform.set(platform, path.join(dir, target(platform).executable));
  }
  return unpackedByPlatform.get(platform)!;
};

describe("the release's artifacts (npm run release:build)", () => {
  beforeAll(() => ensureRelease(), BUILD_TIMEOUT);

  it("a plugin tarball per platform under the names the CLI downloads, the npm package, SHA256SUMS over every file", () => {
    const files = fs.readdirSync(RELEASE_DIR).sort();
    for (const t of TARGETS) expect(files).toContain(path.basename(tarballOf(t)));
    expect(files).toContain(`pulumi-rimuhosting-${version}.tgz`);
    const listed = fs
      .readFileSync(path.join(RELEASE_DIR, "SHA256SUMS"), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => /^[0-9a-f]{64} {2}(\S+)$/.exec(line)?.[1] ?? `malformed line: ${line}`);
    expect(listed.sort()).toEqual(files.filter((f) => f !== "SHA256SUMS"));
    // coreutils recomputes every hash; it exits non-zero on any mismatch or missing file
    execFileSync("sha256sum", ["--check", "--strict", "--quiet", "SHA256SUMS"], { cwd: RELEASE_DIR });
  });

  it("each tarball: the executable and the licences as plain files; the executable is its platform's", () => {
    for (const t of TARGETS) {
      const entries = execFileSync("tar", ["-tvzf", tarballOf(t)], { encoding: "utf8" })
        .trim()
        .split("\n");
      expect(entries.every((line) => line.startsWith("-"))).toBe(true); // no links, no directories
      expect(entries.map((line) => line.split(/\s+/).pop()).sort()).toEqual(
        ["LICENSE", "NODE-LICENSE", "THIRD-PARTY-LICENSES.txt", t.executable].sort(),
      );
      expect(entries.find((line) => line.endsWith(` ${t.executable}`))).toMatch(/^-rwx/);
      const format = checkFormat(t, unpacked(t.platform));
      expect(format).toMatch(
        t.os === "darwin" ? /ad hoc signature matching all \d+ pages/ : /application embedded/,
      );
    }
  });

  it("each tarball's THIRD-PARTY-LICENSES.txt holds the licence of every package the executable bundles, once", () => {
    for (const t of TARGETS) {
      const text = execFileSync("tar", ["-xzOf", tarballOf(t), "THIRD-PARTY-LICENSES.txt"], {
        encoding: "utf8",
      });
      // A package's heading line: `name@version (SPDX licence)`, then its licence files' text.
      const headings = text.split("\n").filter((line) => /^@?[\w.-]+(\/[\w.-]+)?@\d\S* \(/.test(line));
      const names = headings.map((line) => line.replace(/@\d.*$/, ""));
      // The gRPC server, its protobuf, @pulumi/pulumi (a part), zod, and got (inlined from dist/vendor/got.cjs).
      expect(names).toEqual(
        expect.arrayContaining(["@grpc/grpc-js", "google-protobuf", "@pulumi/pulumi", "zod", "got"]),
      );
      expect(headings.length).toBe(new Set(headings).size);
      expect(text).toMatch(/Permission is hereby granted, free of charge/); // the MIT licence's text itself
    }
  });

  it("the format check refuses another platform's executable, and a macOS one changed after signing", () => {
    const mac = unpacked("darwin-arm64");
    expect(() => checkFormat(target("darwin-amd64"), mac)).toThrow(/a Mach-O file for another CPU/);
    expect(() => checkFormat(target("windows-amd64"), unpacked("linux-amd64"))).toThrow(/not a PE file/);
    const bytes = fs.readFileSync(mac);
    bytes[0x100000] = bytes[0x100000]! ^ 0xff;
    const changed = `${mac}.changed`;
    fs.writeFileSync(changed, bytes);
    expect(() => checkFormat(target("darwin-arm64"), changed)).toThrow(/does not match page 256/);
  });

  it("linux-amd64 starts from a startup snapshot; linux-arm64 carries V8's code cache, made by its own node; both start without rejecting them; the others neither", () => {
    for (const t of TARGETS)
      expect([t.platform, seaBlobHolds(unpacked(t.platform))]).toEqual([
        t.platform,
        { codeCache: t.platform === "linux-arm64", snapshot: t.platform === "linux-amd64" },
      ]);
    for (const platform of ["linux-amd64", "linux-arm64"]) {
      // An unknown command word: the plugin loads its bundle (its top level from the cache, if V8 takes it), says
      // so, exits.
      const [command, ...args] = commandHere(target(platform), unpacked(platform))!;
      // Node says "Code cache data rejected." when V8 refuses the cache (made by another V8, or with other flags).
      // It is a warning: NODE_NO_WARNINGS (or --no-warnings in NODE_OPTIONS) would hide it, so neither is passed.
      const { NODE_NO_WARNINGS: _noWarnings, NODE_OPTIONS: _options, ...env } = process.env;
      const run = spawnSync(command!, [...args, "no-such-command"], {
        encoding: "utf8",
        timeout: 600_000,
        env,
      });
      expect(run.stderr).toContain("unknown command 'no-such-command'");
      expect(run.stderr).not.toMatch(/code cache|snapshot|warning/i);
    }
  });

  it("the linux-amd64 plugin from its snapshot: gRPC loaded while it was made, the network modules at start", async () => {
    const exe = unpacked("linux-amd64");
    // The snapshot holds the server: its first call is answered, and its commands load their parts (the emulator,
    // with http, which the snapshot could not hold) from the executable.
    expect((await firstCall([exe])).version).toBe(version);
    const emulator = spawnSync(exe, ["emulator", "--port", "0", "--time-scale", "0"], {
      encoding: "utf8",
      timeout: 5_000,
      killSignal: "SIGTERM",
    });
    expect(emulator.stdout).toMatch(/RimuHosting emulator listening on http:\/\/127\.0\.0\.1:\d+\/r/);
  });

  // The snapshot defers Node's loading of its CA certificates from the load of tls to the first TLS connection
  // (tools/release/snapshot-entry.ts): the plugin must trust what Node trusts all the same, its own store (the
  // bundled CAs) and those NODE_EXTRA_CA_CERTS adds, and nothing else.
  it("the linux-amd64 plugin calls an HTTPS API whose CA NODE_EXTRA_CA_CERTS names, and refuses it without", async () => {
    const emulator = await startEmulator({ seed: 5 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "release-tls-"));
    scratch.push(dir);
    const tlsFiles = selfSignedFor127(dir);
    // TLS in front of the emulator: the plugin's client speaks HTTPS to it, the emulator plain HTTP behind.
    const front = tls.createServer(
      { key: fs.readFileSync(tlsFiles.key), cert: fs.readFileSync(tlsFiles.cert) },
      (socket) => socket.pipe(net.connect(Number(new URL(emulator.baseUrl).port), "127.0.0.1")).pipe(socket),
    );
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    const baseUrl = emulator.baseUrl.replace(
      /^http:\/\/127\.0\.0\.1:\d+/,
      `https://127.0.0.1:${(front.address() as net.AddressInfo).port}`,
    );
    const pricingPlans = async (env: NodeJS.ProcessEnv) => {
      const plugin = spawn(unpacked("linux-amd64"), [], { stdio: ["ignore", "pipe", "pipe"], env });
      try {
        const client = connectProvider(Number(await firstStdoutLine(plugin)));
        try {
          await client.configure({ apiKey: { [SIG]: SECRET, value: DEMO_API_KEY }, baseUrl });
          return await client.invoke("rimuhosting:index:getPricingPlans", { dcLocation: "DCDALLAS" });
        } finally {
          client.close();
        }
      } finally {
        plugin.kill("SIGTERM");
      }
    };
    const { NODE_EXTRA_CA_CERTS: _extra, SSL_CERT_FILE: _file, SSL_CERT_DIR: _dir, ...env } = process.env;
    const userEnv = { ...env, RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "" };
    try {
      const plans = await pricingPlans({ ...userEnv, NODE_EXTRA_CA_CERTS: tlsFiles.cert });
      expect((plans.plans as unknown[]).length).toBeGreaterThan(0);
      await expect(pricingPlans(userEnv)).rejects.toThrow(/self[- ]signed certificate/i);
      // Node's own store, not OpenSSL's default one (which `--use-openssl-ca` would give, and which reads this)
      await expect(pricingPlans({ ...userEnv, SSL_CERT_FILE: tlsFiles.cert })).rejects.toThrow(
        /self[- ]signed certificate/i,
      );
    } finally {
      front.close();
      await emulator.close();
    }
  });

  it("the linux-arm64 plugin answers its first gRPC call under qemu-user", async () => {
    const command = commandHere(target("linux-arm64"), unpacked("linux-arm64"))!;
    expect(path.basename(command[0]!)).toBe("qemu-aarch64");
    // under emulation the start takes tens of seconds
    expect((await firstCall(command, { timeoutMs: 600_000 })).version).toBe(version);
  });
});

describeNative(
  "yaml",
  "the released linux-amd64 plugin on a machine without node",
  () => {
    let hidden: string;
    beforeAll(async () => {
      await ensureRelease();
      hidden = nodeHiddenBin();
    }, BUILD_TIMEOUT);
    afterAll(() => {
      if (hidden) fs.rmSync(hidden, { recursive: true, force: true });
    });

    // What the hiding is worth: the release's plugin then runs up and destroy where node cannot run in
    // first-hour-release.test.ts (the YAML quickstart, a function call included) and release-download.test.ts.
    test("where the CLI runs, node cannot, nor the launcher plugin of npm run plugin:pack", async () => {
      // `node`, found on PATH but not executable: the shell says so (and exits 126 or 127, as its `exec` has it)
      const failsOnNode = (...command: string[]) => {
        const run = spawnSync(path.join(hidden, "without-node"), command, { encoding: "utf8" });
        expect(run.status).not.toBe(0);
        expect(run.stderr).toMatch(/node: Permission denied/);
      };
      failsOnNode("sh", "-c", "node -e 0");
      const launcherDir = fs.mkdtempSync(path.join(os.tmpdir(), "release-launcher-"));
      scratch.push(launcherDir);
      execFileSync("tar", ["-xzf", await packPlugin(launcherDir), "-C", launcherDir]);
      failsOnNode(path.join(launcherDir, "pulumi-resource-rimuhosting"));
    });
  },
  releaseSkipReason(),
);
