// The CLI checks the plugin it downloads, given the release's `packages:` entry (issue 42): dist/release
// (`npm run release:build`, tools/release/package-entry.ts) served on 127.0.0.1 over HTTPS and HTTP/2, as GitHub
// serves a release, PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sending the entry's server there, and the entry copied as
// it is into a project's Pulumi.json. `pulumi install` in that project, with a fresh PULUMI_HOME:
// - refuses the linux-amd64 tarball with one byte of its executable changed, naming the checksum it expected and
//   the one it got, and installs nothing, so no plugin process can start. In the same project, the program's own
//   download (the release's sdks/ declaration, `pulumi preview`) takes that tarball unchecked and runs it: the
//   changed byte shows in its answer;
// - over HTTP/1.1, installs the release's own tarball (CLI v3.260 refused it there: its hash left out the body's last
//   read), writes the release's package declaration, and the program runs on it.
// And what the CLI makes of the entry: a checksum is standard base64 of the 32 bytes (a hex digest is read as base64
// too, as 48 other bytes; the refusal names the right tarball's own SHA-256, hashed whole over HTTP/2); Pulumi.yaml
// cannot hold checksums at all.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { declarationFile, PACKAGES_FILE } from "../../tools/release/package-entry";
import { TARGETS } from "../../tools/release/node-binaries";
import { languageSkipReason } from "./native-programs";
import {
  ensureRelease,
  releaseOverrides,
  RELEASE_DIR,
  tarballOf,
  target,
  unpack,
  version,
} from "./release-support";

jest.setTimeout(300_000);
const BUILD_TIMEOUT = 1_800_000;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "release-checksums-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const sha256 = (file: string, encoding: "hex" | "base64" = "hex") =>
  crypto.createHash("sha256").update(fs.readFileSync(file)).digest(encoding);

interface Server {
  url: string;
  close(): Promise<void>;
}

