/**
 * The SDK packages of a release (tools/release/sdk-packages.ts, which `npm run release:build` calls), as a user gets
 * them: the Node.js SDK's npm tarball unpacked into a fresh project as npm puts it (with @pulumi/pulumi, typescript
 * and @types/node linked at the lockfile's versions: unpackIntoProject), compiled under the tsconfigs
 * `pulumi new typescript` writes and loaded; the Python wheel's and sdist's metadata, and the sdist pip-installed
 * into a fresh virtual environment; the Go SDK's module path the one its sdk/v<version> tag serves; the Java SDK's
 * jar, sources jar and pom: their coordinates, what the jar holds (the plugin's download URL), every entry's time the
 * release's.
 *
 * The pages' install routes (support/release-routes.ts) are run by test/engine/first-hour-release.test.ts, from the
 * release served on 127.0.0.1, each then running the language's quickstart through `pulumi up`: npm 12 installing
 * the Node.js SDK by its URL, pip the wheel, Go the clone of the tag. That is also where the wheel is pip-installed
 * and imported, and where npm installs the Node.js SDK's tarball; here the sdist is pip-installed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  GO_IMPORT_BASE,
  NODEJS_PACKAGE,
  PLUGIN_DOWNLOAD_URL,
} from "../../provider/native/schema/package-schema";
import { findLanguageHosts } from "../../tools/release/language-hosts";
import { javaArtifact } from "../../tools/release/sdk-packages";
import { recipe } from "../docs/support/code-blocks";
import { pythonVenvWith } from "../engine/language-programs";
import { describeNative, languageSkipReason } from "../engine/native-programs";
import { ensureRelease, RELEASE_SDK, releaseBuildSkipReason } from "../engine/release-support";
import {
  REPO_ROOT,
  packedTarball,
  scratchDir,
  unpackIntoProject,
  type PackedPackage,
} from "./support/offline-project";
import { ROUTE_PAGES, type Route } from "./support/release-routes";
import { PULUMI_NEW_TSCONFIGS } from "./support/user-tsconfigs";
import { atTag, linksIntoRepository } from "./support/repository-links";

jest.setTimeout(600_000);

const scratch = scratchDir("sdk-packages");
afterAll(() => scratch.cleanup());
/**
 * The three packages as the release holds them: built once for the whole test run by ensureRelease
 * (test/engine/release-support.ts), which the release's own tests wait on too. A build of the file's own
 * (buildSdkPackages) took about 20 s of a CI worker, for the same files; test/engine/release-files.test.ts shows
 * the release holds these three and no other file of buildSdkPackages.
 */
let built: Promise<typeof RELEASE_SDK> | undefined;
const sdkPackages = () => (built ??= ensureRelease().then(() => RELEASE_SDK));

/** A describe of the release's packages: skipped, with the reason, where the release is not built (never on CI). */
function describeRelease(title: string, body: () => void): void {
  const reason = releaseBuildSkipReason();
  if (reason && process.env.CI === "true") throw new Error(`CI=true, but ${title} cannot run: ${reason}`);
  if (reason) describe.skip(`${title} (skipped: ${reason})`, body);
  else describe(title, body);
}
const { version, repository } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
  repository: { url: string };
};

