/**
 * The recipes of docs/ run as written, in a user's project outside the repository (the packed package installed
 * from npm's cache, as test/package/packed.test.ts does): the jest setup and tests of docs/testing.md, the emulator
 * commands and code of docs/emulator.md, the client example of docs/client.md, and, through the real pulumi CLI
 * against the emulator, the programs of docs/vps.md and the `pulumi import` failure of docs/troubleshooting.md.
 * The README's recipes are run by test/package/readme.test.ts.
 *
 * Each block is read from its page (<!-- recipe: id -->, see support/code-blocks.ts), never copied here. What the
 * test changes in a block is said where it does it: a port, an order number the emulator gave, the release's URL in
 * `npx -p` (the packed package served on 127.0.0.1 as GitHub serves a release, run with npm 12), `--yes` for commands
 * that would ask.
 * One project for the file: the tests run in order and build on each other.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { createClient } from "../../provider/client/index";
import { CliStack } from "../engine/cli-stack";
import { describeCliOnly } from "../engine/describe-cli";
import { cliSkipReason } from "../engine/stack-driver";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import {
  npm,
  packFromCheckout,
  REPO_ROOT,
  scratchDir,
  writeProject,
  type PackedPackage,
} from "../package/support/offline-project";
import { NEWEST_NPM_MAJOR, npmBinDir } from "../package/support/npm-versions";
import { asServed, PAGES_RELEASE_URL } from "../package/support/release-routes";
import {
  releaseDownloadPath,
  serveReleaseFiles,
  type ReleaseServer,
} from "../package/support/release-server";
import { TSCONFIGS } from "../package/support/user-tsconfigs";
import { commandLines, recipe, shownOutput } from "./support/code-blocks";
import { importCommandArgs, importFailureFor } from "./support/import-failure";
import { onFreePort, QUIET_NPM_ENV, shell, shellOk, shownLinePattern, startServer } from "./support/shell";
import { userEnv } from "./support/user-env";

jest.setTimeout(900_000);

const scratch = scratchDir("recipes");
const project = path.join(scratch.dir, "project");
let packed: PackedPackage;
/** The packed package served as a GitHub release's asset is (docs/emulator.md#start names its URL). */
let release: ReleaseServer;

/**
 * A Pulumi TypeScript project directory inside the user's project, sharing its node_modules. Its own package.json
 * names its program: without one, the Node.js runtime takes the nearest package.json above (the user's project)
 * and runs that project's index.ts.
 */
function programDir(name: string, program: string): string {
  const dir = path.join(project, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
  );
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "index.ts" }));
  fs.writeFileSync(path.join(dir, "index.ts"), program);
  return dir;
}

/**
 * The pages' jest tests, each a file of the user's project (its path from the project's root) written as its page
 * says, with how many tests it holds: docs/testing.md's unit test beside the quickstart and, where the CLI is,
 * its test of the two-VPS program against the emulator; docs/emulator.md's emulator started from code.
 */
const USER_TESTS: { file: string; tests: number; cli?: true; write(): void }[] = [
  {
    file: "unit/index.test.ts",
    tests: 4,
    write() {
      const dir = path.join(project, "unit");
      fs.mkdirSync(dir);
      fs.copyFileSync(path.join(REPO_ROOT, "examples/quickstart/index.ts"), path.join(dir, "index.ts"));
      fs.writeFileSync(path.join(dir, "index.test.ts"), recipe("docs/testing.md#unit-test"));
    },
  },
  {
    file: "test/infra.test.ts",
    tests: 1,
    cli: true,
    write() {
      fs.writeFileSync(
        path.join(project, "Pulumi.yaml"),
        "name: infra\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
      );
      fs.writeFileSync(path.join(project, "index.ts"), recipe("docs/testing.md#program"));
      fs.mkdirSync(path.join(project, "test"));
      fs.writeFileSync(
        path.join(project, "test/infra.test.ts"),
        recipe("docs/testing.md#against-the-emulator"),
      );
    },
  },
  {
    file: "from-code.test.ts",
    tests: 1,
    write() {
      // The page's lines in a test: its imports at the top, the rest as the test's body.
      const lines = recipe("docs/emulator.md#from-code").split("\n");
      const imports = lines.filter((line) => line.startsWith("import "));
      const body = lines.filter((line) => !line.startsWith("import "));
      const test = [...imports, "", 'test("docs/emulator.md#from-code", async () => {', ...body, "});", ""];
      fs.writeFileSync(path.join(project, "from-code.test.ts"), test.join("\n"));
    },
  },
];

