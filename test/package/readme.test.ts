/**
 * The README followed word for word, as a new user does, with npm 12 (npm's newest major line, the strictest about
 * what it fetches and runs; scripts/npm.sh installs it into a cache), in a fresh project outside the repository made
 * of the three files docs/typescript.md gives for a project without `pulumi new` (no GitHub needed): its
 * install line (the release's npm tarball by URL, served on 127.0.0.1 instead of GitHub), a compile of every public
 * entry point under the two tsconfigs `pulumi new typescript` has written, then, through the real pulumi CLI, its
 * emulator, configure, quickstart and `pulumi up` steps, and `pulumi destroy`; and, in that project, the
 * `pulumi import` failure docs/troubleshooting.md quotes for the @pulumi/pulumi npm picked.
 *
 * The lines are read from README.md's marked code blocks (<!-- recipe: … --> in test/docs/support/code-blocks.ts),
 * never copied here. What the test changes in them, and why:
 * - `https://github.com` in the install line becomes a static server on 127.0.0.1 that serves, at the release's
 *   download path, the package packed from this checkout as a release packs it (tools/release/npm-package.ts), and
 *   `<version>` becomes package.json's version;
 * - `<port>` becomes the port the emulator printed, and the `--secret` prompt is answered with its demo key;
 * - `pulumi up` and `pulumi destroy` get `--yes` (no terminal to answer their question), and every pulumi command
 *   runs offline (a file backend of its own, no update check, no plugin download: offlineCliEnv).
 *
 * Network: npm reaches the registry for the dependencies (its cache first: npm_config_prefer_offline); everything
 * else is on 127.0.0.1. One project for the file: the tests run in order and build on each other.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createClient } from "../../provider/client/index";
import { commandLines, recipe, shownOutput } from "../docs/support/code-blocks";
import { importCommandArgs, importFailureFor } from "../docs/support/import-failure";
import {
  onFreePort,
  QUIET_NPM_ENV,
  shell,
  shellOk,
  shownLinePattern,
  startServer,
  type Server,
} from "../docs/support/shell";
import { userEnv } from "../docs/support/user-env";
import { describeCliOnly } from "../engine/describe-cli";
import { offlineCliEnv } from "../engine/cli-stack";
import { packFromCheckout, REPO_ROOT, scratchDir } from "./support/offline-project";
import { NEWEST_NPM_MAJOR, npmBinDir } from "./support/npm-versions";
import { REPOSITORY_WEB_URL } from "./support/repository-links";
import { serveReleaseFiles, type ReleaseServer } from "./support/release-server";
import { ENTRY_POINTS_PROGRAM, PULUMI_NEW_TSCONFIGS } from "./support/user-tsconfigs";

jest.setTimeout(1_200_000);

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
const scratch = scratchDir("readme");
const project = path.join(scratch.dir, "project");
const cliEnv = offlineCliEnv(path.join(scratch.dir, "backend"));

/**
 * The project the README's first step installs into: the three files docs/typescript.md gives for a project without
 * `pulumi new` (which needs GitHub), written as the page shows them into an empty directory, and nothing else.
 */
function newPulumiProject(): void {
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), recipe("docs/typescript.md#project-pulumi-yaml"));
  fs.writeFileSync(path.join(project, "package.json"), recipe("docs/typescript.md#project-package-json"));
  const tsconfig = recipe("docs/typescript.md#project-tsconfig");
  // The page's tsconfig is the one `pulumi new typescript` writes, which the compile tests below take too.
  expect(JSON.parse(tsconfig)).toEqual(JSON.parse(PULUMI_NEW_TSCONFIGS["pulumi new typescript"]!.text));
  fs.writeFileSync(path.join(project, "tsconfig.json"), tsconfig);
}

/** npm 12 first on PATH for every step, `npx rimuhosting-emulator` included. */
/**
 * The README's environment (user-env.ts): nothing of this test's process, npm 12 first on PATH as a user who
 * installed it has it, npm's quiet settings; the CLI's offline settings (harness-env list) for the pulumi steps.
 */
const npmEnv = userEnv("README.md", {}, QUIET_NPM_ENV, [npmBinDir(NEWEST_NPM_MAJOR)]);
let releaseServer: ReleaseServer;

beforeAll(async () => {
  releaseServer = await serveReleaseFiles(manifest.version, [packFromCheckout(scratch.dir).tarball]);
  newPulumiProject();
});
afterAll(async () => {
  await releaseServer?.close();
  scratch.cleanup();
});

