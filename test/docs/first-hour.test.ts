/**
 * The steps of a new user's first hour that are not a whole program (issue 28, item 9), run as the pages give them:
 * the one emulator command of each kind (a user's project, a checkout, the plugin), and that the other pages use no
 * other; the YAML quickstart's package declaration, which names the release its plugin comes from; the language hosts
 * for a CLI built from source (docs/native-plugin.md); PULUMI_PYTHON_CMD for the Python host those give
 * (docs/python.md), whose absence is the `ModuleNotFoundError` the page names. The language pages' "Try it without an
 * account" runs from the release in test/engine/first-hour-release.test.ts.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeCliOnly } from "../engine/describe-cli";
import { describeNative, pythonVirtualenv } from "../engine/native-programs";
import { offlineCliEnv } from "../engine/cli-stack";
import { packageVersion } from "../../provider/native/pack";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/native/schema/package-schema";
import { REPO_ROOT, commandLines, documentationFiles, recipe } from "./support/code-blocks";
import { shell, startServer } from "./support/shell";
import { dirOnPath, userEnv } from "./support/user-env";

jest.setTimeout(300_000);

const [PROJECT_FORM = "", CHECKOUT_FORM = ""] = commandLines(recipe("docs/emulator.md#two-forms"));
/** Without Node.js: the emulator the plugin carries (the language pages' recipe, run from the release). */
const PLUGIN_FORM = commandLines(recipe("docs/yaml.md#emulator"))[1] ?? "";