/** What the one run of the user's jest printed, the files it ran, and how many tests they hold together. */
interface UserJestRun {
  code: number | null;
  output: string;
  files: string[];
  total: number;
}
let userJestRun: Promise<UserJestRun> | undefined;

/**
 * One run of the user's project's jest (`npx jest`, as the pages say) over all of USER_TESTS, written first (the
 * CLI's only where the CLI is): a user runs the tests of a project together, and jest and ts-jest then start, and
 * read the libraries' typings, once instead of once per page. In the environment a user has (user-env.ts): the
 * harness's CLI settings (the recipe names the backend and the passphrase; the rest keeps the CLI offline: no
 * update check, no plugin download, a PULUMI_HOME of its own) and npm's quiet settings, nothing else of this test's
 * process. Each page's test then checks its file's line in the output.
 */
function userJest(): Promise<UserJestRun> {
  userJestRun ??= (async () => {
    const tests = USER_TESTS.filter((t) => !t.cli || cliSkipReason() === undefined);
    for (const t of tests) t.write();
    const files = tests.map((t) => t.file);
    const env = userEnv(
      "docs/testing.md",
      {},
      {
        ...QUIET_NPM_ENV,
        PULUMI_HOME: path.join(scratch.dir, "pulumi-home"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      },
    );
    const result = await shell(`npx jest --ci ${files.map((f) => `"${f}"`).join(" ")}`, {
      cwd: project,
      env,
      clean: true,
    });
    const total = tests.reduce((sum, t) => sum + t.tests, 0);
    return { ...result, files, total };
  })();
  return userJestRun;
}

/**
 * That the user's jest ran `file` and it passed: jest's `PASS <file>` line (`./<file>` for a file at the project's
 * root), else the run's output; and the whole run passed.
 */
async function passedInUserJest(file: string): Promise<void> {
  const run = await userJest();
  expect(run.files).toContain(file);
  const status = run.output
    .split("\n")
    .map((line) => /^(PASS|FAIL) (?:\.\/)?(\S+)/.exec(line.trim()))
    .find((match) => match?.[2] === file)?.[1];
  expect({ file, status, output: status === "PASS" ? "" : run.output }).toEqual({
    file,
    status: "PASS",
    output: "",
  });
  // Every test of every file ran (the unit test's 4 among them), and the run passed.
  expect(run.output).toMatch(new RegExp(`Tests:\\s+${run.total} passed, ${run.total} total`));
  expect(run.code).toBe(0);
}

/** Runs docs/troubleshooting.md's `pulumi import` on `stack` (plus `--yes`: no terminal to answer it); its output. */
async function importFails(stack: CliStack): Promise<string> {
  const failure = await stack.command(...importCommandArgs(), "--yes").then(
    () => undefined,
    (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
  );
  if (failure === undefined)
    throw new Error("`pulumi import` of the dynamic Vps succeeded: docs/troubleshooting.md is out of date");
  return failure;
}

beforeAll(async () => {
  packed = packFromCheckout(scratch.dir);
  release = await serveReleaseFiles(packed.manifest.version, [packed.tarball]);
  fs.mkdirSync(project);
  writeProject(project, packed, {
    dependencies: ["@pulumi/pulumi"],
    devDependencies: ["typescript", "@types/node", "fastify"],
  });
  const install = npm(["install", "--offline"], project);
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stdout}${install.stderr}`);
  fs.writeFileSync(path.join(project, "tsconfig.json"), TSCONFIGS["pulumi new typescript"]!.text);
});
afterAll(async () => {
  await release?.close();
  scratch.cleanup();
});

describe("docs/testing.md", () => {
  it("sets jest up with the page's two steps", async () => {
    const env = userEnv("docs/testing.md", {}, QUIET_NPM_ENV);
    for (const line of commandLines(recipe("docs/testing.md#jest-setup"))) {
      await shellOk(line, { cwd: project, env, clean: true });
    }
    // The page shows the keys to add to package.json.
    const keys = JSON.parse(`{${recipe("docs/testing.md#jest-config")}}`);
    const manifestPath = path.join(project, "package.json");
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    fs.writeFileSync(manifestPath, JSON.stringify({ ...manifest, ...keys }, null, 2));
    expect(fs.existsSync(path.join(project, "node_modules/ts-jest"))).toBe(true);
  });

  it("the unit test with mocks is examples/quickstart/index.test.ts, and passes beside the quickstart", async () => {
    expect(recipe("docs/testing.md#unit-test")).toBe(
      fs.readFileSync(path.join(REPO_ROOT, "examples/quickstart/index.test.ts"), "utf8"),
    );
    await passedInUserJest("unit/index.test.ts");
  });

  describeCliOnly("against the emulator", () => {
    it("the page's test of its two-VPS program passes through the CLI", async () => {
      await passedInUserJest("test/infra.test.ts");
    });
  });
});

describe("docs/emulator.md", () => {
  it("starts from a shell both ways the page gives, with the banner it shows", async () => {
    const [installed, withoutInstall, ...rest] = commandLines(recipe("docs/emulator.md#start"));
    expect(rest).toEqual([]);
    const banner = [/listening on http:\/\/127\.0\.0\.1:\d+\/r/, /Demo API key: \d+/];

    // In the project; at the default time scale, whose banner line the page quotes.
    const timeScaleLine = recipe("docs/emulator.md#banner-time-scale").trim();
    const first = await startServer(onFreePort(installed!), {
      cwd: project,
      env: userEnv("docs/emulator.md", {}, QUIET_NPM_ENV),
      clean: true,
      expected: [...banner, shownLinePattern(timeScaleLine)],
    });
    await first.stop();

    // From a directory with nothing installed, with npm 12 (the strictest about a URL): the release's tarball from
    // its URL, the release served on 127.0.0.1 (only `https://github.com` and `<version>` change in the line).
    expect(withoutInstall).toContain(`${PAGES_RELEASE_URL}pulumi-rimuhosting-<version>.tgz`);
    const served = asServed(
      withoutInstall!,
      `${release.origin}${releaseDownloadPath(packed.manifest.version, "")}`,
      packed.manifest.version,
    );
    const elsewhere = path.join(scratch.dir, "elsewhere");
    fs.mkdirSync(elsewhere);
    // npx asks before it installs (`Ok to proceed? (y)`); npm_config_yes is that answer, with no terminal here.
    const npm12Env = userEnv("docs/emulator.md", {}, { ...QUIET_NPM_ENV, npm_config_yes: "true" }, [
      npmBinDir(),
    ]);
    expect((await shellOk("npm --version", { cwd: elsewhere, env: npm12Env, clean: true })).trim()).toMatch(
      new RegExp(`^${NEWEST_NPM_MAJOR}\\.`),
    );
    // What the page says: without --allow-remote, npm 12 refuses the URL.
    const refused = await shell(onFreePort(served.replace("npx --allow-remote=root ", "npx ")), {
      cwd: elsewhere,
      env: npm12Env,
      clean: true,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/EALLOWREMOTE[\s\S]*Refusing to fetch/);
    const second = await startServer(onFreePort(served), {
      cwd: elsewhere,
      env: npm12Env,
      clean: true,
      expected: banner,
    });
    await second.stop();
    expect(release.requests).toContain(
      releaseDownloadPath(packed.manifest.version, path.basename(packed.tarball)),
    );
  });

  it("with options, prints exactly the lines the page shows", async () => {
    const block = recipe("docs/emulator.md#options");
    // The page's port 8080 may be taken on this machine: the same command on a port the system picks as it listens.
    const [command] = commandLines(block);
    const server = await startServer(command!.replace(/--port 8080/g, "--port 0"), {
      cwd: project,
      env: userEnv("docs/emulator.md", {}, QUIET_NPM_ENV),
      clean: true,
      expected: shownOutput(block).map((line) => shownLinePattern(line.replace(/8080/g, "<port>"))),
    });
    await server.stop();
  });

  it("runs from code in a jest test as the page shows", async () => {
    await passedInUserJest("from-code.test.ts");
  });
});

