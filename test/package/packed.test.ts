/**
 * The package as a user gets it: packed as a release packs it (tools/release/npm-package.ts), installed offline into
 * a fresh project outside the repository without fastify, its entry points and the quickstart compiled under the
 * tsconfigs users have; and installed as a user installs a downloaded tarball, with the npm on PATH (the registry's
 * documents npm's cache lacks come from the registry). One pack and one project for the file; the tests run in order
 * and build on each other.
 *
 * Proved elsewhere, not again here: npm 12 installing the tarball (by its URL) with no script of its own, and the
 * emulator the installed `rimuhosting-emulator` starts once fastify is added (test/package/readme.test.ts, "the
 * README's install" and "starts the emulator as the README says"); the quickstart's mocked unit test passing in a
 * user's jest (test/docs/recipes.test.ts, docs/testing.md) and opening no connection
 * (test/package/quickstart-mocks.test.ts).
 */
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO_API_KEY } from "../../emulator/index";
import { startTestEmulator } from "../helpers/start-emulator";
import {
  REPO_ROOT,
  installedPackages,
  npm,
  packFromCheckout,
  scratchDir,
  writeProject,
  type PackedPackage,
} from "./support/offline-project";
import { TSCONFIGS, ENTRY_POINTS_PROGRAM } from "./support/user-tsconfigs";
import { atTag, linksIntoRepository } from "./support/repository-links";
import { codeBlocks, recipe } from "../docs/support/code-blocks";

jest.setTimeout(600_000);

const execFileAsync = promisify(execFile);

const scratch = scratchDir("packed");
const project = path.join(scratch.dir, "project");
let packed: PackedPackage;
let install: { status: number | null; output: string };

const USER_DEPS = {
  dependencies: ["@pulumi/pulumi"],
  devDependencies: ["typescript", "@types/node"],
};

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
/** The package's declaration files a program importing `entry` loads (relative imports, transitively). */
function typeGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = fs.readFileSync(entry, "utf8");
  for (const [, specifier] of text.matchAll(/from "(\.{1,2}\/[^"]+)\.js"/g)) {
    typeGraph(path.resolve(path.dirname(entry), `${specifier}.d.ts`), seen);
  }
  return seen;
}
const tsc = (args: string[]) =>
  run(process.execPath, [path.join(project, "node_modules/typescript/bin/tsc"), ...args]);

beforeAll(() => {
  packed = packFromCheckout(scratch.dir);
  fs.mkdirSync(project);
  writeProject(project, packed, USER_DEPS);
  const result = npm(["install", "--offline"], project);
  install = { status: result.status, output: `${result.stdout}${result.stderr}` };
});
afterAll(() => scratch.cleanup());