describe("docs/emulator.md: the two ways the pages start the emulator", () => {
  it("in a user's project: the README's command, which test/package/readme.test.ts runs in a project", () => {
    expect(PROJECT_FORM).toBe("npx rimuhosting-emulator --time-scale 0.05");
    expect(commandLines(recipe("README.md#emulator"))).toContain(PROJECT_FORM);
  });

  it("in a checkout: the npm script, which builds the checkout and starts its emulator at that time scale", async () => {
    expect(CHECKOUT_FORM).toBe("npm run emulator -- --time-scale 0.05");
    const scripts = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).scripts;
    const [build, serve] = (scripts.emulator as string).split(" && ");
    expect(build).toBe("npm run build");
    // What the script runs once built (the build itself is the suite's own: `npm test` has just built dist/), with the
    // arguments npm appends after `--`.
    const server = await startServer(`${serve} ${CHECKOUT_FORM.split(" -- ")[1]} --port 0`, {
      cwd: REPO_ROOT,
      expected: [/listening on http:\/\/127\.0\.0\.1:\d+\/r/, /Time scale 0\.05: a create takes 2\.3 s/],
    });
    await server.stop();
  });

  it("the language pages' form runs the plugin's emulator subcommand (`--` keeps its flags from pulumi)", () => {
    expect(PLUGIN_FORM).toBe("pulumi plugin run --kind resource rimuhosting -- emulator --time-scale 0.05");
    const runs = documentationFiles()
      .filter((file) => file !== "docs/emulator.md")
      .flatMap((file) =>
        [...fs.readFileSync(path.join(REPO_ROOT, file), "utf8").matchAll(/pulumi plugin run[^`\n#]*/g)].map(
          (m) => ({ file, command: m[0].trim() }),
        ),
      );
    // The plugin runs other commands too (import-file, drift, bill); every run of its emulator takes this one form.
    const emulatorRuns = runs.filter(({ command }) => /\bemulator\b/.test(command));
    expect(emulatorRuns.length).toBeGreaterThanOrEqual(4);
    expect(emulatorRuns.filter(({ command }) => command !== PLUGIN_FORM)).toEqual([]);
  });

  it("the other pages start it only these two ways", () => {
    const starts = documentationFiles()
      .filter((file) => file !== "docs/emulator.md") // the reference: every flag and way
      .flatMap((file) => {
        const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
        return [
          ...text.matchAll(/(?:npx [^`\n]*rimuhosting-emulator|npm run emulator(?![\w:-]))[^`\n#]*/g),
        ].map((m) => ({ file, command: m[0].trim().replace(/ --port \d+/, "") }));
      });
    expect(starts.length).toBeGreaterThanOrEqual(4);
    const other = starts.filter(({ command }) => command !== PROJECT_FORM && command !== CHECKOUT_FORM);
    expect(other).toEqual([]);
  });
});

describe("examples/yaml-quickstart: the package declaration that fetches its plugin", () => {
  it("is the file `pulumi package add rimuhosting@<version>` writes, for package.json's version and the schema's server", () => {
    const version = packageVersion();
    const dir = path.join(REPO_ROOT, "examples/yaml-quickstart/sdks/rimuhosting");
    // At a version bump, rename the file and change its version: the quickstart downloads the plugin it names.
    expect(fs.readdirSync(dir)).toEqual([`rimuhosting-${version}.yaml`]);
    expect(fs.readFileSync(path.join(dir, `rimuhosting-${version}.yaml`), "utf8")).toBe(
      [
        "packageDeclarationVersion: 1",
        "name: rimuhosting",
        `version: ${version}`,
        `downloadUrl: ${PLUGIN_DOWNLOAD_URL}`,
        "",
      ].join("\n"),
    );
  });
});

describeCliOnly("docs/native-plugin.md: language hosts for a CLI built from source", () => {
  it("the page's line puts the YAML, Go and Python hosts on PATH", async () => {
    const [line] = commandLines(recipe("docs/native-plugin.md#language-hosts"));
    // A user's PATH without the hosts, with the Go the page says builds them (warm, the script only finds them).
    const printed = await shell(
      `${line} && command -v pulumi-language-yaml pulumi-language-go pulumi-language-python`,
      { cwd: REPO_ROOT, env: userEnv("docs/native-plugin.md", {}, {}, dirOnPath("go")), clean: true },
    );
    expect(printed.code).toBe(0);
    for (const host of ["yaml", "go", "python"])
      expect(printed.output).toMatch(new RegExp(`/pulumi-language-${host}\\n`));
  });
});

describeNative(
  "python",
  "docs/python.md: the interpreter for the Python host scripts/language-hosts.sh builds",
  () => {
    let dir: string;
    /** The page's environment: the hosts on PATH (its link to native-plugin.md), a file backend (the harness's). */
    const env = () =>
      userEnv(
        "docs/python.md",
        {},
        offlineCliEnv(path.join(dir, "backend")),
        dirOnPath("pulumi-language-python"),
      );

    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "first-hour-python-"));
      fs.mkdirSync(path.join(dir, "backend"));
      // The page's project: a virtual environment `venv` with Pulumi in it (the tests' shared one), named in Pulumi.yaml.
      fs.symlinkSync(pythonVirtualenv()!, path.join(dir, "venv"));
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        "name: first-hour-python\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n",
      );
      fs.writeFileSync(path.join(dir, "__main__.py"), 'import pulumi\n\npulumi.export("answer", 42)\n');
      execFileSync("pulumi", ["stack", "init", "dev", "--non-interactive"], {
        cwd: dir,
        env: env(),
        stdio: "pipe",
      });
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    const preview = (prefix: string) =>
      shell(`${prefix}pulumi preview --non-interactive`, { cwd: dir, env: env(), clean: true });

    it("without the page's line, the host runs python3 from PATH: `No module named 'pulumi'`", async () => {
      const result = await preview("unset PULUMI_PYTHON_CMD; ");
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(/ModuleNotFoundError: No module named 'pulumi'/);
    });

    it("with it, the program runs on the project's virtual environment", async () => {
      const [line] = commandLines(recipe("docs/python.md#python-cmd"));
      const result = await preview(`${line} && `);
      expect(result.output).toMatch(/answer\s*:\s*42/);
      expect(result.code).toBe(0);
    });
  },
);
