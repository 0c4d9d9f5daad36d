/**
 * The package as a user gets it: packed as a release packs it (tools/release/npm-package.ts), installed offline into
 * a fresh project outside the repository, compiled with the tsconfig `pulumi new typescript` writes, and the
 * quickstart's mocked unit test run there with no network; and installed as a user installs a downloaded tarball,
 * with the npm on PATH and with npm 12 (the registry's documents npm's cache lacks come from the registry). One pack
 * and one project for the file; the tests run in order and build on each other.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
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
import { envWithNpm, NEWEST_NPM_MAJOR } from "./support/npm-versions";
import { atTag, linksIntoRepository } from "./support/repository-links";
import { codeBlocks, recipe } from "../docs/support/code-blocks";

jest.setTimeout(600_000);

const scratch = scratchDir("packed");
const project = path.join(scratch.dir, "project");
let packed: PackedPackage;
let install: { status: number | null; output: string };

const USER_DEPS = {
  dependencies: ["@pulumi/pulumi"],
  devDependencies: ["typescript", "@types/node", "jest", "@types/jest", "ts-jest"],
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

  it.each([
    ["the npm on PATH (Node 22's)", undefined],
    [`npm ${NEWEST_NPM_MAJOR}`, NEWEST_NPM_MAJOR],
  ])(
    "`npm install <tarball>` with %s installs the built package and warns of no script of its own",
    (_, major) => {
      // As a user installs a downloaded tarball: no lockfile (npm reads the package's own package.json, which is
      // what it lists install scripts from), the registry's documents from npm's cache where it has them.
      const dir = path.join(scratch.dir, `tarball-with-npm-${major ?? "on-path"}`);
      fs.mkdirSync(dir);
      fs.writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "user", version: "1.0.0", private: true }),
      );
      const env = { ...(major ? envWithNpm(major) : {}), npm_config_prefer_offline: "true" };
      if (major) expect(npm(["--version"], dir, env).stdout).toMatch(new RegExp(`^${major}\\.`));
      const result = npm(["install", packed.tarball], dir, env);
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
    },
  );

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

  it("nothing internal in the types a program sees: no @internal declaration, no creationScope", () => {
    const root = path.join(project, "node_modules", packed.manifest.name);
    const declarations = typeGraph(path.join(root, "dist/provider/index.d.ts"));
    expect(declarations.size).toBeGreaterThan(10);
    const leaks = [...declarations].filter((file) =>
      /@internal|creationScope/.test(fs.readFileSync(file, "utf8")),
    );
    expect(leaks.map((file) => path.relative(root, file))).toEqual([]);
  });

  it("the quickstart compiles with 0 errors under the tsconfig `pulumi new typescript` writes", () => {
    fs.copyFileSync(path.join(REPO_ROOT, "examples/quickstart/index.ts"), path.join(project, "index.ts"));
    fs.writeFileSync(path.join(project, "tsconfig.json"), TSCONFIGS["pulumi new typescript"]!.text);
    const result = tsc(["-p", "tsconfig.json"]);
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(project, "bin/index.js"))).toBe(true);
  });

  it("the quickstart's mocked unit test passes in jest and opens no connection", () => {
    fs.copyFileSync(
      path.join(REPO_ROOT, "examples/quickstart/index.test.ts"),
      path.join(project, "index.test.ts"),
    );
    // The documented jest setup: ts-jest compiles (and type-checks) the test with the project's tsconfig.
    const manifestPath = path.join(project, "package.json");
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    manifest.jest = { preset: "ts-jest", testEnvironment: "node" };
    fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

    // Every TCP connection the test process tries is recorded (and refused).
    const attempts = path.join(scratch.dir, "connections.log");
    const guard = path.join(scratch.dir, "no-network.js");
    fs.writeFileSync(
      guard,
      [
        'const net = require("node:net");',
        'const fs = require("node:fs");',
        "net.Socket.prototype.connect = function (options, port) {",
        "  const to = options && typeof options === 'object' ? `${options.host ?? options.path}:${options.port}` : `${options}:${port}`;",
        `  fs.appendFileSync(${JSON.stringify(attempts)}, to + "\\n");`,
        '  throw new Error("no network in this test");',
        "};",
      ].join("\n"),
    );
    const result = run(
      process.execPath,
      [path.join(project, "node_modules/jest/bin/jest.js"), "--ci", "--runInBand"],
      { NODE_OPTIONS: `--require ${guard}`, RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "" },
    );
    expect(result.output).toMatch(/Tests:\s+4 passed, 4 total/);
    expect(result.status).toBe(0);
    expect(fs.existsSync(attempts) ? fs.readFileSync(attempts, "utf8") : "").toBe("");
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

  describe("with fastify added for the emulator", () => {
    beforeAll(() => {
      writeProject(project, packed, {
        ...USER_DEPS,
        devDependencies: [...USER_DEPS.devDependencies, "fastify"],
      });
      const result = npm(["install", "--offline"], project);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/npm error/);
      expect(result.status).toBe(0);
    });

    /** A project per tsconfig, each a program that imports every public entry point. */
    const entriesDir = (name: string) => path.join(project, `entries-${name.replace(/\W+/g, "-")}`);
    /**
     * All of them compiled by one `tsc -b`, which reads the libraries' typings once for all: 18.0 against 24.6 s for
     * four `tsc -p`, in a trial of four projects importing @pulumi/pulumi.
     */
    let together: { status: number | null; output: string };
    beforeAll(() => {
      for (const [name, config] of Object.entries(TSCONFIGS)) {
        const dir = entriesDir(name);
        fs.mkdirSync(dir);
        if (config.packageType) {
          fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: config.packageType }));
        }
        fs.writeFileSync(path.join(dir, "index.ts"), ENTRY_POINTS_PROGRAM);
        fs.writeFileSync(path.join(dir, "tsconfig.json"), config.text);
      }
      together = tsc(["-b", ...Object.keys(TSCONFIGS).map(entriesDir)]);
    });

    it.each(Object.keys(TSCONFIGS))("every public entry point compiles with 0 errors under %s", (name) => {
      // When the build of all found an error, this tsconfig's project alone says whether it is this one's.
      const result =
        together.status === 0 && together.output === ""
          ? together
          : tsc(["-p", entriesDir(name), "--noEmit"]);
      expect(result.output).toBe("");
      expect(result.status).toBe(0);
    });

    it("npx rimuhosting-emulator starts the emulator", async () => {
      const child = spawn(
        path.join(project, "node_modules/.bin/rimuhosting-emulator"),
        ["--port", "0", "--quiet"],
        {
          cwd: project,
        },
      );
      try {
        const banner = await new Promise<string>((resolve, reject) => {
          let seen = "";
          child.stdout.on("data", (chunk: Buffer) => {
            seen += chunk.toString();
            if (seen.includes("RIMUHOSTING_APIKEY=")) resolve(seen);
          });
          child.stderr.on("data", (chunk: Buffer) => (seen += chunk.toString()));
          child.once("exit", (code) => reject(new Error(`emulator exited ${code}: ${seen}`)));
        });
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/r)/.exec(banner)?.[1];
        expect(url).toBeDefined();
        const response = await fetch(`${url}/distributions`);
        expect(response.status).toBe(200);
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGTERM");
          await exited;
        }
      }
    });
  });
});