describe("the README's install", () => {
  let install: { code: number | null; output: string };

  beforeAll(async () => {
    const lines = commandLines(recipe("README.md#install"));
    expect(lines.length).toBeGreaterThan(0);
    const output: string[] = [
      `npm ${(await shellOk("npm --version", { cwd: project, env: npmEnv, clean: true })).trim()}`,
    ];
    install = { code: 0, output: "" };
    for (const line of lines) {
      // Each install line names the release's tarball on GitHub (package.json's repository, the release's tag)
      expect(line).toContain(`${REPOSITORY_WEB_URL}/releases/download/v<version>/`);
      const served = line.split("https://github.com").join(releaseServer.origin);
      const result = await shell(served.split("<version>").join(manifest.version), {
        cwd: project,
        env: npmEnv,
        clean: true,
      });
      output.push(`$ ${line}\n${result.output}`);
      install = { code: result.code, output: output.join("\n") };
      if (result.code !== 0) break;
    }
  });

  it(`installs the release's tarball from its URL with npm ${NEWEST_NPM_MAJOR}: built code, no script run`, () => {
    expect(install.output).toMatch(new RegExp(`^npm ${NEWEST_NPM_MAJOR}\\.`));
    expect(install.output).not.toMatch(/npm error/);
    expect(install.code).toBe(0);
    expect(releaseServer.requests).toContain(
      `${new URL(REPOSITORY_WEB_URL).pathname}/releases/download/v${manifest.version}/${manifest.name}-${manifest.version}.tgz`,
    );
    const installed = path.join(project, "node_modules", manifest.name);
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false); // a real copy (the provider host needs one)
    expect(fs.existsSync(path.join(installed, "dist/provider/index.js"))).toBe(true);
    expect(fs.existsSync(path.join(installed, "dist/node10-types/contract/index.d.ts"))).toBe(true);
    // npm lists each package whose install script it blocked or did not approve: never this one
    const warned = install.output.split("\n").filter((line) => /install-scripts/.test(line));
    expect(warned.filter((line) => line.includes(manifest.name))).toEqual([]);
  });

  it("the compiled program imports every entry point package.json exports", () => {
    // Not an API: the serialized provider's require() paths, `./shim` and the one states before it hold under
    // ./dist/ (provider/vps-shim.ts).
    const entries = Object.keys(manifest.exports)
      .filter((key) => key !== "./package.json" && key !== "./shim" && !key.startsWith("./dist/"))
      .map((key) => (key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`));
    const imported = [...ENTRY_POINTS_PROGRAM.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    expect(entries.filter((entry) => !imported.includes(entry))).toEqual([]);
  });

  describe("every public entry point, without fastify installed", () => {
    const tsc = path.join(project, "node_modules/typescript/bin/tsc");
    /** A project per tsconfig `pulumi new` writes, each a program that imports every public entry point. */
    const entriesDir = (name: string) => path.join(project, `entries-${name.replace(/\W+/g, "-")}`);
    /** All of them compiled by one `tsc -b`, which reads the libraries' typings once (as packed.test.ts does). */
    let together: { code: number | null; output: string };
    beforeAll(async () => {
      expect(fs.existsSync(path.join(project, "node_modules/fastify"))).toBe(false);
      for (const [name, config] of Object.entries(PULUMI_NEW_TSCONFIGS)) {
        fs.mkdirSync(entriesDir(name));
        fs.writeFileSync(path.join(entriesDir(name), "index.ts"), ENTRY_POINTS_PROGRAM);
        fs.writeFileSync(path.join(entriesDir(name), "tsconfig.json"), config.text);
      }
      const dirs = Object.keys(PULUMI_NEW_TSCONFIGS).map((name) => `"${entriesDir(name)}"`);
      together = await shell(`"${process.execPath}" "${tsc}" -b ${dirs.join(" ")}`, { cwd: project });
    });
    // Not part of the program `pulumi up` runs.
    afterAll(() => {
      for (const name of Object.keys(PULUMI_NEW_TSCONFIGS)) fs.rmSync(entriesDir(name), { recursive: true });
    });

    it.each(Object.keys(PULUMI_NEW_TSCONFIGS))("compiles with 0 errors under %s", async (name) => {
      // When the build of all found an error, this tsconfig's project alone says whether it is this one's.
      const result =
        together.code === 0 && together.output === ""
          ? together
          : await shell(`"${process.execPath}" "${tsc}" -p "${entriesDir(name)}" --noEmit`, { cwd: project });
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    });
  });
});

describeCliOnly("the README's first deployment", () => {
  let emulator: Server | undefined;
  let port: string;
  let demoKey: string;
  const pulumiEnv = userEnv("README.md", {}, { ...QUIET_NPM_ENV, ...cliEnv }, [npmBinDir(NEWEST_NPM_MAJOR)]);

  // The stack is the configure step's to make (README says `pulumi stack init`): without it, `pulumi config set` in
  // a script fails with "no stack selected" (issue 82). The backend is the harness's (offlineCliEnv), where README's
  // `pulumi login --local` would put it in ~/.pulumi.
  beforeAll(() => {
    fs.mkdirSync(path.join(scratch.dir, "backend"));
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it("starts the emulator as the README says, and it prints what the README shows", async () => {
    const block = recipe("README.md#emulator");
    const commands = commandLines(block);
    const server = commands.pop()!;
    expect(server).toMatch(/^npx rimuhosting-emulator\b/);
    for (const line of commands) await shellOk(line, { cwd: project, env: npmEnv, clean: true });
    const shown = shownOutput(block);
    expect(shown.length).toBeGreaterThanOrEqual(2);
    emulator = await startServer(onFreePort(server), {
      cwd: project,
      env: npmEnv,
      clean: true,
      expected: shown.map(shownLinePattern),
    });
    port = /listening on http:\/\/127\.0\.0\.1:(\d+)\/r/.exec(emulator.output)![1]!;
    demoKey = /Demo API key: (\d+)/.exec(emulator.output)![1]!;
  });

  it("configures the stack with the README's lines", async () => {
    for (const line of commandLines(recipe("README.md#configure"))) {
      const prompts = /--secret$/.test(line) && !/=/.test(line); // `config set <key> --secret` asks for the value
      await shellOk(line.replace(/<port>/g, port), {
        cwd: project,
        env: pulumiEnv,
        clean: true,
        input: prompts ? demoKey : undefined,
      });
    }
    const config = await shellOk("pulumi config --show-secrets --json", {
      cwd: project,
      env: pulumiEnv,
      clean: true,
    });
    expect(JSON.parse(config)).toMatchObject({
      "rimuhosting:baseUrl": { value: `http://127.0.0.1:${port}/r` },
      "rimuhosting:apiKey": { value: demoKey, secret: true },
    });
  });

  it("the quickstart goes up, shows its password, and is destroyed, with the README's commands", async () => {
    fs.writeFileSync(path.join(project, "index.ts"), recipe("README.md#quickstart"));
    const lines = commandLines(recipe("README.md#up"));
    expect(lines[0]).toBe("pulumi up");
    const outputs: string[] = [];
    for (const line of lines) {
      const command = /^pulumi (up|destroy)$/.test(line) ? `${line} --yes` : line;
      outputs.push(await shellOk(command, { cwd: project, env: pulumiEnv, clean: true }));
    }
    const [up, password, destroy] = outputs;
    expect(up).toMatch(/\+ 2 created/); // the stack and the Vps
    expect(up).toMatch(/ip\s+: "\d+\.\d+\.\d+\.\d+"/);
    expect(password!.trim()).toMatch(/^\S{8,}$/);
    expect(destroy).toMatch(/- 2 deleted/);

    const client = createClient({ baseUrl: `http://127.0.0.1:${port}/r`, apiKey: demoKey });
    try {
      const { about_orders: active } = await client.listOrders(); // active orders only, by default
      expect(active ?? []).toEqual([]); // nothing left running or billed
    } finally {
      client.close();
    }
  });

  it("`pulumi import` of the Vps fails as docs/troubleshooting.md quotes it for this project's SDK", async () => {
    // npm's pick of @pulumi/pulumi (the newest within the peer range), where test/docs/recipes.test.ts has the
    // lockfile's.
    const sdk = JSON.parse(
      fs.readFileSync(path.join(project, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
    );
    const result = await shell(["pulumi", ...importCommandArgs(), "--yes"].join(" "), {
      cwd: project,
      env: pulumiEnv,
      clean: true,
    });
    expect(result.code).not.toBe(0);
    for (const pattern of importFailureFor(sdk.version)) expect(result.output).toMatch(pattern);
  });
});