describe("docs/client.md", () => {
  let emulator: TestEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    await emulator.close();
  });

  it("the example orders a VPS and resizes it, compiled and run as an ES module", async () => {
    // Top-level await: an ES-module project (package.json "type": "module") with the tsconfig of `pulumi new`.
    const dir = path.join(project, "client-example");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    fs.writeFileSync(path.join(dir, "tsconfig.json"), TSCONFIGS["pulumi new typescript"]!.text);
    fs.writeFileSync(path.join(dir, "index.ts"), recipe("docs/client.md#example"));
    const tsc = path.join(project, "node_modules/typescript/bin/tsc");
    const env = userEnv("docs/client.md", {
      RIMUHOSTING_BASEURL: emulator.baseUrl,
      RIMUHOSTING_APIKEY: DEMO_API_KEY,
    });
    await shellOk(`"${process.execPath}" "${tsc}" -p .`, { cwd: dir, env, clean: true });
    const output = await shellOk(`"${process.execPath}" bin/index.js`, { cwd: dir, env, clean: true });
    expect(output).not.toMatch(/not possible now|no such order/);
    const answered = emulator
      .requestLog()
      .filter((r) => r.status === 200)
      .map((r) => r.route);
    expect(answered).toEqual(expect.arrayContaining(["createVps", "changeParameters"]));
  });
});

