/**
 * The SDK packages of a release (tools/release/sdk-packages.ts, which `npm run release:build` calls), as a user gets
 * them: the Node.js SDK's npm tarball installed offline into a fresh project, compiled under the tsconfigs
 * `pulumi new typescript` writes and loaded; the Python wheel and sdist pip-installed into fresh virtual
 * environments; the Go SDK's module path the one its sdk/v<version> tag serves. test/engine/native-sdk-programs.test.ts
 * runs each language's example on these packages through the CLI.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  GO_IMPORT_BASE,
  NODEJS_PACKAGE,
  PLUGIN_DOWNLOAD_URL,
} from "../../provider/native/schema/package-schema";
import { buildSdkPackages } from "../../tools/release/sdk-packages";
import { findLanguageHosts } from "../../tools/release/language-hosts";
import { recipe } from "../docs/support/code-blocks";
import { shell } from "../docs/support/shell";
import { pythonVenvWith } from "../engine/language-programs";
import { describeNative } from "../engine/native-programs";
import {
  REPO_ROOT,
  npm,
  packedTarball,
  scratchDir,
  writeProject,
  type PackedPackage,
} from "./support/offline-project";
import { ROUTE_PAGES, runGoRoute, runNpmRoute, runPipRoute, type Route } from "./support/release-routes";
import { releaseDownloadPath, serveReleaseFiles, type ReleaseServer } from "./support/release-server";
import { PULUMI_NEW_TSCONFIGS } from "./support/user-tsconfigs";
import { atTag, linksIntoRepository } from "./support/repository-links";

jest.setTimeout(600_000);

const scratch = scratchDir("sdk-packages");
afterAll(() => scratch.cleanup());
/**
 * The three packages, built once for the file as the release builds them (buildSdkPackages): each build compiles the
 * Node.js SDK and builds the wheel and the sdist, which took about 20 s of a CI worker.
 */
let built: Promise<{ npmTarball: string; wheel: string; sdist: string; files: string[] }> | undefined;
const sdkPackages = () =>
  (built ??= buildSdkPackages(path.join(scratch.dir, "release")).then((files) => {
    const [npmTarball, wheel, sdist] = files as [string, string, string];
    return { npmTarball, wheel, sdist, files };
  }));
const { version, repository } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
  repository: { url: string };
};