/** Serves `file` under its name (the path the CLI asks for), over HTTPS and HTTP/2 with `tls`, or plain HTTP/1.1. */
async function serve(file: string, tls?: { key: string; cert: string }): Promise<Server> {
  // Both responses take these calls alike (Http2ServerResponse is the HTTP/1 API over a stream).
  const handler = (req: { url?: string }, res: http.ServerResponse) => {
    if (path.basename(req.url ?? "") !== path.basename(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/gzip", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  };
  const server = tls
    ? http2.createSecureServer({ ...tls, allowHTTP1: false }, (req, res) =>
        handler(req, res as unknown as http.ServerResponse),
      )
    : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A throwaway certificate for 127.0.0.1; the CLI trusts it through SSL_CERT_FILE. */
function certificate(): { key: string; cert: string; file: string } {
  const dir = path.join(scratch, "tls");
  fs.mkdirSync(dir);
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"]
      .concat(["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
      .concat(["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")]),
    { stdio: "ignore" },
  );
  const read = (name: string) => fs.readFileSync(path.join(dir, name), "utf8");
  return { key: read("key.pem"), cert: read("cert.pem"), file: path.join(dir, "cert.pem") };
}

/**
 * The linux-amd64 tarball with its executable changed (the first letter of a message the plugin holds), packed
 * again: a valid tarball of a plugin that still runs, as an attacker would make it. Every
 * copy of the message is changed: the executable holds it in the bundle's source and in its startup snapshot, and
 * the code that runs is the snapshot's.
 */
async function tampered(): Promise<string> {
  const dir = unpack(target("linux-amd64"));
  try {
    const exe = path.join(dir, "pulumi-resource-rimuhosting");
    const bytes = fs.readFileSync(exe);
    let changed = 0;
    for (let at = bytes.indexOf("RIMU_ERR_CONFIG"); at >= 0; at = bytes.indexOf("RIMU_ERR_CONFIG", at + 1)) {
      bytes[at] = "X".charCodeAt(0);
      changed += 1;
    }
    expect(changed).toBeGreaterThan(0);
    fs.writeFileSync(exe, bytes);
    const out = path.join(scratch, "tampered", path.basename(tarballOf(target("linux-amd64"))));
    fs.mkdirSync(path.dirname(out));
    // A plain tarball at gzip's fastest level: how it is compressed is not what the CLI checks, and the release's
    // level takes seconds of CPU more for these 169 MB.
    const tar = out.replace(/\.gz$/, "");
    execFileSync("tar", ["-C", dir, "-cf", tar, ...fs.readdirSync(dir).sort()]);
    execFileSync("gzip", ["-1", tar]);
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Entry = {
  source: string;
  version: string;
  pluginDownloadURL: string;
  checksums?: Record<string, string>;
};

/** A program of one Vps, for a project whose project file is Pulumi.json (the YAML host reads Main.yaml). */
const PROGRAM = `resources:
  web:
    type: rimuhosting:Vps
    properties:
      domainName: checked.example.com
      dcLocation: DCDALLAS
`;

/**
 * A new project named `name` whose project file holds `entry` (Pulumi.json and the program in Main.yaml, or
 * Pulumi.yaml with `yaml`), a PULUMI_HOME of its own, its plugin downloads sent to `server`; `pulumi(...args)` runs
 * the CLI in it.
 */
function project(
  name: string,
  entry: Entry,
  server: Server,
  opts: { certFile?: string; yaml?: boolean } = {},
) {
  const dir = path.join(scratch, name);
  const home = path.join(dir, ".pulumi-home");
  fs.mkdirSync(path.join(dir, ".backend"), { recursive: true });
  fs.mkdirSync(home);
  if (opts.yaml) {
    const checksums = Object.entries(entry.checksums ?? {}).map(([k, v]) => `      ${k}: ${v}\n`);
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${name}\nruntime: yaml\npackages:\n  rimuhosting:\n    source: ${entry.source}\n` +
        `    version: ${entry.version}\n    pluginDownloadURL: ${entry.pluginDownloadURL}\n` +
        `    checksums:\n${checksums.join("")}`,
    );
  } else {
    const json = { name, runtime: "yaml", packages: { rimuhosting: entry } };
    fs.writeFileSync(path.join(dir, "Pulumi.json"), JSON.stringify(json, null, 2));
    fs.writeFileSync(path.join(dir, "Main.yaml"), PROGRAM);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...releaseOverrides(server),
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${path.join(dir, ".backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    ...(opts.certFile ? { SSL_CERT_FILE: opts.certFile } : {}),
  };
  delete env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
  const plugins = path.join(home, "plugins");
  return {
    dir,
    home,
    /** Runs the CLI without blocking: the server answering it runs in this process. */
    pulumi(...args: string[]): Promise<{ status: number | null; output: string }> {
      return new Promise((resolve, reject) => {
        const child = spawn("pulumi", args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
        child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
        child.once("error", reject);
        child.once("close", (status) => resolve({ status, output }));
      });
    },
    /** The directories of PULUMI_HOME/plugins: what the CLI installed, and so can start. */
    installed: () =>
      fs.existsSync(plugins)
        ? fs.readdirSync(plugins, { withFileTypes: true }).flatMap((f) => (f.isDirectory() ? [f.name] : []))
        : [],
  };
}

const INSTALLED = `resource-rimuhosting-v${version}`;
const skipReason =
  process.platform !== "linux" || process.arch !== "x64"
    ? "the release is built and run on linux x64"
    : (languageSkipReason("yaml") ??
      (spawnSync("openssl", ["version"]).status === 0
        ? undefined
        : "no openssl (it makes the test's certificate)"));
if (skipReason && process.env.CI === "true")
  throw new Error(`CI=true, but the checksum tests cannot run: ${skipReason}`);
const describeCli = skipReason ? describe.skip : describe;

describeCli(
  `the CLI checks the download against the release's packages: entry${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let entry: Entry;
    let right: string;
    let bad: string;
    let tls: ReturnType<typeof certificate>;
    beforeAll(async () => {
      await ensureRelease();
      const file = JSON.parse(fs.readFileSync(path.join(RELEASE_DIR, PACKAGES_FILE), "utf8")) as {
        packages: { rimuhosting: Entry };
      };
      entry = file.packages.rimuhosting;
      right = tarballOf(target("linux-amd64"));
      bad = await tampered();
      tls = certificate();
    }, BUILD_TIMEOUT);

    test("the entry names the release's server and version, and each platform's tarball by its SHA-256 in base64", () => {
      expect(entry.source).toBe("rimuhosting");
      expect(entry.version).toBe(version);
      expect(entry.pluginDownloadURL).toBe("github://api.github.com/pulumi-rimuhosting/pulumi-rimuhosting");
      expect(entry.checksums).toEqual(
        Object.fromEntries(TARGETS.map((t) => [t.platform, sha256(tarballOf(t), "base64")])),
      );
    });

    test("over HTTP/2, pulumi install refuses the tampered tarball by its checksum and installs nothing", async () => {
      const server = await serve(bad, tls);
      try {
        const p = project("tampered", entry, server, { certFile: tls.file });
        const refused = await p.pulumi("install");
        expect(refused.output).toContain(
          `invalid checksum, expected ${sha256(right)}, actual ${sha256(bad)}`,
        );
        expect(refused.status).not.toBe(0);
        expect(p.installed()).toEqual([]); // no plugin on disk: none can start

        // Without a package declaration, the program's own run downloads nothing: the entry does not name the
        // plugin's server to `pulumi preview`, and no plugin is installed.
        expect((await p.pulumi("stack", "init", "dev")).status).toBe(0);
        expect((await p.pulumi("config", "set", "rimuhosting:baseUrl", "not-a-url")).status).toBe(0);
        const stopped = await p.pulumi("preview");
        expect(stopped.output).toContain("could not find latest version for provider rimuhosting");
        expect(p.installed()).toEqual([]);

        // The program's own download, in the same project: the package declaration YAML programs keep in sdks/
        // (the release's, as it is), and `pulumi preview` again. The engine downloads the same
        // tarball unchecked and runs it: its config check answers with the changed byte.
        const declaration = path.join(p.dir, "sdks/rimuhosting", declarationFile(version));
        fs.mkdirSync(path.dirname(declaration), { recursive: true });
        fs.copyFileSync(path.join(RELEASE_DIR, declarationFile(version)), declaration);
        const ran = await p.pulumi("preview");
        expect(ran.output).not.toContain("invalid checksum");
        expect(ran.output).toContain("[XIMU_ERR_CONFIG]");
        expect(p.installed()).toEqual([INSTALLED]);
      } finally {
        await server.close();
      }
    });

    test("the CLI reads a checksum as base64: a hex digest is 48 other bytes, and the right tarball is refused", async () => {
      const server = await serve(right, tls);
      try {
        const hex = { ...entry, checksums: { ...entry.checksums, "linux-amd64": sha256(right) } };
        const p = project("hex", hex, server, { certFile: tls.file });
        const refused = await p.pulumi("install");
        const read = Buffer.from(sha256(right), "base64").toString("hex");
        expect(read).toHaveLength(96);
        expect(refused.output).toContain(`invalid checksum, expected ${read}, actual ${sha256(right)}`);
        expect(p.installed()).toEqual([]);
      } finally {
        await server.close();
      }
    });

    test("Pulumi.yaml cannot hold the entry: the CLI (v3.259) does not load a project with checksums", async () => {
      const server = await serve(right, tls);
      try {
        const p = project("yaml", entry, server, { certFile: tls.file, yaml: true });
        const refused = await p.pulumi("install");
        expect(refused.output).toContain("package must be either a string or a package specification object");
        expect(refused.status).not.toBe(0);
        expect(p.installed()).toEqual([]);
      } finally {
        await server.close();
      }
    });

    // Over HTTP/2 the CLI hashes the whole download: the two refusals above name the served tarball's own SHA-256
    // (the tampered one's, and the right one's under a hex entry). Installing the right one is shown here, over
    // HTTP/1.1, where CLI v3.260 hashed the download short of its last read and refused it (issue 66).
    test("over HTTP/1.1, pulumi install installs the release's own tarball (v3.260 refused it), and the program runs on it", async () => {
      const server = await serve(right);
      try {
        const p = project("http1", entry, server);
        const installed = await p.pulumi("install");
        expect(installed.output).not.toContain("invalid checksum");
        expect(installed.status === 0 ? "" : installed.output).toBe("");
        expect(p.installed()).toEqual([INSTALLED]);
        // `pulumi install` writes the package declaration of the YAML program: the release's, byte for byte.
        const written = path.join(p.dir, "sdks/rimuhosting", declarationFile(version));
        expect(fs.readFileSync(written, "utf8")).toBe(
          fs.readFileSync(path.join(RELEASE_DIR, declarationFile(version)), "utf8"),
        );
        // The program then runs on the installed plugin, downloading nothing: its config check answers.
        expect((await p.pulumi("stack", "init", "dev")).status).toBe(0);
        expect((await p.pulumi("config", "set", "rimuhosting:baseUrl", "not-a-url")).status).toBe(0);
        const preview = await p.pulumi("preview");
        expect(preview.output).toContain("[RIMU_ERR_CONFIG]");
        expect(preview.output).not.toMatch(/Downloading plugin/);
      } finally {
        await server.close();
      }
    });
  },
);