describeCliOnly("the pages' Pulumi programs, through the CLI against the emulator", () => {
  let emulator: TestEmulator;
  const stacks: CliStack[] = [];
  const backendDir = path.join(scratch.dir, "backend");
  /** A stack of the program in `dir`, its commands run in the environment of `page`'s recipes. */
  const stackFor = async (dir: string, page: string) => {
    const stack = await CliStack.create({
      programDir: dir,
      backendDir,
      baseEnv: userEnv(page, {}),
      config: {
        "rimuhosting:baseUrl": emulator.baseUrl,
        "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
      },
    });
    stacks.push(stack);
    return stack;
  };
  const client = () => createClient({ baseUrl: emulator.baseUrl, apiKey: DEMO_API_KEY });

  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    for (const stack of stacks) stack.close();
    await emulator.close();
  });

  // The page shows the programs, no commands: each goes up, and the stacks are left to the emulator's end (a destroy
  // of the dynamic Vps is test/package/readme.test.ts's, the README's `pulumi destroy`, and lifecycle.test.ts's).
  // `--skip-preview`: the page shows no preview, and one would run the program and the provider once more each (CPU,
  // issue 67); the update's own check prints the adoption's line.
  it("docs/vps.md: the example goes up and exports its IP", async () => {
    const stack = await stackFor(programDir("vps-example", recipe("docs/vps.md#example")), "docs/vps.md");
    const up = await stack.command("up", "--yes", "--skip-preview");
    expect(up).toMatch(/\+ 2 created/);
    expect(up).toMatch(/ip\s*: "\d+\.\d+\.\d+\.\d+"/);
    expect(emulator.snapshot().filter((order) => !order.cancelled)).toHaveLength(1);
  });

  it("docs/vps.md: adoption takes over an existing order and applies the program's memoryMb", async () => {
    const rimu = client();
    try {
      const created = await rimu.createVps({
        instantiation_options: { domain_name: "legacy.example.com", distro: "deb12.64" },
        dc_location: "DCDALLAS",
      });
      const oid = created.about_order.order_oid;
      // The page's fragment, with the order number the emulator gave instead of 1234567, in a program.
      const fragment = recipe("docs/vps.md#adopt");
      expect(fragment).toContain("1234567");
      const program = `import { Vps } from "pulumi-rimuhosting";\n\n${fragment.replace("1234567", String(oid))}`;
      const stack = await stackFor(programDir("vps-adopt", program), "docs/vps.md");
      const up = await stack.command("up", "--yes", "--skip-preview");
      expect(up).toContain(`will adopt existing order ${oid} (legacy.example.com`);
      const order = await rimu.getOrder(oid);
      expect(order.about_order.vps_parameters?.memory_mb).toBe(2048);
      expect(emulator.snapshot().filter((o) => o.domainName === "legacy.example.com")).toHaveLength(1);
    } finally {
      rimu.close();
    }
  });

  it("docs/troubleshooting.md: `pulumi import` of the dynamic Vps fails with the text the page quotes", async () => {
    const stack = await stackFor(
      programDir("import-attempt", recipe("docs/vps.md#example")),
      "docs/troubleshooting.md",
    );
    const live = () =>
      emulator
        .snapshot()
        .filter((o) => !o.cancelled)
        .map((o) => o.orderOid);
    const before = live();
    const failure = await importFails(stack);
    const sdk = JSON.parse(
      fs.readFileSync(path.join(project, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
    );
    for (const pattern of importFailureFor(sdk.version)) expect(failure).toMatch(pattern);
    // Nothing imported, nothing ordered.
    expect(await stack.exportState()).not.toContain("legacy");
    expect(live()).toEqual(before);
  });
});