describeRelease("the Node.js SDK's npm tarball", () => {
  const project = path.join(scratch.dir, "project");
  let packed: PackedPackage;
  beforeAll(async () => {
    packed = packedTarball((await sdkPackages()).npmTarball);
    fs.mkdirSync(project);
    unpackIntoProject(project, packed, ["@pulumi/pulumi", "typescript", "@types/node"]);
    fs.copyFileSync(
      path.join(REPO_ROOT, "examples/typescript-quickstart/index.ts"),
      path.join(project, "index.ts"),
    );
    // The release's build, or the wait for the test file building it, as automation-api.test.ts allows.
  }, 1_800_000);

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

  /** A project per tsconfig `pulumi new typescript` writes, each the TypeScript quickstart, beside node_modules. */
  const quickstartDir = (name: string) => path.join(project, `quickstart-${name.replace(/\W+/g, "-")}`);
  const tsc = (args: string[]) => {
    const result = spawnSync(
      process.execPath,
      [path.join(project, "node_modules/typescript/bin/tsc"), ...args],
      {
        cwd: project,
        encoding: "utf8",
      },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  /**
   * All of them compiled by one `tsc -b`, which reads the libraries' typings once for all (as packed.test.ts does);
   * when it found an error, the project alone says whether the error is that tsconfig's.
   */
  let together: { status: number | null; output: string } | undefined;
  const compiled = (name: string) => {
    together ??= (() => {
      for (const [each, config] of Object.entries(PULUMI_NEW_TSCONFIGS)) {
        fs.mkdirSync(quickstartDir(each));
        fs.copyFileSync(path.join(project, "index.ts"), path.join(quickstartDir(each), "index.ts"));
        fs.writeFileSync(path.join(quickstartDir(each), "tsconfig.json"), config.text);
      }
      return tsc(["-b", ...Object.keys(PULUMI_NEW_TSCONFIGS).map(quickstartDir)]);
    })();
    return together.status === 0 && together.output === "" ? together : tsc(["-p", quickstartDir(name)]);
  };

  it.each(Object.keys(PULUMI_NEW_TSCONFIGS))(
    "the TypeScript quickstart compiles with 0 errors against it under %s",
    (name) => {
      const result = compiled(name);
      expect([result.status, result.output]).toEqual([0, ""]);
      expect(fs.existsSync(path.join(quickstartDir(name), "bin/index.js"))).toBe(true);
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

describeNative(
  "python",
  "the Python SDK's wheel and sdist",
  () => {
    let wheel: string;
    let sdist: string;
    beforeAll(async () => {
      ({ wheel, sdist } = await sdkPackages());
    }, 1_800_000);

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

    it("the sdist pip-installs into a fresh virtual environment and imports", async () => {
      const venv = path.join(scratch.dir, "venv-sdist");
      const python = await pythonVenvWith(venv, sdist, findLanguageHosts().hosts!);
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
    });
  },
  languageSkipReason("python") ?? releaseBuildSkipReason(),
);

describeRelease("the Java SDK's jar, sources jar and pom", () => {
  let sdk: typeof RELEASE_SDK;
  const list = (jar: string) =>
    execFileSync("unzip", ["-Z1", jar], { encoding: "utf8" }).trim().split("\n").sort();
  beforeAll(async () => {
    sdk = await sdkPackages();
  }, 1_800_000);

  it("are Maven's com.pulumi:rimuhosting at this version, on com.pulumi:pulumi", () => {
    const pom = fs.readFileSync(sdk.javaPom, "utf8");
    expect(javaArtifact(pom)).toEqual({ groupId: "com.pulumi", artifactId: "rimuhosting", version });
    expect(pom).toMatch(/<artifactId>pulumi<\/artifactId>\s*<version>\d+\.\d+\.\d+<\/version>/);
    expect(path.basename(sdk.javaJar)).toBe(`rimuhosting-${version}.jar`);
  });

  it("the jar holds the classes, the version and the plugin's download URL; the sources jar the sources", () => {
    const classes = list(sdk.javaJar);
    expect(classes).toEqual(
      expect.arrayContaining([
        "com/pulumi/rimuhosting/Vps.class",
        "com/pulumi/rimuhosting/RimuhostingFunctions.class",
        "com/pulumi/rimuhosting/version.txt",
        "com/pulumi/rimuhosting/plugin.json",
      ]),
    );
    const plugin = execFileSync("unzip", ["-p", sdk.javaJar, "com/pulumi/rimuhosting/plugin.json"], {
      encoding: "utf8",
    });
    expect(JSON.parse(plugin)).toEqual({
      resource: true,
      name: "rimuhosting",
      version,
      server: PLUGIN_DOWNLOAD_URL,
    });
    expect(list(sdk.javaSources)).toEqual(expect.arrayContaining(["com/pulumi/rimuhosting/Vps.java"]));
    expect(list(sdk.javaSources).filter((f) => f.endsWith(".class"))).toEqual([]);
  });

  it("every entry of both jars has one time, the release's (a rebuild writes the same bytes)", () => {
    for (const jar of [sdk.javaJar, sdk.javaSources]) {
      const times = new Set(
        execFileSync("zipinfo", ["-T", jar], { encoding: "utf8" })
          .split("\n")
          .filter((line) => /^[-d]/.test(line))
          .map((line) => line.split(/\s+/)[6]),
      );
      expect([path.basename(jar), times.size]).toEqual([path.basename(jar), 1]);
    }
  });
});

describe("the Go SDK", () => {
  it("is the module at sdk/ of the repository, so `go get` finds release v<version> at the tag sdk/v<version>", () => {
    const module = /^module\s+(\S+)$/m.exec(fs.readFileSync(path.join(REPO_ROOT, "sdk/go.mod"), "utf8"))?.[1];
    const repo = repository.url.replace(/^git\+https:\/\//, "").replace(/\.git$/, "");
    expect(module).toBe(`${repo}/sdk`);
    expect(GO_IMPORT_BASE).toBe(`${module}/go/rimuhosting`);
  });
});

/** The routes for now that the pages give until the registries hold the packages (support/release-routes.ts). */
describe("the pages' install routes", () => {
  it.each(Object.keys(ROUTE_PAGES) as Route[])(
    "%s: the install page and the language's page give the same lines",
    (route) => {
      const [first, ...others] = ROUTE_PAGES[route].map(recipe);
      for (const other of others) expect(other).toBe(first);
    },
  );
});