describe("the packed package in a fresh project", () => {
  it("the tarball holds the built package, its types, LICENSE and CHANGELOG, and no tests or sources", () => {
    const files = packed.files;
    for (const required of [
      "package.json",
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/provider/impl/index.js",
      "dist/provider/client/index.d.ts",
      "dist/contract/index.d.ts",
      "dist/emulator/index.d.ts",
      "dist/emulator/cli.js",
    ]) {
      expect(files).toContain(required);
    }
    const stray = files.filter(
      (file) =>
        /^(test|bench|dist\/test|dist\/bench|examples|scripts)\//.test(file) || /(?<!\.d)\.ts$/.test(file),
    );
    expect(stray).toEqual([]);
  });

  it("`npm install <tarball>` with the npm on PATH (Node 22's) installs the built package and warns of no script of its own", () => {
    // As a user installs a downloaded tarball: no lockfile (npm reads the package's own package.json, which is
    // what it lists install scripts from), the registry's documents from npm's cache where it has them.
    const dir = path.join(scratch.dir, "tarball-with-npm-on-path");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "user", version: "1.0.0", private: true }),
    );
    const result = npm(["install", packed.tarball], dir, { npm_config_prefer_offline: "true" });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(/npm error/);
    expect(result.status).toBe(0);
    expect(
      fs.existsSync(path.join(dir, "node_modules", packed.manifest.name, "dist/provider/index.js")),
    ).toBe(true);
    // npm lists each package whose install script it blocked (12) or that allowScripts does not cover (11.19+)
    const warned = output.split("\n").filter((line) => /install-scripts/.test(line));
    expect(warned.filter((line) => line.includes(packed.manifest.name))).toEqual([]);
    expect(packed.manifest).not.toHaveProperty("scripts"); // nothing to run: the package is built
  });

  describe("its README, package/README.md as packed", () => {
    const readme = () => fs.readFileSync(path.join(scratch.dir, "packed-README.md"), "utf8");
    beforeAll(() => {
      const text = spawnSync("tar", ["-xzOf", packed.tarball, "package/README.md"], {
        encoding: "utf8",
      }).stdout;
      fs.writeFileSync(path.join(scratch.dir, "packed-README.md"), text);
    });

    it("is the package's own README, with no command that needs a checkout and no examples/", () => {
      const checkoutOnly = readme()
        .split("\n")
        .filter((line) => /\bnpm (ci|test|run)\b|git clone|\bexamples\/|\bscripts\/|dist\//.test(line));
      expect(checkoutOnly).toEqual([]);
      expect(readme()).toBe(
        fs
          .readFileSync(path.join(REPO_ROOT, "package/README.md"), "utf8")
          .replace(/\]\(\.\.\/([^)]+)\)/g, `](${atTag(packed.manifest.version)}$1)`),
      );
    });

    it("links to the docs at the release's tag, never at a branch or a relative path", () => {
      const targets = [...readme().matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
      const repository = linksIntoRepository(readme());
      expect(repository.length).toBeGreaterThan(5);
      expect(repository.filter((t) => !t.startsWith(atTag(packed.manifest.version)))).toEqual([]);
      expect(targets.filter((t) => !/^https:\/\//.test(t))).toEqual([]);
    });

    it("shows README.md's configure, quickstart and up steps word for word (the ones its tests run)", () => {
      const shown = codeBlocks("package/README.md", readme()).map((block) => block.text);
      for (const id of ["configure", "quickstart", "up"]) expect(shown).toContain(recipe(`README.md#${id}`));
    });
  });

  it("installs offline from npm's cache, with no engine warning on a supported Node", () => {
    expect(install.output).not.toMatch(/ERR!|npm error/);
    expect(install.status).toBe(0);
    // The package, its dependencies and the locked @pulumi/pulumi all accept Node 22 and 24 (the tested lines).
    const warned = [...install.output.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]!);
    expect(warned).toEqual([]);
  });

  it("the installed tree has no web server in it", () => {
    const installed = installedPackages(project);
    expect(installed.has(packed.manifest.name)).toBe(true);
    const servers = ["fastify", "light-my-request", "find-my-way", "express", "koa", "@hapi/hapi", "cookie"];
    expect(servers.filter((name) => installed.has(name))).toEqual([]);
  });

  it("installs no got, and its client calls through the got bundled in it (dist/vendor/got.cjs)", async () => {
    expect(installedPackages(project).has("got")).toBe(false);
    expect(packed.files).toEqual(
      expect.arrayContaining(["dist/vendor/got.cjs", "dist/vendor/THIRD-PARTY-LICENSES.txt"]),
    );
    const licences = spawnSync(
      "tar",
      ["-xzOf", packed.tarball, "package/dist/vendor/THIRD-PARTY-LICENSES.txt"],
      {
        encoding: "utf8",
      },
    ).stdout;
    expect(licences).toMatch(/^got@14\.\d+\.\d+ \(MIT\)\n\nMIT License\n\nCopyright \(c\) Sindre Sorhus/m);
    // One answer from an emulator, and one refused connection: got's RequestError reaches the client's mapping as the
    // class it checks for (the same copy of got), so the failure is a connection failure with its code.
    const emulator = await startTestEmulator();
    try {
      const script = `
        const path = require("node:path");
        const { createClient } = require("pulumi-rimuhosting/client");
        const [apiKey, baseUrl] = process.argv.slice(1);
        (async () => {
          const { data_center_infos: centres } = await createClient({ apiKey, baseUrl }).listDataCenters();
          const refused = createClient({ apiKey, baseUrl: "http://127.0.0.1:1", retry: { limit: 0 } });
          const error = await refused.listDataCenters().then(() => undefined, (e) => e);
          const fromNodeModules = Object.keys(require.cache).filter((file) => file.split(path.sep).includes("got"));
          console.log(JSON.stringify({ centres: centres.length > 0, error: error.name, networkCode: error.networkCode, fromNodeModules }));
        })();`;
      const child = await execFileAsync(process.execPath, ["-e", script, DEMO_API_KEY, emulator.baseUrl], {
        cwd: project,
        encoding: "utf8",
      });
      expect(JSON.parse(child.stdout)).toEqual({
        centres: true,
        error: "RimuTransientError",
        networkCode: "ECONNREFUSED",
        fromNodeModules: [],
      });
    } finally {
      await emulator.close();
    }
  });

  it("nothing internal in the types a program sees: no @internal declaration, no creationScope", () => {
    const root = path.join(project, "node_modules", packed.manifest.name);
    const declarations = typeGraph(path.join(root, "dist/provider/index.d.ts"));
    expect(declarations.size).toBeGreaterThan(10);
    const leaks = [...declarations].filter((file) =>
      /@internal|creationScope/.test(fs.readFileSync(file, "utf8")),
    );
    expect(leaks.map((file) => path.relative(root, file))).toEqual([]);
  });

  it("rimuhosting-emulator without fastify says how to get it", () => {
    const result = run(path.join(project, "node_modules/.bin/rimuhosting-emulator"), ["--port", "0"]);
    expect(result.status).toBe(1);
    expect(result.output).toContain("npm install --save-dev fastify@5");
    expect(result.output).toContain(
      "npm install --save-dev fastify@5`, then run `npx rimuhosting-emulator` again",
    );
    expect(result.output).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("rimuhosting-bill runs as installed (a bin of the package; no fastify needed)", () => {
    const bill = path.join(project, "node_modules/.bin/rimuhosting-bill");
    const help = run(bill, ["--help"]);
    expect(help.status).toBe(0);
    expect(help.output).toMatch(
      /^Usage: rimuhosting-bill \[options\] --stack <stack> \[-- <preview flags>\]\n {7}rimuhosting-bill \[options\] \[preview\.events \.\.\.\]/,
    );
    const missing = run(bill, [path.join(project, "no-preview.json")]);
    expect(missing.status).toBe(2);
    expect(missing.output).toContain("no-preview.json: there is no such file.");
  });

  describe("compiled without fastify installed", () => {
    /** A project per tsconfig, each a program that imports every public entry point. */
    const entriesDir = (name: string) => path.join(project, `entries-${name.replace(/\W+/g, "-")}`);
    /** examples/quickstart as a project of its own, under the tsconfig `pulumi new typescript` writes. */
    const quickstartDir = path.join(project, "quickstart");
    /**
     * All of them compiled by one `tsc -b`, which reads the libraries' typings once for all: 18.0 against 24.6 s for
     * four `tsc -p`, in a trial of four projects importing @pulumi/pulumi.
     */
    let together: { status: number | null; output: string };
    beforeAll(() => {
      expect(fs.existsSync(path.join(project, "node_modules/fastify"))).toBe(false);
      for (const [name, config] of Object.entries(TSCONFIGS)) {
        const dir = entriesDir(name);
        fs.mkdirSync(dir);
        if (config.packageType) {
          fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: config.packageType }));
        }
        fs.writeFileSync(path.join(dir, "index.ts"), ENTRY_POINTS_PROGRAM);
        fs.writeFileSync(path.join(dir, "tsconfig.json"), config.text);
      }
      fs.mkdirSync(quickstartDir);
      fs.copyFileSync(
        path.join(REPO_ROOT, "examples/quickstart/index.ts"),
        path.join(quickstartDir, "index.ts"),
      );
      fs.writeFileSync(path.join(quickstartDir, "tsconfig.json"), TSCONFIGS["pulumi new typescript"]!.text);
      together = tsc(["-b", ...Object.keys(TSCONFIGS).map(entriesDir), quickstartDir]);
    });
    /** The build of all, or when it found an error, `dir`'s project alone: it says whether the error is this one's. */
    const compiled = (dir: string) =>
      together.status === 0 && together.output === "" ? together : tsc(["-p", dir]);

    it.each(Object.keys(TSCONFIGS))("every public entry point compiles with 0 errors under %s", (name) => {
      const result = compiled(entriesDir(name));
      expect(result.output).toBe("");
      expect(result.status).toBe(0);
    });

    it("the quickstart compiles with 0 errors under the tsconfig `pulumi new typescript` writes", () => {
      const result = compiled(quickstartDir);
      expect(result.output).toBe("");
      expect(result.status).toBe(0);
      expect(fs.existsSync(path.join(quickstartDir, "bin/index.js"))).toBe(true);
    });
  });
});