describe("the Node.js SDK's npm tarball", () => {
  const project = path.join(scratch.dir, "project");
  let packed: PackedPackage;
  beforeAll(async () => {
    packed = packedTarball((await sdkPackages()).npmTarball);
    fs.mkdirSync(project);
    writeProject(project, packed, {
      dependencies: ["@pulumi/pulumi"],
      devDependencies: ["typescript", "@types/node"],
    });
    const install = npm(["install", "--offline"], project);
    if (install.status !== 0)
      throw new Error(`npm install --offline failed:\n${install.stdout}${install.stderr}`);
    fs.copyFileSync(
      path.join(REPO_ROOT, "examples/typescript-quickstart/index.ts"),
      path.join(project, "index.ts"),
    );
  });

  it("is the schema's package at this version, with the plugin's download URL", () => {
    expect(path.basename(packed.tarball)).toBe(`pulumi-rimuhosting-rimuhosting-${version}.tgz`);
    expect(packed.manifest.name).toBe(NODEJS_PACKAGE);
    expect(packed.manifest.version).toBe(version);
    expect(packed.manifest.pulumi).toEqual({
      resource: true,
      name: "rimuhosting",
      version,
      server: PLUGIN_DOWNLOAD_URL,
    });
  });

  it("holds compiled JavaScript and declarations for every generated module, and no TypeScript sources", () => {
    const sources = fs
      .readdirSync(path.join(REPO_ROOT, "sdk/nodejs"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"));
    expect(sources).toContain("vps.ts");
    const expected = sources.flatMap((file) => [
      file.replace(/\.ts$/, ".js"),
      file.replace(/\.ts$/, ".d.ts"),
    ]);
    expect(packed.files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(packed.files.filter((f) => f.endsWith(".map"))).toEqual([]);
    expect([...packed.files].sort()).toEqual([...expected, "package.json", "README.md", "LICENSE"].sort());
  });

  it("its README links to the docs at the release's tag", () => {
    const readme = execFileSync("tar", ["-xzOf", packed.tarball, "package/README.md"], { encoding: "utf8" });
    const links = linksIntoRepository(readme);
    expect(links.length).toBeGreaterThanOrEqual(3);
    expect(links.filter((link) => !link.startsWith(atTag(version)))).toEqual([]);
  });

  it.each(Object.keys(PULUMI_NEW_TSCONFIGS))(
    "the TypeScript quickstart compiles with 0 errors against it under %s",
    (name) => {
      fs.writeFileSync(path.join(project, "tsconfig.json"), PULUMI_NEW_TSCONFIGS[name]!.text);
      const tsc = spawnSync(
        process.execPath,
        [path.join(project, "node_modules/typescript/bin/tsc"), "--noEmit"],
        {
          cwd: project,
          encoding: "utf8",
        },
      );
      expect([tsc.status, tsc.stdout]).toEqual([0, ""]);
    },
  );

  it("loads in Node, and reports its version to the engine", () => {
    const loaded = spawnSync(
      process.execPath,
      [
        "-e",
        `const sdk = require(${JSON.stringify(NODEJS_PACKAGE)});
         const utilities = require(${JSON.stringify(`${NODEJS_PACKAGE}/utilities`)});
         console.log(typeof sdk.Vps, typeof sdk.getPricingPlansOutput, typeof sdk.Provider, utilities.getVersion());`,
      ],
      { cwd: project, encoding: "utf8" },
    );
    expect([loaded.status, loaded.stderr, loaded.stdout.trim()]).toEqual([
      0,
      "",
      `function function function ${version}`,
    ]);
  });
});

describeNative("python", "the Python SDK's wheel and sdist", () => {
  let wheel: string;
  let sdist: string;
  beforeAll(async () => {
    ({ wheel, sdist } = await sdkPackages());
  });

  it("are named for this version and need Python 3.10 (as the pulumi package does)", () => {
    expect([path.basename(wheel), path.basename(sdist)]).toEqual([
      `pulumi_rimuhosting-${version}-py3-none-any.whl`,
      `pulumi_rimuhosting-${version}.tar.gz`,
    ]);
    const metadata = execFileSync(
      "unzip",
      ["-p", wheel, `pulumi_rimuhosting-${version}.dist-info/METADATA`],
      {
        encoding: "utf8",
      },
    );
    expect(metadata).toMatch(/^Requires-Python: >=3\.10$/m);
    expect(metadata).toMatch(/^Requires-Dist: pulumi<4\.0\.0,>=3\.\d+\.\d+$/m);
    const pkgInfo = execFileSync("tar", ["-xzOf", sdist, `pulumi_rimuhosting-${version}/PKG-INFO`], {
      encoding: "utf8",
    });
    expect(pkgInfo).toMatch(/^Requires-Python: >=3\.10$/m);
  });

  it("their description (the README on PyPI) links to the docs at the release's tag", () => {
    const described = [
      execFileSync("unzip", ["-p", wheel, `pulumi_rimuhosting-${version}.dist-info/METADATA`], {
        encoding: "utf8",
      }),
      execFileSync("tar", ["-xzOf", sdist, `pulumi_rimuhosting-${version}/PKG-INFO`], { encoding: "utf8" }),
    ];
    for (const metadata of described) {
      const links = linksIntoRepository(metadata);
      expect(links.length).toBeGreaterThanOrEqual(3);
      expect(links.filter((link) => !link.startsWith(atTag(version)))).toEqual([]);
    }
  });

  it.each(["wheel", "sdist"])(
    "the %s pip-installs into a fresh virtual environment and imports",
    async (kind) => {
      const venv = path.join(scratch.dir, `venv-${kind}`);
      const python = await pythonVenvWith(venv, kind === "wheel" ? wheel : sdist, findLanguageHosts().hosts!);
      const imported = spawnSync(
        python,
        [
          "-c",
          "import json, importlib.resources as r, pulumi_rimuhosting as p; " +
            "print(p.Vps.__name__, p.get_pricing_plans.__name__, json.loads((r.files(p) / 'pulumi-plugin.json').read_text())['server'])",
        ],
        { cwd: venv, encoding: "utf8" },
      );
      expect([imported.status, imported.stderr, imported.stdout.trim()]).toEqual([
        0,
        "",
        `Vps get_pricing_plans ${PLUGIN_DOWNLOAD_URL}`,
      ]);
    },
  );
});

describe("the Go SDK", () => {
  it("is the module at sdk/ of the repository, so `go get` finds release v<version> at the tag sdk/v<version>", () => {
    const module = /^module\s+(\S+)$/m.exec(fs.readFileSync(path.join(REPO_ROOT, "sdk/go.mod"), "utf8"))?.[1];
    const repo = repository.url.replace(/^git\+https:\/\//, "").replace(/\.git$/, "");
    expect(module).toBe(`${repo}/sdk`);
    expect(GO_IMPORT_BASE).toBe(`${module}/go/rimuhosting`);
  });
});

describe("buildSdkPackages", () => {
  it("writes the npm tarball, the wheel and the sdist, and nothing else", async () => {
    const out = path.join(scratch.dir, "release");
    const { files } = await sdkPackages();
    expect(files.map((f) => path.basename(f))).toEqual([
      `pulumi-rimuhosting-rimuhosting-${version}.tgz`,
      `pulumi_rimuhosting-${version}-py3-none-any.whl`,
      `pulumi_rimuhosting-${version}.tar.gz`,
    ]);
    expect(fs.readdirSync(out).sort()).toEqual(files.map((f) => path.basename(f)).sort());
  });
});

/**
 * The routes for now that the pages give until the registries hold the packages (support/release-routes.ts says
 * what the test changes in each line, and why), run in a fresh project from the packages above, served on
 * 127.0.0.1 at the release's download path: each installs what a program then loads.
 */
describe("the pages' install routes from the release, served on 127.0.0.1", () => {
  let server: ReleaseServer;
  let releaseUrl: string;
  beforeAll(async () => {
    server = await serveReleaseFiles(version, (await sdkPackages()).files);
    releaseUrl = `${server.origin}${releaseDownloadPath(version, "")}`;
  });
  afterAll(() => server?.close());
  const project = (name: string) => {
    const dir = path.join(scratch.dir, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  it.each(Object.keys(ROUTE_PAGES) as Route[])(
    "%s: the install page and the language's page give the same lines",
    (route) => {
      const [first, ...others] = ROUTE_PAGES[route].map(recipe);
      for (const other of others) expect(other).toBe(first);
    },
  );

  it("release-npm: npm 12 installs the Node.js SDK from the release's URL with --allow-remote, and it loads", async () => {
    const cwd = project("route-npm");
    fs.writeFileSync(path.join(cwd, "package.json"), JSON.stringify({ name: "route-npm", version: "1.0.0" }));
    await runNpmRoute({ releaseUrl, version, cwd });
    expect(server.requests).toContain(
      releaseDownloadPath(version, path.basename((await sdkPackages()).npmTarball)),
    );
    const loaded = spawnSync(
      process.execPath,
      ["-e", `const sdk = require(${JSON.stringify(NODEJS_PACKAGE)}); console.log(typeof sdk.Vps)`],
      { cwd, encoding: "utf8" },
    );
    expect([loaded.status, loaded.stderr, loaded.stdout.trim()]).toEqual([0, "", "function"]);
  });

  describeNative("python", "release-pip", () => {
    it("pip installs the release's wheel from its URL into the page's virtual environment, and it imports", async () => {
      const cwd = project("route-pip");
      const python = await runPipRoute({ releaseUrl, version, cwd }, findLanguageHosts().hosts!);
      expect(server.requests).toContain(
        releaseDownloadPath(version, path.basename((await sdkPackages()).wheel)),
      );
      const imported = spawnSync(python, ["-c", "import pulumi_rimuhosting as p; print(p.Vps.__name__)"], {
        cwd,
        encoding: "utf8",
      });
      expect([imported.status, imported.stderr, imported.stdout.trim()]).toEqual([0, "", "Vps"]);
    });
  });

  describeNative("go", "release-go", () => {
    it("the clone of the tag and the `replace` build examples/go-quickstart, offline", async () => {
      const cwd = path.join(project("route-go"), "project");
      fs.cpSync(path.join(REPO_ROOT, "examples/go-quickstart"), cwd, { recursive: true });
      const goEnv = await runGoRoute({ releaseUrl, version, cwd }, path.dirname(cwd));
      const built = await shell("go build -o /dev/null .", { cwd, env: goEnv, clean: true });
      expect([built.code, built.output]).toEqual([0, ""]);
    });
  });
});
